"""The reconciled write: the one sequence every source of facts ends in.

Turns (/facts, /facts/batch, chat with remember, replays), documents, reprocesses of either
and reflections each extract their own rows, pass them through `gate_rows`, then hand a
`Write` to `run`, which runs two steps, one before and one inside the transaction:

1. `embed_draft` (no transaction open): the source's own texts (chunks), entity names and
   the texts of a draft plan, embedded in one call, so a transaction rarely waits on a model.
2. `commit` (in the caller's transaction, which `run` opens, or a caller that must commit
   the write with changes of its own opens): record the review-log entries, store the
   source's own rows, record what extraction did (the item's failed windows, the
   extraction counters), lock the scope, load what is known, plan, embed the few texts the
   draft did not foresee, write the plan (and supersede what it restates), book usage, audit.

A change to locking, embedding or usage booking is an edit here and nowhere else.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from memwarden.domain.grants import Caller
from memwarden.domain.reconcile_rules import Incoming, Plan
from memwarden.domain.replacement import MESSAGES, Refusal
from memwarden.domain.scope import Scope, covers
from memwarden.embedding import Vector, embed_texts, embedder_name
from memwarden.errors import Conflict, Forbidden
from memwarden.gatekeeper import GateRequest, InputVerdict, PendingJudgement, RowVerdicts
from memwarden.pipeline import gating, reconcile
from memwarden.pipeline.extraction import ExtractionDiff, ExtractionReport
from memwarden.pipeline.reconcile import WriteMeta
from memwarden.retirement import retire
from memwarden.services import Services
from memwarden.store import extraction as extraction_store
from memwarden.store import ingest as ingest_store
from memwarden.store import memory as memory_store
from memwarden.store.audit import audit
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)

# Rows a source stores beside its records, in the same transaction and before the scope lock
# (a turn and its chunks; a document's chunks): given the write's hold and the vectors.
SourceRows = Callable[[Conn, uuid.UUID | None, Mapping[str, Vector]], Awaitable[None]]
# What a source does after the plan is written and usage booked, before the audit entry.
Finish = Callable[[Conn], Awaitable[None]]
# The job a committed write defers for its new records (registered in jobs/tasks.py).
WRITE_SCAN_TASK = "memwarden:hygiene_write_scan"
# The key of the input gate's warning among the row gate's (row ids are `e0`, `a1`, ...).
INPUT_WARNING = "input"
# The draft plan's stand-in for the judgement a held write will be recorded under.
DRAFT_HOLD = uuid.UUID(int=0)


@dataclass
class Write:
    """One source's gated facts and where they go."""

    request: GateRequest  # who writes, under which configuration, from which source
    where: WriteScope
    items: list[Incoming]  # after the row gate (`gate_rows`)
    verdicts: RowVerdicts  # the row gate's: warnings and review-log entries
    meta: WriteMeta  # provenance; warnings and holds are filled in from the verdicts
    sink: Bookings  # every model call's usage so far; booked in the transaction
    action: str  # the audit action, e.g. "facts.write"
    target_kind: str  # what meta.source_ref names in the audit log
    input: InputVerdict | None = None  # the input gate's, for sources that have one
    turn_id: uuid.UUID | None = None  # the review-log entries' link to their source
    document_id: uuid.UUID | None = None
    # What extraction did (None when nothing was extracted): kept on the turn or document
    # and added to the Context's per-day extraction counters, in the transaction.
    extraction: ExtractionReport | None = None
    # Names resolve to known entities exactly (normalised), never by similarity: a pass's
    # own entities (`session <id>`, `document <name>`) differ in a few characters only.
    exact_names: bool = False
    # Declared supersedes: the writer's own earlier records this write replaces
    # (`check_declared` before, `supersede_declared` in the transaction).
    supersedes: Sequence[uuid.UUID] = ()
    # Records this write restates (a merge carries the merged-away entity's facts to the
    # survivor): row id -> the record its row replaces (`supersede_replaced`, in the
    # transaction).
    replaces: Mapping[str, uuid.UUID] = dataclasses.field(default_factory=dict)

    @property
    def pending(self) -> list[PendingJudgement]:
        """Review-log entries to record in the transaction, the input gate's first."""
        first = self.input.pending if self.input else None
        return [p for p in (first, *self.verdicts.pending) if p is not None]

    def planned_as(
        self,
        write_hold: uuid.UUID | None = None,
        row_holds: Mapping[str, uuid.UUID] | None = None,
    ) -> WriteMeta:
        """The meta the plan is made with: the gates' warnings, and the holds once the
        review-log entries that hold are recorded.

        An input-gate warn joins the row gate's under `INPUT_WARNING` (never a row id), so
        the one uncertainty the plan writes for a warned write names its codes too."""
        warned = dict(self.verdicts.warned)
        if self.input is not None and self.input.verdict == "warn":
            warned[INPUT_WARNING] = self.input.reasons
        return dataclasses.replace(
            self.meta,
            warned=warned,
            write_hold=write_hold,
            row_holds=dict(row_holds or {}),
        )


