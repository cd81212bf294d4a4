"""The ingest judge's gatekeeper: what the write path calls (see `interface.py`).

Verdict effects: pass writes; warn writes and flags (or holds, for facts under
`on_warn=hold`); fail records the refusal in its own transaction and raises
`JudgeRefused`; deny raises `JudgeDenied` and leaves nothing: no entry, no audit, no
usage booking and no log line. So no code path here logs, and usage is booked only once
a verdict is known not to be a deny.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memwarden import budget
from memwarden.errors import BudgetExhausted, JudgeDenied, JudgeRefused, JudgeUnavailable
from memwarden.gatekeeper import (
    GateRequest,
    InputVerdict,
    PendingJudgement,
    RowInput,
    RowVerdicts,
)
from memwarden.judge import usage
from memwarden.judge.assess import Assessment, assess, detect
from memwarden.judge.model import JudgeError, ModelChoice, Signal, choose_model, judge_rows
from memwarden.judge.policy import combine, is_holdable_source
from memwarden.judge.recording import write_entry
from memwarden.judge.rows import decide_rows
from memwarden.judge.text import excerpt, guarded, row_text
from memwarden.services import Services
from memwarden.store.db import Conn


class Judge:
    """The real Gatekeeper. Reads the Services at call time (models may be swapped)."""

    def __init__(self, services: Services) -> None:
        self.services = services

    # input gate

    async def input_gate(self, request: GateRequest) -> InputVerdict:
        config = request.config
        if not (config.judge.enabled and config.judge.input):
            return InputVerdict(verdict=None)
        text = guarded(request.text, config)
        result = await self._assess(request, text)
        if result.verdict == "deny":
            raise JudgeDenied()
        if result.verdict == "fail":
            await self._refuse(request, result)
        if result.error and config.judge.on_error == "fail":
            await usage.flush(self.services.db, request.context_id, result.sink)
            raise JudgeUnavailable()
        if result.error and result.verdict == "pass":
            # on_error=allow and the detectors found nothing: through, unjudged.
            await usage.flush(self.services.db, request.context_id, result.sink)
            return InputVerdict(verdict=None)
        await usage.flush(self.services.db, request.context_id, result.sink)
        if result.verdict == "warn":
            hold = config.judge.on_warn == "hold" and is_holdable_source(request.source)
            entry = PendingJudgement("input", "warn", result.reasons, result.excerpt, held=hold)
            return InputVerdict("warn", result.reasons, hold=hold, pending=entry)
        recorded = (
            PendingJudgement("input", "pass", (), result.excerpt)
            if config.judge.record_pass
            else None
        )
        return InputVerdict("pass", pending=recorded)

    async def _assess(self, request: GateRequest, text: str) -> Assessment:
        try:
            choice = choose_model(self.services.models, request.config, request.source)
        except JudgeError:
            detected, focus = detect(text)
            return Assessment(*detected, excerpt(text, focus), error=True)
        if choice.provider is not None:
            async with self.services.db.connection() as conn:
                await budget.check_budget(conn, request.context_id, request.config.token_budget)
        addendum = request.config.prompt_addendums.judge
        return await assess(text, request.config, choice, addendum)

    async def _refuse(self, request: GateRequest, result: Assessment) -> None:
        """A fail: recorded, audited (and retained) in its own transaction, then 422."""
        entry = PendingJudgement("input", "fail", result.reasons, result.excerpt)
        async with self.services.db.transaction() as conn:
            await usage.book(conn, request.context_id, result.sink)
            await write_entry(conn, request, entry)
        raise JudgeRefused(result.reasons)

    # row gate

    async def row_gate(self, request: GateRequest, rows: Sequence[RowInput]) -> RowVerdicts:
        config = request.config
        if not (config.judge.enabled and config.judge.rows) or not rows:
            return RowVerdicts(keep=frozenset(r.id for r in rows))
        texts = {r.id: guarded(row_text(r), config) for r in rows}
        detected = {rid: detect(text)[0] for rid, text in texts.items()}
        sink = usage.DeferredSink()
        judged, error = await self._judge_rows(request, rows, sink)
        verdicts: dict[str, Signal] = {
            rid: combine([detected[rid], *([judged[rid]] if rid in judged else [])])
            for rid in texts
        }
        denied = any(v == "deny" for v, _ in verdicts.values())
        if error and config.judge.on_error == "fail" and not denied:
            await usage.flush(self.services.db, request.context_id, sink)
            raise JudgeUnavailable()
        if not denied:
            await usage.flush(self.services.db, request.context_id, sink)
        hold = config.judge.on_warn == "hold" and is_holdable_source(request.source)
        return decide_rows(
            rows,
            verdicts,
            texts,
            hold=hold,
            write_held=hold and request.write_held,
            record_pass=config.judge.record_pass,
        )

    async def _judge_rows(
        self, request: GateRequest, rows: Sequence[RowInput], sink: usage.DeferredSink
    ) -> tuple[dict[str, Signal], bool]:
        try:
            choice: ModelChoice = choose_model(self.services.models, request.config, request.source)
        except JudgeError:
            return {}, True
        if choice.provider is None:
            return {}, False

        async def check() -> None:
            """Before each batch: the batches judged so far count towards the budget."""
            async with self.services.db.connection() as conn:
                await budget.check_budget(
                    conn, request.context_id, request.config.token_budget, sink.total_tokens
                )

        addendum = request.config.prompt_addendums.judge
        try:
            found = await judge_rows(choice.provider, addendum, rows, request.config, sink, check)
        except JudgeError:
            return {}, True
        except BudgetExhausted:
            await usage.flush(self.services.db, request.context_id, sink)  # spent: booked
            raise
        return found, False

    # recording

    async def record(
        self,
        conn: Conn,
        request: GateRequest,
        pending: Sequence[PendingJudgement],
        *,
        turn_id: uuid.UUID | None = None,
        document_id: uuid.UUID | None = None,
    ) -> list[uuid.UUID]:
        return [
            await write_entry(conn, request, entry, turn_id=turn_id, document_id=document_id)
            for entry in pending
        ]
