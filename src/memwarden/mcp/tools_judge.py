"""Judge reviewer tools: the review log, overrides with replay, holds and dry runs.

Each acts in the calling key's own Context and needs grant:manage, as over HTTP (the use
cases check it). Bodies are validated by the use cases' request models (`judge/contract.py`).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from memwarden.answers import wire
from memwarden.domain.verdicts import ReviewerVerdict
from memwarden.judge import dry_run as dry_runs
from memwarden.judge import holds, override, review
from memwarden.judge.contract import DryRunBody, OverrideBody, Stage
from memwarden.mcp.auth import Runtime
from memwarden.mcp.fields import default, rules

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

Addendum = Annotated[str, rules(DryRunBody, "addendum")]
DryIds = Annotated[list[uuid.UUID] | None, rules(DryRunBody, "judgement_ids")]
DryLimit = Annotated[int, rules(DryRunBody, "limit")]
PageLimit = Annotated[int, Field(ge=1, le=review.MAX_PAGE)]


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=READ)
    async def judgements_list(
        ctx: Context,
        verdict: ReviewerVerdict | None = None,
        stage: Stage | None = None,
        held: bool | None = None,
        source: str | None = None,
        limit: PageLimit = 20,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """The review log, newest first; pass next_cursor back as cursor for the next page."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(
            await review.list_entries(
                svc,
                who,
                context_id,
                verdict=verdict,
                stage=stage,
                held=held,
                source=source,
                limit=limit,
                cursor=cursor,
            )
        )

    @server.tool(annotations=READ)
    async def judgement_show(judgement_id: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """One review-log entry: verdict, reasons, excerpt, any override and hold."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await review.get_entry(svc, who, context_id, judgement_id))

    @server.tool(annotations=WRITE)
    async def judgement_override(
        judgement_id: uuid.UUID,
        verdict: ReviewerVerdict,
        ctx: Context,
        replay: bool = False,
    ) -> dict[str, Any]:
        """Record a reviewer's verdict; replay=true with pass ingests the retained request."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = OverrideBody(verdict=verdict, replay=replay)
        return wire(
            await override.override(
                svc, who, context_id, judgement_id, verdict=body.verdict, replay=body.replay
            )
        )

    @server.tool(annotations=WRITE)
    async def judgement_approve(judgement_id: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """Release what a warn verdict held: it starts being served."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await holds.decide(svc, who, context_id, judgement_id, approve=True))

    @server.tool(annotations=WRITE)
    async def judgement_reject(judgement_id: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """Discard what a warn verdict held: it is never served."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await holds.decide(svc, who, context_id, judgement_id, approve=False))

    @server.tool(annotations=READ)
    async def judgements_dry_run(
        addendum: Addendum,
        ctx: Context,
        verdict: ReviewerVerdict | None = None,
        judgementIds: DryIds = None,
        limit: DryLimit = default(DryRunBody, "limit"),
        compareCurrent: bool = False,
    ) -> dict[str, Any]:
        """Re-judge logged inputs with a candidate prompt addendum; nothing is changed."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = DryRunBody(
            addendum=addendum,
            verdict=verdict,
            judgementIds=judgementIds,
            limit=limit,
            compareCurrent=compareCurrent,
        )
        return wire(
            await dry_runs.dry_run(
                svc,
                who,
                context_id,
                addendum=body.addendum,
                verdict=body.verdict,
                judgement_ids=body.judgement_ids,
                limit=body.limit,
                compare_current=body.compare_current,
            )
        )
