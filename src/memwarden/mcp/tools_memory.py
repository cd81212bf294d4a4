"""Agent tools: remember (the facts use case), recall (query), profile, state and chat.

Each acts in the calling key's own Context; arguments mirror the HTTP bodies and query
parameters, and are validated by the same request models before the use case runs.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations

from memwarden.answers import wire
from memwarden.chat.contract import ChatBody
from memwarden.chat.service import chat as chat_use_case
from memwarden.documents.reprocess import reprocess_document
from memwarden.domain.scope import Visibility
from memwarden.mcp.auth import Runtime
from memwarden.mcp.fields import default, rules
from memwarden.passes.contract import Stage as PassStage
from memwarden.passes.runs import get_run, request_run
from memwarden.pipeline.contract import FactsBody
from memwarden.pipeline.ingest import write_facts
from memwarden.pipeline.reprocess import reprocess_turn
from memwarden.retrieval.contract import AsOf, Category, Kind, Mode, ProfileQuery, QueryBody
from memwarden.retrieval.profile import get_profile
from memwarden.retrieval.query import run_query
from memwarden.retrieval.state import get_state

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

WriteScope = Annotated[list[str] | None, rules(FactsBody, "scope")]
Supersedes = Annotated[list[uuid.UUID] | None, rules(FactsBody, "supersedes")]
Infer = Literal["full", "none"]
QueryText = Annotated[str, rules(QueryBody, "query")]
Limit = Annotated[int, rules(QueryBody, "limit")]
Categories = Annotated[list[Category] | None, rules(QueryBody, "categories")]
Kinds = Annotated[list[Kind] | None, rules(QueryBody, "kinds")]
ReadScope = Annotated[list[str] | None, rules(QueryBody, "scope")]
Entity = Annotated[str | None, rules(ProfileQuery, "entity")]
Speaker = Annotated[str | None, rules(FactsBody, "speaker")]
Message = Annotated[str, rules(ChatBody, "message")]
TurnText = Annotated[str, rules(FactsBody, "text")]
ChatLimit = Annotated[int, rules(ChatBody, "limit")]


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=WRITE)
    async def remember(
        text: TurnText,
        ctx: Context,
        scope: WriteScope = None,
        sessionId: uuid.UUID | None = None,
        infer: Infer = default(FactsBody, "infer"),
        visibility: Visibility = default(FactsBody, "visibility"),
        supersedes: Supersedes = None,
        speaker: Speaker = None,
    ) -> dict[str, Any]:
        """Store what was said: the judge checks it, facts are extracted and reconciled.

        infer="none" keeps the text as a turn without extraction. `supersedes` names your
        own earlier records this replaces (no judge involved). `speaker` names the end user
        saying "I" (else a `user/<id>` scope pair, else you). Same as POST /facts.
        """
        svc, who, context_id = await rt.begin_own(ctx)
        body = FactsBody(
            text=text,
            infer=infer,
            scope=scope,
            visibility=visibility,
            sessionId=sessionId,
            supersedes=supersedes or [],
            speaker=speaker,
        )
        return wire(await write_facts(svc, who, context_id, body.to_input()))

    @server.tool(annotations=READ)
    async def recall(
        query: QueryText,
        ctx: Context,
        limit: Limit = default(QueryBody, "limit"),
        scope: ReadScope = None,
        categories: Categories = None,
        kinds: Kinds = None,
        includeSuperseded: bool = False,
        mode: Mode = default(QueryBody, "mode"),
        as_of: AsOf = None,
    ) -> dict[str, Any]:
        """Find memories relevant to a query (hybrid full-text + vector). Same as /query.

        `as_of` (ISO-8601 with a timezone): what you would have been served at that moment."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = QueryBody(
            query=query,
            limit=limit,
            scope=scope,
            categories=categories,
            kinds=kinds,
            includeSuperseded=includeSuperseded,
            mode=mode,
        )
        req = replace(body.to_input(), as_of=as_of)  # checked by the use case (field as_of)
        return wire(await run_query(svc, who, context_id, req))

    @server.tool(annotations=READ)
    async def profile(
        ctx: Context,
        entity: Entity = None,
        history: bool = False,
        scope: ReadScope = None,
        speaker: Speaker = None,
        as_of: AsOf = None,
    ) -> dict[str, Any]:
        """What is known about one entity (by name or id; omitted or "me": the speaker's own,
        see `speaker`); history adds past values; `as_of`: as served then. Same as GET
        /profile."""
        svc, who, context_id = await rt.begin_own(ctx)
        found = get_profile(svc, who, context_id, entity, history, scope, speaker, as_of)
        return wire(await found)

    @server.tool(annotations=READ)
    async def state(ctx: Context, scope: ReadScope = None, as_of: AsOf = None) -> dict[str, Any]:
        """The standing instructions, open uncertainties and recent actions (`as_of`: as
        served then). Same as /state."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await get_state(svc, who, context_id, list(scope) if scope else None, as_of))

    @server.tool(annotations=WRITE)
    async def chat(
        message: Message,
        ctx: Context,
        sessionId: uuid.UUID | None = None,
        scope: WriteScope = None,
        visibility: Visibility = default(ChatBody, "visibility"),
        remember: bool = default(ChatBody, "remember"),
        limit: ChatLimit = default(ChatBody, "limit"),
    ) -> dict[str, Any]:
        """Answer a message from memory. remember=true also stores it as a turn (judged,
        extracted, reconciled); false only judges it. Same as POST /chat."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = ChatBody(
            message=message,
            sessionId=sessionId,
            scope=scope,
            visibility=visibility,
            remember=remember,
            limit=limit,
        )
        return wire(await chat_use_case(svc, who, context_id, body.to_input()))

    @server.tool(annotations=WRITE)
    async def reprocess(
        id: uuid.UUID, ctx: Context, kind: Literal["turn", "document"] = "turn"
    ) -> dict[str, Any]:
        """Extract again the windows of a turn (or processed document) whose extraction
        failed; only failed windows are sent, and facts already known are not written twice.
        Same as POST /turns/{id}/reprocess or /documents/{id}/reprocess (409 when none
        failed)."""
        svc, who, context_id = await rt.begin_own(ctx)
        if kind == "document":
            return wire(await reprocess_document(svc, who, context_id, id))
        return wire(await reprocess_turn(svc, who, context_id, id))

    @server.tool(annotations=WRITE)
    async def run_pass(stage: PassStage, ctx: Context) -> dict[str, Any]:
        """Run a background pass (rollup, gist, consolidation, elaboration) over the whole
        Context now, ignoring the idle delay; needs memory_write over the whole Context.
        Same as POST /passes/{stage}/run: answers {"runId"} (read it with get_pass_run)."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await request_run(svc, who, context_id, stage))

    @server.tool(annotations=READ)
    async def get_pass_run(runId: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """A pass run's `status` (queued, running, done, failed) and `counts` (inputs,
        written, dropped, held). Same as GET /passes/runs/{id}."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await get_run(svc, who, context_id, runId))