@dataclass(frozen=True)
class Written:
    plan: Plan
    write_hold: uuid.UUID | None
    # What each declared supersede did: `{"id", "applied", "reason"}` (supersede_declared).
    declared: list[dict[str, Any]] = dataclasses.field(default_factory=list)


async def gate_rows(
    services: Services, request: GateRequest, diff: ExtractionDiff
) -> tuple[list[Incoming], RowVerdicts]:
    """The row gate over an extraction's rows: the items it keeps (held ones marked)."""
    items, rows = gating.diff_rows(diff)
    verdicts = RowVerdicts(keep=frozenset())
    if rows:
        verdicts = await services.gatekeeper.row_gate(request, rows)
    return gating.apply_verdicts(items, verdicts), verdicts


async def run(
    services: Services,
    write: Write,
    *,
    texts: Sequence[str] = (),
    source_rows: SourceRows | None = None,
    finish: Finish | None = None,
) -> Written:
    """Both steps: `texts` and the draft embedded first, then `commit` in one transaction."""
    vectors = await draft(services, write, texts)
    async with services.db.transaction(generic_plans=True) as conn:
        written = await commit(
            conn, services, write, vectors, source_rows=source_rows, finish=finish
        )
    await scan_after(services, write.where.context_id, written)
    return written


async def scan_after(services: Services, context_id: uuid.UUID, written: Written) -> None:
    """After the write committed: its new live records become hygiene scan subjects in a job
    (`memwarden:hygiene_write_scan`, hygiene/runs.py), so the write never waits on a judge.
    A queue that cannot take the job costs the write nothing (the next full cycle's sweep
    reaches the records anyway)."""
    ids: list[Any] = [str(r.id) for r in written.plan.records if not r.held]
    if not ids:
        return
    try:
        deferrer = services.jobs.configure_task(WRITE_SCAN_TASK, queue="hygiene")
        await deferrer.defer_async(context_id=str(context_id), record_ids=ids)
    except Exception:  # the write is committed; hygiene catches up on its next cycle
        log.warning("hygiene_write_scan_not_queued", context_id=str(context_id))


async def draft(services: Services, write: Write, texts: Sequence[str] = ()) -> dict[str, Vector]:
    """Step 1 alone, for a caller that commits the write in a transaction of its own
    (a replay commits it with the override that consumes the kept request)."""
    meta = write.planned_as()
    if write.input is not None and write.input.hold:
        # Planned as it will be stored, held: a held record's text is embedded on approval.
        meta = dataclasses.replace(meta, write_hold=DRAFT_HOLD)
    return await embed_draft(
        services, write.where, write.items, meta, write.sink, texts, exact_names=write.exact_names
    )


async def embed_draft(
    services: Services,
    where: WriteScope,
    items: Sequence[Incoming],
    meta: WriteMeta,
    sink: Bookings,
    texts: Sequence[str] = (),
    *,
    exact_names: bool = False,
) -> dict[str, Vector]:
    """`texts`, entity names and the draft plan's texts, embedded in one call before the
    transaction. The draft resolves names exactly; the plan under the lock may resolve one
    by similarity too (unless `exact_names`) and then embeds the few texts that changed."""
    names = () if exact_names else reconcile.entity_names(items).values()
    wanted = [*texts, *(name for name, _t in names)]
    if items:
        async with services.db.connection() as conn:
            known = await reconcile.load_known(conn, where, items, {}, meta.speaker)
        wanted += reconcile.plan_texts(reconcile.make_plan(items, known, meta))
    unique = list(dict.fromkeys(wanted))
    return dict(zip(unique, await embed_texts(services, unique, sink), strict=True))


