"""Reviewer tools for the memory contract: commands, reads, search and review decisions.

Arguments are the HTTP bodies' fields, typed with the contract's own models, and each tool
builds the same request model the route validates, so the rules live in one place.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations

from memwarden.answers import wire
from memwarden.mcp.auth import Runtime
from memwarden.mcp.fields import default, rules
from memwarden.review import commands, decisions, diagnostic, history, records
from memwarden.review.contract import (
    CommandRequest,
    MemoryCommand,
    ReadRequest,
    ReceiptReadRequest,
    ReviewCommand,
    ReviewRequest,
    Revision,
    ScopeIn,
    SearchFilterIn,
    SearchRequest,
    Vector,
)

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


Query = Annotated[str | None, rules(SearchRequest, "query")]
Limit = Annotated[int, rules(SearchRequest, "limit")]
DEFAULT_LIMIT: int = default(SearchRequest, "limit")


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=WRITE)
    async def memory_command(
        scope: ScopeIn, command: MemoryCommand, ctx: Context
    ) -> dict[str, Any]:
        """Create, update or delete a note (update/delete need expected_revision).

        Same body and result as POST /api/v1/memory/commands; needs memory_write.
        """
        svc, who = await rt.begin(ctx)
        return wire(
            await commands.run_command(svc, who, CommandRequest(scope=scope, command=command))
        )

    @server.tool(annotations=READ)
    async def memory_read(
        contract_version: Literal[1], scope: ScopeIn, record_id: uuid.UUID, ctx: Context
    ) -> dict[str, Any]:
        """Read one servable record by id (POST /api/v1/memory/read); needs memory_read."""
        svc, who = await rt.begin(ctx)
        body = ReadRequest(contract_version=contract_version, scope=scope, record_id=record_id)
        return wire(await records.read_record(svc.db, who, body))

    @server.tool(annotations=READ)
    async def memory_search(
        contract_version: Literal[1],
        scope: ScopeIn,
        ctx: Context,
        query: Query = None,
        filter: SearchFilterIn | None = None,
        limit: Limit = DEFAULT_LIMIT,
        vector: Vector | None = None,
    ) -> dict[str, Any]:
        """Search servable records by text and/or a 384-dimension vector.

        Same body and result as POST /api/v1/memory/search; needs memory_read.
        """
        svc, who = await rt.begin(ctx)
        body = SearchRequest(
            contract_version=contract_version,
            scope=scope,
            query=query,
            filter=filter,
            limit=limit,
            vector=vector,
        )
        return wire(await records.search(svc.db, who, body))

    @server.tool(annotations=WRITE)
    async def review_decide(scope: ScopeIn, command: ReviewCommand, ctx: Context) -> dict[str, Any]:
        """Approve, reject or reset a record at its expected revision; returns the receipt.

        Same body and result as POST /api/v1/memory/reviews; needs memory_review.
        """
        svc, who = await rt.begin(ctx)
        return wire(
            await decisions.decide(svc.db, who, ReviewRequest(scope=scope, command=command))
        )

    @server.tool(annotations=READ)
    async def review_state(
        contract_version: Literal[1], scope: ScopeIn, record_id: uuid.UUID, ctx: Context
    ) -> dict[str, Any]:
        """A record's review state and history (POST /api/v1/memory/reviews/state)."""
        svc, who = await rt.begin(ctx)
        body = ReadRequest(contract_version=contract_version, scope=scope, record_id=record_id)
        return wire(await history.review_state(svc.db, who, body))

    @server.tool(annotations=READ)
    async def review_read(
        contract_version: Literal[1],
        scope: ScopeIn,
        record_id: uuid.UUID,
        revision: Revision,
        ctx: Context,
    ) -> dict[str, Any]:
        """The receipt of the decision that produced a revision (POST .../reviews/read)."""
        svc, who = await rt.begin(ctx)
        body = ReceiptReadRequest(
            contract_version=contract_version, scope=scope, record_id=record_id, revision=revision
        )
        return wire(await history.read_receipt(svc.db, who, body))

    @server.tool(annotations=READ)
    async def review_eligibility(
        contract_version: Literal[1], scope: ScopeIn, record_id: uuid.UUID, ctx: Context
    ) -> dict[str, Any]:
        """Why a record is or is not served (POST /api/v1/memory/reviews/eligibility)."""
        svc, who = await rt.begin(ctx)
        body = ReadRequest(contract_version=contract_version, scope=scope, record_id=record_id)
        return wire(await diagnostic.eligibility(svc.db, who, body))
