"""Hygiene tools: scans, the review queue and its corrections (spec 2).

Each acts in the calling key's own Context with the grants HTTP asks for (the use cases
check them): scan, queue, resolve and restore need memory_review; challenge needs
memory_write or memory_review. Bodies are validated by `hygiene/contract.py`.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field, StrictBool

from memwarden.answers import wire
from memwarden.hygiene import queue, runs
from memwarden.hygiene.contract import ChallengeBody, QueueStatus, Resolution, ResolveBody
from memwarden.mcp.auth import Runtime
from memwarden.mcp.fields import rules

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

PageLimit = Annotated[int, Field(ge=1, le=queue.MAX_PAGE)]
Reason = Annotated[str, rules(ChallengeBody, "reason")]


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=WRITE)
    async def scan_hygiene(ctx: Context, rejudge: StrictBool = False) -> dict[str, Any]:
        """Start a full hygiene cycle as a job (stale sweep, sweep, re-examination);
        rejudge=true also re-judges pending pairs with the current judge. Returns runId;
        poll hygiene_run for status and counts."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await runs.start_scan(svc, who, context_id, rejudge=rejudge))

    @server.tool(annotations=READ)
    async def hygiene_run(run_id: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """A hygiene run's status (queued, running, done, failed) and counts."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await runs.get_run(svc, who, context_id, run_id))

    @server.tool(annotations=READ)
    async def hygiene_queue(
        ctx: Context,
        status: QueueStatus | None = "pending",
        limit: PageLimit = 20,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """The review queue, newest first: both memories, verdict, direction, confidence,
        judge model; pass next_cursor back as cursor for the next page."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(
            await queue.list_queue(svc, who, context_id, status=status, limit=limit, cursor=cursor)
        )

    @server.tool(annotations=WRITE)
    async def resolve_conflict(
        item_id: uuid.UUID, resolution: Resolution, ctx: Context
    ) -> dict[str, Any]:
        """Decide a queue item: keep_both, keep_a (b is superseded) or keep_b; once only."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = ResolveBody(resolution=resolution)
        return wire(await queue.resolve(svc, who, context_id, item_id, body.resolution))

    @server.tool(annotations=WRITE)
    async def restore_memory(record_id: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """Undo an automatic resolution: the superseded memory is live again."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await queue.restore(svc, who, context_id, record_id))

    @server.tool(annotations=WRITE)
    async def challenge(record_id: uuid.UUID, reason: Reason, ctx: Context) -> dict[str, Any]:
        """Flag a memory that is wrong against the world for a person (not invalidated)."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = ChallengeBody(reason=reason)
        return wire(await queue.challenge(svc, who, context_id, record_id, body.reason))
