"""One pass run's working state, and its unit of work: output through the row gate and the
reconciled-write unit (`pipeline/commit.py`), with the unit's watermark in the same
transaction.

Every derived record a pass writes has `source_kind` = the stage, `source_ref` = the run's
id (so the change feed and the records show what each run wrote) and `derived_from` = every
record, turn or document it was made from. The writer is the pass itself
(`pass:<stage>`), not a principal: review-log entries of a pass's rows name no principal.
Derived records keep the default provenance rank, 0 (DERIVED: below anything stated).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from memwarden import budget
from memwarden.config import ContextConfig
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Scope
from memwarden.domain.speaker import Speaker
from memwarden.gatekeeper import GateRequest
from memwarden.models.base import ChatProvider, ModelOutputError
from memwarden.models.contracts import LONG_CHARS
from memwarden.models.prompts import system_prompt
from memwarden.models.sanitize import clean_block, frame_untrusted
from memwarden.pipeline import commit, reconcile
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.services import Services
from memwarden.store import passes as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

T = TypeVar("T", bound=BaseModel)
MAX_TOKENS = 512
# Text a pass shows a model for one unit: at most this much (the start of a long text).
INPUT_CHARS = 16_000

Extra = Callable[[Conn], Awaitable[None]]
# Told whether the row gate kept every row of the unit live (none dropped, none held).
GatedExtra = Callable[[Conn, bool], Awaitable[None]]


@dataclass
class Counts:
    inputs: int = 0  # units with new material that the run processed
    written: int = 0  # records written live
    dropped: int = 0  # rows the row gate dropped (with their dependents)
    held: int = 0  # records written held, waiting for a reviewer

    def as_dict(self) -> dict[str, int]:
        return {
            "inputs": self.inputs,
            "written": self.written,
            "dropped": self.dropped,
            "held": self.held,
        }


@dataclass
class PassRun:
    services: Services
    context_id: uuid.UUID
    run_id: uuid.UUID
    stage: str
    config: ContextConfig
    manual: bool  # a run by hand ignores the idle delay
    provider: ChatProvider | None  # None: the pass's offline behaviour
    marks: dict[str, str] = field(default_factory=dict)  # unit -> fingerprint already done
    counts: Counts = field(default_factory=Counts)

    @property
    def caller(self) -> Caller:
        return Caller(self.context_id, None, f"pass:{self.stage}", None, {})

    @property
    def addendum(self) -> str | None:
        value: str | None = getattr(self.config.prompt_addendums, self.stage)
        return value

    def is_new(self, unit: str, fp: str) -> bool:
        return self.marks.get(unit) != fp

    async def ask(self, user_text: str, contract: type[T], sink: Bookings) -> T | None:
        """One call to the stage's model with the untrusted text framed like extraction's;
        None when the reply does not parse (its tokens are still booked by the write).
        The budget is checked first: a spent budget stops the run."""
        assert self.provider is not None
        async with self.services.db.connection() as conn:
            await budget.check_budget(conn, self.context_id, self.config.token_budget)
        user = frame_untrusted(clean_block(user_text, INPUT_CHARS))
        system = system_prompt(self.stage, self.addendum)
        try:
            result = await self.provider.complete_json(
                self.stage, system, user, contract, MAX_TOKENS, usage_sink=sink
            )
            return contract.model_validate(result.data)
        except ModelOutputError:
            return None


def fingerprint(parts: Iterable[object]) -> str:
    """A digest of a unit's inputs (ids and revisions, or text): order does not matter."""
    digest = hashlib.sha256()
    for part in sorted(str(p) for p in parts):
        digest.update(part.encode("utf-8"))
        digest.update(b"\x1f")
    return digest.hexdigest()[:32]


def summary_text(text: str) -> str:
    return " ".join(clean_block(text, LONG_CHARS).split())


async def write_unit(
    run: PassRun,
    *,
    unit: str,
    fp: str | None,
    diff: ExtractionDiff,
    where: WriteScope,
    derived_from: Sequence[uuid.UUID],
    sink: Bookings,
    extra: Extra | None = None,
    extra_gated: GatedExtra | None = None,
    exact_names: bool = True,
    replaces: Mapping[str, uuid.UUID] | None = None,
    speaker: Speaker | None = None,
) -> commit.Written:
    """The unit's output, row-gated with the Context's background judge model, reconciled
    and written in one transaction with the unit's watermark (`fp`; None leaves it) and
    `extra` (a document's gist) or `extra_gated` (a merge, applied only when the row gate
    kept every row live). `replaces` (row id -> record) names records the unit restates,
    superseded by their rows' records only when the row gate kept every row live (else
    those rows are not written either). Usage is booked and the write audited there."""
    services = run.services
    request = GateRequest(
        run.context_id,
        run.caller,
        run.config,
        run.stage,  # type: ignore[arg-type]
        Scope(where.scope_path, where.visibility),  # type: ignore[arg-type]
        "",
    )
    items, verdicts = await commit.gate_rows(services, request, diff)
    clean = not verdicts.dropped and not verdicts.held
    replaced = dict(replaces or {})
    if not clean and replaced:  # no merge: nothing is carried, and nothing replaced
        items = [i for i in items if i.row_id not in replaced]
        replaced = {}
    meta = reconcile.WriteMeta(
        run.run_id,
        f"pass:{run.stage}",
        source_kind=run.stage,
        derived_from=tuple(dict.fromkeys(derived_from)),
        speaker=speaker,  # first person in the rows: a speaker's own entity (a merge onto it)
    )
    write = commit.Write(
        request=request,
        where=where,
        items=items,
        verdicts=verdicts,
        meta=meta,
        sink=sink,
        action=f"pass.{run.stage}.write",
        target_kind="pass_run",
        exact_names=exact_names,
        replaces=replaced,
    )

    async def finish(conn: Conn) -> None:
        if extra is not None:
            await extra(conn)
        if extra_gated is not None:
            await extra_gated(conn, clean)
        if fp is not None:
            await store.set_watermark(conn, run.context_id, run.stage, unit, fp, run.run_id)

    written = await commit.run(services, write, finish=finish)
    if fp is not None:
        run.marks[unit] = fp
    records = written.plan.records
    run.counts.written += sum(1 for r in records if not r.held)
    run.counts.held += sum(1 for r in records if r.held)
    run.counts.dropped += len(verdicts.dropped)
    return written


def summary_diff(entity: str, entity_type: str, key: str, value: str, category: str) -> Any:
    """One derived attribute (and its entity) in the extraction contract's shape."""
    return ExtractionDiff.model_validate(
        {
            "entities": [{"name": entity, "entityType": entity_type, "memoryCategory": category}],
            "attributes": [
                {"entity": entity, "key": key, "value": value, "memoryCategory": category}
            ],
        }
    )
