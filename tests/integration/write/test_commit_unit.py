"""The reconciled-write unit called directly, the way a background pass or a hygiene
resolution will call it: no HTTP, no input gate, a source kind of its own."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import Callable

from psycopg.types.json import Jsonb

from memwarden.bootstrap import build_services
from memwarden.config import ContextConfig, dump_config
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.reconcile_rules import Incoming
from memwarden.domain.scope import Scope
from memwarden.gatekeeper import GateRequest, RowVerdicts
from memwarden.pipeline import commit
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.pipeline.reconcile import WriteMeta
from memwarden.settings import Settings
from memwarden.store.db import Database
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

AUTHOR = "pass:consolidation"
DIFF = {
    "entities": [{"name": "Alice", "entityType": "person", "memoryCategory": "identity"}],
    "attributes": [
        {"entity": "Alice", "key": "role", "value": "CTO", "memoryCategory": "identity"}
    ],
}


def _request(context_id: uuid.UUID) -> GateRequest:
    caller = Caller(context_id, None, AUTHOR, None, {})
    scope = Scope("", "shared")
    return GateRequest(context_id, caller, ContextConfig(), "consolidation", scope, "")


def _write(request: GateRequest, items: list[Incoming], verdicts: RowVerdicts) -> commit.Write:
    context_id = request.context_id
    return commit.Write(
        request=request,
        where=WriteScope(context_id, "", "shared", AUTHOR),
        items=items,
        verdicts=verdicts,
        meta=WriteMeta(new_id(), AUTHOR, source_kind="consolidation"),
        sink=Bookings(),
        action="consolidation.write",
        target_kind="consolidation",
    )


def test_a_source_without_an_input_gate_writes_once_and_then_finds_it_known(
    settings: Settings, sql: Callable[..., list[tuple]]
) -> None:
    context_id = new_id()
    sql(
        "INSERT INTO context (id, name, config) VALUES (%s, 'c', %s)",
        (context_id, Jsonb(dump_config(ContextConfig()))),
    )

    async def go() -> tuple[commit.Written, commit.Written]:
        services = build_services(settings, db=Database(settings.database_url or ""))
        await services.open()
        try:
            diff = ExtractionDiff.model_validate(DIFF)
            request = _request(context_id)
            items, verdicts = await commit.gate_rows(services, request, diff)
            write = _write(request, items, verdicts)
            first = await commit.run(services, write)
            again = dataclasses.replace(write, meta=WriteMeta(new_id(), AUTHOR))
            return first, await commit.run(services, again)
        finally:
            await services.close()

    first, second = asyncio.run(go())
    assert [e["isNew"] for e in first.plan.diff["entities"]] == [True]
    assert [a["isNew"] for a in first.plan.diff["attributes"]] == [True]
    assert [e["isNew"] for e in second.plan.diff["entities"]] == [False]
    assert [a["isNew"] for a in second.plan.diff["attributes"]] == [False]
    assert first.write_hold is None
    records = sql(
        "SELECT kind, source_kind, author_subject, serving FROM memory_record"
        " WHERE context_id = %s ORDER BY kind",
        (context_id,),
    )
    assert records == [
        ("attribute", "consolidation", AUTHOR, "live"),
        ("entity", "consolidation", AUTHOR, "live"),
    ]
    audits = sql(
        "SELECT action, target_kind, actor_subject FROM audit_event WHERE context_id = %s",
        (context_id,),
    )
    assert audits == [("consolidation.write", "consolidation", AUTHOR)] * 2
