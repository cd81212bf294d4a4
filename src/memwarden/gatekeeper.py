"""The contract between the write path and the ingest judge.

Every write route (facts, batch, chat, documents, reflection, background passes) calls
the same three steps, so the judge's rules live in one place:

1. `input_gate` before anything is stored, embedded or sent to extraction. It raises
   `JudgeRefused` (fail: the refusal is already recorded and audited in its own
   transaction) or `JudgeDenied` (deny: nothing anywhere), or returns an `InputVerdict`.
2. `row_gate` on the extracted rows, before reconciliation writes them.
3. `record`, inside the write transaction, writes the review-log entries the gates
   produced (pass/warn), so a write that fails leaves no entry behind.

`PassThrough` is the gatekeeper of a Context whose judge is off.

It lives below the service packages (it was `judge/interface.py`) so that `Services` can
type its gatekeeper and the write path can call the judge without importing `judge/`.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from memwarden.config import ContextConfig
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Scope
from memwarden.domain.verdicts import REASON_CODES as REASON_CODES
from memwarden.domain.verdicts import ReviewerVerdict
from memwarden.domain.verdicts import Verdict as Verdict
from memwarden.store.db import Conn

Source = Literal[
    "facts",
    "facts_batch",
    "chat",
    "document",
    "reflection",
    "consolidation",
    "elaboration",
    "rollup",
    "gist",
    "memory_command",  # a memory-contract create or update that carries content
]
DENY_MESSAGE = "the request could not be processed"


@dataclass(frozen=True)
class GateRequest:
    context_id: uuid.UUID
    caller: Caller
    config: ContextConfig
    source: Source
    scope: Scope
    text: str  # after PII redaction when the Context enables it
    # The redacted original request of /facts or /facts/batch, kept for replay when the
    # Context sets retain_inputs and the verdict is warn or fail. Never for a deny.
    retain_payload: dict[str, Any] | None = None
    # The input gate held the whole write (the row gate's request): a warned instruction or
    # uncertainty in it cannot be held with it, and is not stored.
    write_held: bool = False
    # The document the request is for: its review-log entries name it, a refusal's too.
    document_id: uuid.UUID | None = None

    def holding(self, held: bool) -> GateRequest:
        """This request as the row gate gets it once the input gate decided the hold."""
        return dataclasses.replace(self, write_held=held)


@dataclass(frozen=True)
class PendingJudgement:
    """A review-log entry to write inside the write transaction."""

    gate: Literal["input", "row"]
    verdict: ReviewerVerdict
    reasons: tuple[str, ...]
    excerpt: str  # at most 500 characters, taken after redaction
    row_count: int = 1
    held: bool = False
    row_ids: tuple[str, ...] = ()  # row gate: the caller's row ids this entry covers


@dataclass(frozen=True)
class InputVerdict:
    verdict: Verdict | None  # None: not judged (judge or input gate off; on_error=allow)
    reasons: tuple[str, ...] = ()
    hold: bool = False  # on_warn=hold and the source can be held (facts, facts_batch)
    pending: PendingJudgement | None = None


@dataclass(frozen=True)
class RowInput:
    id: str  # assigned by the caller, unique within one reconciliation
    kind: Literal["entity", "attribute", "relation", "action", "instruction", "uncertainty"]
    data: dict[str, Any]
    entity_names: tuple[str, ...] = ()  # entities this row names (dropped with them)


@dataclass(frozen=True)
class RowVerdicts:
    keep: frozenset[str]  # rows to write (warned and held rows included)
    dropped: frozenset[str] = frozenset()  # fail/deny rows and every row naming them
    warned: dict[str, tuple[str, ...]] = field(default_factory=dict)  # id -> reason codes
    held: frozenset[str] = frozenset()  # rows written hidden until approved
    pending: Sequence[PendingJudgement] = ()


class Gatekeeper(Protocol):
    async def input_gate(self, request: GateRequest) -> InputVerdict: ...

    async def row_gate(self, request: GateRequest, rows: Sequence[RowInput]) -> RowVerdicts: ...

    async def record(
        self,
        conn: Conn,
        request: GateRequest,
        pending: Sequence[PendingJudgement],
        *,
        turn_id: uuid.UUID | None = None,
        document_id: uuid.UUID | None = None,
    ) -> list[uuid.UUID]:
        """Write the entries in the caller's transaction; returns their ids in order."""
        ...


class PassThrough:
    """The judge is off: nothing is judged, every row is kept, nothing is recorded."""

    async def input_gate(self, request: GateRequest) -> InputVerdict:
        return InputVerdict(verdict=None)

    async def row_gate(self, request: GateRequest, rows: Sequence[RowInput]) -> RowVerdicts:
        return RowVerdicts(keep=frozenset(r.id for r in rows))

    async def record(
        self,
        conn: Conn,
        request: GateRequest,
        pending: Sequence[PendingJudgement],
        *,
        turn_id: uuid.UUID | None = None,
        document_id: uuid.UUID | None = None,
    ) -> list[uuid.UUID]:
        return []