async def commit(
    conn: Conn,
    services: Services,
    write: Write,
    vectors: dict[str, Vector],
    *,
    source_rows: SourceRows | None = None,
    finish: Finish | None = None,
) -> Written:
    """The write's one transaction (`conn`): entries, source rows, records, usage, audit."""
    pending = write.pending
    ids = await services.gatekeeper.record(
        conn, write.request, pending, turn_id=write.turn_id, document_id=write.document_id
    )
    write_hold, row_holds = gating.hold_ids(pending, ids)
    if write.input is not None and write.input.hold and write_hold is None and ids:
        write_hold = ids[0]
    meta = write.planned_as(write_hold, row_holds)
    if source_rows is not None:
        await source_rows(conn, write_hold, vectors)
    await record_extraction(conn, services, write)
    where = write.where
    await reconcile.lock_scope(conn, where)
    name_vectors = {} if write.exact_names else vectors
    known = await reconcile.load_known(conn, where, write.items, name_vectors, meta.speaker)
    plan = reconcile.make_plan(write.items, known, meta)
    missing = [t for t in reconcile.plan_texts(plan) if t not in vectors]
    vectors.update(zip(missing, await embed_texts(services, missing, write.sink), strict=True))
    # The declared records are checked (and locked) before the plan is written: the plan may
    # itself retire one of them (a new value of its single-valued key), which is that very
    # replacement, not a record that left serving under the writer.
    kinds = await declared_kinds(conn, write, plan, held=write_hold is not None)
    await reconcile.write_plan(conn, where, plan, meta, vectors, embedder_name(services))
    declared = await supersede_declared(conn, write, plan, kinds, held=write_hold is not None)
    await supersede_replaced(conn, write, plan)
    await write.sink.write(conn, where.context_id)
    if finish is not None:
        await finish(conn)
    caller = write.request.caller
    await audit(
        conn,
        context_id=where.context_id,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action=write.action,
        target_kind=write.target_kind,
        target_id=meta.source_ref,
    )
    return Written(plan, write_hold, declared)


async def check_declared(
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    ids: Sequence[uuid.UUID],
    scope: Scope | None = None,
) -> dict[uuid.UUID, str]:
    """A write may declare that it supersedes only the writer's own live records inside
    its key's write scope; anything else (another's, unknown, out of scope, no longer
    live) is refused with 403 naming `supersedes`, before any model is called. And only
    records its own records may replace (domain/replacement.py): a write at the declared
    record's scope path or below it, of its visibility; anything else is 409
    `replacement_refused` naming the rule's reason. Each record's kind, by id."""
    kinds: dict[uuid.UUID, str] = {}
    for record_id in ids:
        row = await memory_store.lock_record(conn, context_id, record_id)
        if (
            row is None
            or row.owner_subject != caller.subject
            or row.serving != "live"
            or not caller.can("memory_write", row.scope_path)
        ):
            raise Forbidden(
                "supersedes may name only the writer's own live records within its write scope",
                code="missing_grant",
                field="supersedes",
            )
        kinds[record_id] = row.kind
        if scope is None:
            continue
        reason: Refusal | None = None
        if not covers(row.scope_path, scope.path):
            reason = "replacement_outside_scope"
        elif row.visibility != scope.visibility:
            reason = "replacement_other_visibility"
        if reason is not None:
            raise Conflict(
                f"the write cannot supersede {record_id}: {MESSAGES[reason]}",
                code="replacement_refused",
                field="supersedes",
                extra={"reason": reason, "recordId": str(record_id)},
            )
    return kinds


def _applies(write: Write, plan: Plan, held: bool) -> bool:
    return bool(write.supersedes) and not held and any(not r.held for r in plan.records)


async def declared_kinds(
    conn: Conn, write: Write, plan: Plan, held: bool = False
) -> dict[uuid.UUID, str]:
    """The declared records' kinds, each checked and locked, when the write will apply
    them (nothing to check for a held write or one that stores nothing new)."""
    if not _applies(write, plan, held):
        return {}
    caller = write.request.caller
    return await check_declared(conn, caller, write.where.context_id, write.supersedes)


