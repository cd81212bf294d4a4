"""Tiny test gatekeepers: one holds every write, one warns about chosen rows."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memwarden.domain.ids import new_id
from memwarden.gatekeeper import (
    GateRequest,
    InputVerdict,
    PendingJudgement,
    RowInput,
    RowVerdicts,
)
from memwarden.store.db import Conn


class _Recording:
    async def record(
        self,
        conn: Conn,
        request: GateRequest,
        pending: Sequence[PendingJudgement],
        *,
        turn_id: uuid.UUID | None = None,
        document_id: uuid.UUID | None = None,
    ) -> list[uuid.UUID]:
        ids = []
        for entry in pending:
            jid = new_id()
            await conn.execute(
                "INSERT INTO judgement (context_id, id, gate, verdict, reasons, source, excerpt,"
                " held, turn_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    request.context_id,
                    jid,
                    entry.gate,
                    entry.verdict,
                    list(entry.reasons),
                    request.source,
                    entry.excerpt,
                    entry.held,
                    turn_id,
                ),
            )
            ids.append(jid)
        return ids


class HoldEverything(_Recording):
    """on_warn=hold for every input: the write is stored hidden under one judgement."""

    async def input_gate(self, request: GateRequest) -> InputVerdict:
        pending = PendingJudgement("input", "warn", ("policy",), "held for review", held=True)
        return InputVerdict("warn", ("policy",), hold=True, pending=pending)

    async def row_gate(self, request: GateRequest, rows: Sequence[RowInput]) -> RowVerdicts:
        return RowVerdicts(keep=frozenset(r.id for r in rows))


class WarnAttributes(_Recording):
    """Every attribute row is written with a personal_data warning; entity rows named
    `Mallory` are dropped, and so is every row naming her and every row whose value is her
    name (a speaker's "I'm Mallory")."""

    async def input_gate(self, request: GateRequest) -> InputVerdict:
        return InputVerdict(verdict=None)

    async def row_gate(self, request: GateRequest, rows: Sequence[RowInput]) -> RowVerdicts:
        dropped = {
            r.id
            for r in rows
            if "Mallory" in (r.data.get("name"), r.data.get("value"), *r.entity_names)
        }
        warned = {
            r.id: ("personal_data",) for r in rows if r.kind == "attribute" and r.id not in dropped
        }
        pending = (
            [
                PendingJudgement(
                    "row", "warn", ("personal_data",), "", len(warned), row_ids=tuple(warned)
                )
            ]
            if warned
            else []
        )
        return RowVerdicts(
            keep=frozenset(r.id for r in rows) - dropped,
            dropped=frozenset(dropped),
            warned=warned,
            pending=pending,
        )