async def supersede_declared(
    conn: Conn, write: Write, plan: Plan, kinds: dict[uuid.UUID, str], held: bool = False
) -> list[dict[str, Any]]:
    """The declared supersedes, in the write's transaction, each by the write's own new
    record of the same kind (else its first new fact, else its first record), as the
    replacement rule allows, audited by id. A held write replaces nothing (`held`): its
    records are not served; nor does a write that stored no new served record
    (`no_replacement`: it may restate the very record it names). A record the plan itself
    retired (`kinds` were checked and locked before it) is reported applied. What happened
    to each."""
    if not write.supersedes:
        return []
    cid = write.where.context_id
    caller = write.request.caller
    served = [r for r in plan.records if not r.held]
    if not _applies(write, plan, held):
        reason = "held" if held or plan.records else "no_replacement"
        return [{"id": str(i), "applied": False, "reason": reason} for i in write.supersedes]
    by_plan = {s.old_id for s in plan.supersedes if s.new_id is not None}
    facts = [r for r in served if r.kind != "entity"]
    events, outcomes = [], []
    for record_id in write.supersedes:
        if record_id in by_plan:
            now = await memory_store.lock_record(conn, cid, record_id)
            if now is not None and now.serving == "superseded":
                outcomes.append({"id": str(record_id), "applied": True, "reason": None})
                await _audit_declared(conn, caller, cid, record_id)
                continue
        same = next((r.id for r in facts if r.kind == kinds.get(record_id)), None)
        new = same or next((r.id for r in facts), served[0].id)
        done = await retire(conn, cid, record_id, new, caller.subject, cause="declared_supersede")
        outcomes.append({"id": str(record_id), "applied": done.applied, "reason": done.refused})
        if done.event is None:
            continue
        events.append(done.event)
        await _audit_declared(conn, caller, cid, record_id)
    await ingest_store.change_events(conn, cid, events)
    return outcomes


async def _audit_declared(
    conn: Conn, caller: Caller, context_id: uuid.UUID, record_id: uuid.UUID
) -> None:
    await audit(
        conn,
        context_id=context_id,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action="memory.declared_supersede",
        target_kind="record",
        target_id=record_id,
    )


async def supersede_replaced(conn: Conn, write: Write, plan: Plan) -> None:
    """The records the write restates, each superseded by the live record planned from its
    row (history kept, so restoring undoes it); by no record when reconciliation found the
    restatement already stored."""
    if not write.replaces:
        return
    cid = write.where.context_id
    by_row = {r.row_id: r.id for r in plan.records if r.row_id and not r.held}
    events = []
    for row_id, old_id in write.replaces.items():
        new = by_row.get(row_id)
        # A restatement in the survivor's scope (the fact moves): the rule refuses it only
        # when a reader of the original could not read it (then both stay served).
        done = await retire(
            conn, cid, old_id, new, write.meta.author, cause="consolidation", restating=True
        )
        if done.event is not None:
            events.append(done.event)
    await ingest_store.change_events(conn, cid, events)


async def record_extraction(conn: Conn, services: Services, write: Write) -> None:
    """The item's failed windows (what a reprocess retries) and the Context's counters; the
    process-wide counters too (GET /metrics)."""
    report = write.extraction
    if report is None:
        return
    kind: extraction_store.SourceKind = "document" if write.document_id else "turn"
    item = write.document_id or write.turn_id
    context_id = write.where.context_id
    if item is not None:
        failed = [f.as_json() for f in report.failed]
        await extraction_store.set_outcome(conn, kind, context_id, item, report.windows, failed)
    await extraction_store.book(
        conn,
        context_id,
        kind,
        windows_run=report.run,
        windows_failed=len(report.failed),
        dropped_chars=report.dropped_chars,
        dropped_bytes=report.dropped_bytes,
    )
    count = services.write_counters
    count["extraction_windows_run"] += report.run
    count["extraction_windows_failed"] += len(report.failed)
    count["extraction_dropped_chars"] += report.dropped_chars
    count["extraction_dropped_bytes"] += report.dropped_bytes
