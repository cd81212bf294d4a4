"""One hygiene run: the stale sweep, the re-judge pass, the ordinary sweep over scan
subjects and re-examination (spec 2; docs/hygiene.md).

Every pair forms in one place (`scan_subject`): nearest live neighbours in the band
(store: same Context, the owner's view, never an entity, never a pair pending or decided by
a person), the cross-project filter first, the judge of the pair's path (a model, or the
offline adjudicator), the routing policy, and the outcomes applied in one transaction per
subject with every judge call's usage and audit events. An automatic resolution retires the
loser only as the replacement rule allows (`retirement.retire`: history kept, `restore`
undoes it); a refused one goes to a person when a person could apply some resolution of the
pair, else both are kept.

Paced, not dropped: no judge call is made past the queue cap, and a subject whose pairs were
left unrecorded (a failed call, the cap reached mid-subject) is owed: the run records it and
the next full cycle scans it first.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

import structlog

from memwarden.admin.settings_service import read_config
from memwarden.budget import check_budget
from memwarden.config import ContextConfig
from memwarden.domain.ids import new_id
from memwarden.domain.provenance import Rank
from memwarden.errors import BudgetExhausted
from memwarden.hygiene.adjudicate import (
    OFFLINE_MODEL,
    Adjudication,
    AdjudicationError,
    Adjudicator,
    JudgingPath,
    PairSide,
    adjudicate_offline,
    adjudicate_with_model,
    choose_adjudicator,
    different_speakers,
    judging_path,
)
from memwarden.hygiene.projects import project_of, provably_cross_project
from memwarden.hygiene.routing import Route, queue_cap_reached, route
from memwarden.retirement import check, retire
from memwarden.services import Services
from memwarden.store import hygiene as store
from memwarden.store import ingest as ingest_store
from memwarden.store.audit import audit
from memwarden.store.db import Conn
from memwarden.store.hygiene import Member, NewConflict
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)

COUNT_KEYS = (
    "subjects",
    "pairs_judged",
    "skipped_cross_project",
    "queued",
    "auto_resolved",
    "dismissed",
    "unrelated",
    "linked",
    "reexamined",
    "stopped_on_queue_cap",
)
ACTOR = "hygiene"  # the audit actor of what a run does by itself
PENDING_REJUDGE_LIMIT = 1000


def empty_counts() -> dict[str, Any]:
    return {key: (False if key == "stopped_on_queue_cap" else 0) for key in COUNT_KEYS}


@dataclass
class Cycle:
    """What one run knows while it works."""

    services: Services
    context_id: uuid.UUID
    run_id: uuid.UUID
    config: ContextConfig
    counts: dict[str, Any] = field(default_factory=empty_counts)
    judges: dict[JudgingPath, Adjudicator | None] = field(default_factory=dict)
    # Where the ordinary sweep got to (modified_at, id of the last subject it reached).
    watermark: store.Watermark | None = None
    full: bool = True  # a full cycle (scan, nightly): it keeps what it owes for the next
    # The run handed over its share of queue rows: it stops (the brake).
    capped: bool = False
    # Subjects reached with pairs left unrecorded, in the order met.
    owed: dict[uuid.UUID, None] = field(default_factory=dict)

    def owe(self, *subjects: uuid.UUID) -> None:
        if self.full:
            self.owed.update(dict.fromkeys(subjects))

    def judge(self, path: JudgingPath) -> Adjudicator | None:
        if path not in self.judges:
            self.judges[path] = choose_adjudicator(self.services.models, self.config, path)
        return self.judges[path]

    def judge_name(self, path: JudgingPath) -> str:
        judge = self.judge(path)
        return judge.name if judge is not None else OFFLINE_MODEL

    def subject_judge(self, rank: int) -> str:
        """The judge a subject's re-examination is stamped with: its own path's."""
        return self.judge_name("adjudication" if rank >= Rank.AUTHORITATIVE else "hygiene")


def side(member: Member) -> PairSide:
    content = member.content if isinstance(member.content, dict) else {}
    value = content.get("value", content.get("object"))
    return PairSide(
        id=str(member.id),
        kind=member.kind,
        text=member.body,
        entity=member.entity_name,
        key=member.attr_key or content.get("label"),
        value=None if value is None else str(value),
        at=member.valid_from,
        project=project_of(
            scope_path=member.scope_path,
            owner_subject=member.owner_subject,
            import_source_dir=member.import_source_dir,
        ),
        rank=Rank(member.provenance_rank),
        owner=member.owner_subject,
    )


@dataclass(frozen=True)
class Look:
    """How a subject's scan went: `found` (it was a live scan subject), `complete` (every
    pair it formed was judged and recorded: a look, in re-examination's sense)."""

    found: bool
    complete: bool


@dataclass
class Call:
    """One judgement: the verdict (None: undecided offline, or the call failed) and the
    call's usage; `failed`: the model gave no usable verdict (its usage already booked)."""

    verdict: Adjudication | None
    sink: Bookings
    failed: bool = False


@dataclass
class Judged:
    neighbour: store.Neighbour
    path: JudgingPath
    verdict: Adjudication | None
    decided: Route
    sink: Bookings


# "recorded"; "unrecorded" (no room left in the queue); "lost" (the subject was retired)
Outcome = Literal["recorded", "unrecorded", "lost"]


async def stale_sweep(services: Services, context_id: uuid.UUID) -> int:
    """Pending pairs with a side no longer served, and pairs whose sides provably belong to
    different projects (the one cross-project predicate), are dismissed without a model,
    each audited."""
    async with services.db.transaction() as conn:
        ids = await store.stale_sweep(conn, context_id)
        pending = await store.pending_provenance(conn, context_id)
        cross = [
            p.id
            for p in pending
            if provably_cross_project(
                project_of(
                    scope_path=p.a_scope_path,
                    owner_subject=p.a_owner,
                    import_source_dir=p.a_import_source_dir,
                ),
                project_of(
                    scope_path=p.b_scope_path,
                    owner_subject=p.b_owner,
                    import_source_dir=p.b_import_source_dir,
                ),
            )
        ]
        if cross:
            ids += await store.dismiss_pending(conn, context_id, cross, "cross_project")
        for conflict_id in ids:
            await _audit(conn, context_id, "hygiene.dismiss", "conflict", conflict_id)
    return len(ids)


async def scan_subject(cycle: Cycle, subject_id: uuid.UUID) -> Look:
    """The ordinary single-memory scan. Not found when the subject is not (or no longer) a
    live scan subject; not complete when a pair was left unrecorded (then it is owed)."""
    services, cid, cfg = cycle.services, cycle.context_id, cycle.config.hygiene
    async with services.db.connection() as conn:
        found = await store.members(conn, cid, [subject_id])
        if not found or found[0].kind == "entity":
            return Look(found=False, complete=True)
        subject = found[0]
        near = await store.neighbours(
            conn,
            cid,
            subject_id,
            band_low=cfg.band_low,
            band_high=cfg.band_high,
            limit=cfg.neighbours,
        )
    cycle.counts["subjects"] += 1
    a = side(subject)
    judged: list[Judged] = []
    complete, projected = True, 0
    stopped: BudgetExhausted | None = None
    for neighbour in near:
        b = side(neighbour)
        if provably_cross_project(a.project, b.project):
            cycle.counts["skipped_cross_project"] += 1
            continue
        if different_speakers(a, b):
            continue  # two people's first-person facts: not a pair
        path = judging_path(a.rank, b.rank)
        if cycle.judge_name(path) in neighbour.judged_by:
            continue  # this judge already looked at the pair as it stands
        if queue_cap_reached(cycle.counts["queued"] + projected, cfg.max_queue_rows_per_run):
            cycle.capped, complete = True, False  # no call past the brake
            break
        try:
            call = await _adjudicate(cycle, path, a, b, subject)
        except BudgetExhausted as exc:  # what was judged so far is still recorded
            stopped, complete = exc, False
            break
        if call.failed:
            complete = False  # judged again in a later run
            continue
        cycle.counts["pairs_judged"] += 1
        decided = route(
            call.verdict,
            a.rank,
            b.rank,
            at_a=a.at,
            at_b=b.at,
            link_confidence=cfg.link_confidence,
            auto_resolve_min_confidence=cfg.auto_resolve_min_confidence,
        )
        if decided.action == "queued":
            projected += 1
        judged.append(Judged(neighbour, path, call.verdict, decided, call.sink))
    # The subject's outcomes in one transaction (the model calls are all made before it).
    if judged:
        async with services.db.transaction() as conn:
            lost = False
            for item in judged:
                if lost:  # the subject itself was retired: its other pairs are moot
                    await _book(conn, cycle, subject, item.sink)
                    continue
                outcome = await _apply(conn, cycle, subject, item)
                if outcome == "unrecorded":
                    cycle.capped, complete = True, False
                lost = outcome == "lost"
    if not complete:
        cycle.owe(subject.id)
    if stopped is not None:
        raise stopped
    return Look(found=True, complete=complete)


async def _adjudicate(
    cycle: Cycle, path: JudgingPath, a: PairSide, b: PairSide, subject: Member
) -> Call:
    """One judgement of the pair on its path. A model call that fails is booked (and
    audited to the subject's owner) here, in its own transaction."""
    judge = cycle.judge(path)
    sink = Bookings()
    if judge is None:
        return Call(adjudicate_offline(a, b), sink)
    async with cycle.services.db.connection() as conn:
        await check_budget(conn, cycle.context_id, cycle.config.token_budget)
    addendum = getattr(cycle.config.prompt_addendums, path, None)
    try:
        result = await adjudicate_with_model(judge, a, b, addendum=addendum, usage_sink=sink)
    except AdjudicationError as exc:
        log.warning("hygiene_judge_failed", path=path, error=str(exc))
        async with cycle.services.db.transaction() as conn:
            await _book(conn, cycle, subject, sink)  # tokens spent are booked either way
        return Call(None, sink, failed=True)
    return Call(result.adjudication, sink)


async def _book(conn: Conn, cycle: Cycle, subject: Member, sink: Bookings) -> None:
    """A judge call's usage, and (for a model call) a `hygiene.judge` audit event naming the
    owner of the memory under review, so that spend can be traced to whose memory it was."""
    if not sink.entries:
        return
    await sink.write(conn, cycle.context_id)
    await audit(
        conn,
        context_id=cycle.context_id,
        actor_subject=subject.owner_subject,
        key_id=None,
        action="hygiene.judge",
        target_kind="record",
        target_id=subject.id,
    )


async def _apply(conn: Conn, cycle: Cycle, subject: Member, item: Judged) -> Outcome:
    """The route's outcome, the judged-pair record and the usage, in the subject's
    transaction (`conn`). A pair that needs a queue row when the run has none left stays
    unrecorded (its usage is booked): judged again in a later run."""
    cid, cfg = cycle.context_id, cycle.config.hygiene
    neighbour, verdict, decided = item.neighbour, item.verdict, item.decided
    judge_model = verdict.judge_model if verdict else cycle.judge_name(item.path)
    await _book(conn, cycle, subject, item.sink)
    room = not queue_cap_reached(cycle.counts["queued"], cfg.max_queue_rows_per_run)
    outcome: Outcome = "recorded"
    if decided.action == "linked" and verdict is not None:
        await store.link(conn, cid, subject.id, neighbour.id, verdict.confidence, judge_model)
        cycle.counts["linked"] += 1
    elif decided.action == "dismissed":
        cycle.counts["unrelated"] += 1  # nothing was queued, so nothing is dismissed
    elif decided.action == "queued" and verdict is not None:
        if not room:
            return "unrecorded"
        await _queue(conn, cycle, subject, item, verdict)
    elif decided.action == "auto_resolved" and verdict is not None:
        outcome = await _auto_resolve(conn, cycle, subject, item, verdict, room)
        if outcome == "unrecorded":
            return outcome
    await store.judged(
        conn,
        cid,
        (subject.id, subject.revision),
        (neighbour.id, neighbour.revision),
        judge_model,
        verdict.verdict if verdict else "undecided",
    )
    return outcome


async def _queue(
    conn: Conn,
    cycle: Cycle,
    subject: Member,
    item: Judged,
    verdict: Adjudication,
    reason: str | None = None,
) -> None:
    row = _conflict(cycle, subject, item, verdict, "pending", action="queued", reason=reason)
    queued = await store.insert_conflict(conn, row)
    if queued is not None:
        cycle.counts["queued"] += 1
        await _audit(conn, cycle.context_id, "hygiene.queue", "conflict", queued)


def _conflict(
    cycle: Cycle,
    subject: Member,
    item: Judged,
    verdict: Adjudication,
    status: str,
    *,
    action: str,
    reason: str | None = None,
) -> NewConflict:
    return NewConflict(
        context_id=cycle.context_id,
        id=new_id(),
        record_a=subject.id,
        record_b=item.neighbour.id,
        verdict=verdict.verdict,
        superseding=verdict.superseding,
        confidence=verdict.confidence,
        similarity=item.neighbour.similarity,
        status=status,
        judge_model=verdict.judge_model,
        judging_path=item.path,
        action=action,
        loser=item.decided.loser if action == "auto_resolved" else None,
        run_id=cycle.run_id,
        revision_a=subject.revision,
        revision_b=item.neighbour.revision,
        reason=reason,
    )


async def _auto_resolve(
    conn: Conn,
    cycle: Cycle,
    subject: Member,
    item: Judged,
    verdict: Adjudication,
    room: bool,
) -> Outcome:
    """Retire the loser in favour of the winner if the replacement rule allows (history
    kept), and keep the resolution so that `restore` can undo it. Refused: queued for a
    person when a person could apply a resolution of the pair (one way or the other), else
    both are kept (and nothing is asked of anyone)."""
    cid = cycle.context_id
    neighbour, decided = item.neighbour, item.decided
    loser, winner = (
        (subject.id, neighbour.id) if decided.loser == "a" else (neighbour.id, subject.id)
    )
    if not room and await check(conn, cid, loser, winner) is not None:
        # Refused, and no room to hand it to a person: left for a later run.
        return "unrecorded" if await _person_could(conn, cid, loser, winner) else "recorded"
    done = await retire(conn, cid, loser, winner, ACTOR, cause="hygiene_resolution")
    if done.refused is not None:
        if await _person_could(conn, cid, loser, winner):
            await _queue(conn, cycle, subject, item, verdict, reason=done.refused)
        return "recorded"
    if done.event is None:
        return "recorded"  # no longer live: another change got there first
    await ingest_store.change_events(conn, cid, [done.event])
    resolved = _conflict(cycle, subject, item, verdict, "resolved", action="auto_resolved")
    await store.insert_conflict(conn, resolved)
    await _audit(conn, cid, "hygiene.auto_resolve", "record", loser)
    cycle.counts["auto_resolved"] += 1
    return "lost" if decided.loser == "a" else "recorded"


async def _person_could(conn: Conn, context_id: uuid.UUID, x: uuid.UUID, y: uuid.UUID) -> bool:
    """Whether a reviewer's keep_a or keep_b of the pair would be allowed."""
    for old, new in ((x, y), (y, x)):
        if await check(conn, context_id, old, new, by_person=True) is None:
            return True
    return False


async def _audit(
    conn: Conn, context_id: uuid.UUID, action: str, kind: str, target: uuid.UUID
) -> None:
    await audit(
        conn,
        context_id=context_id,
        actor_subject=ACTOR,
        key_id=None,
        action=action,
        target_kind=kind,
        target_id=target,
    )


async def rejudge_pending(cycle: Cycle) -> None:
    """Pending pairs a scan queued, judged again by the current judge of their path as both
    memories stand now; those that no longer look like a conflict are dismissed, the others
    keep the new verdict. Loss-free: it never invalidates a memory."""
    cid = cycle.context_id
    async with cycle.services.db.connection() as conn:
        pairs = await store.pending_pairs(conn, cid, PENDING_REJUDGE_LIMIT)
    for pair in pairs:
        async with cycle.services.db.connection() as conn:
            both = await store.pair_members(conn, cid, [pair.record_a, pair.record_b])
        found = {m.id: m for m in both}
        if len(found) < 2:
            continue  # a side no longer served: the stale sweep's to dismiss
        first, second = found[pair.record_a], found[pair.record_b]
        a, b = side(first), side(second)
        if provably_cross_project(a.project, b.project):
            await _dismiss(cycle, pair.id, "cross_project")
            continue
        path = judging_path(a.rank, b.rank)
        call = await _adjudicate(cycle, path, a, b, first)
        if call.failed or call.verdict is None:
            continue  # left for a person (a failed call's usage is already booked)
        verdict = call.verdict
        cycle.counts["pairs_judged"] += 1
        async with cycle.services.db.transaction() as conn:
            await _book(conn, cycle, first, call.sink)
            await store.judged(
                conn,
                cid,
                (first.id, first.revision),
                (second.id, second.revision),
                verdict.judge_model,
                verdict.verdict,
            )
            await store.rejudged(
                conn,
                cid,
                pair.id,
                verdict=verdict.verdict,
                superseding=verdict.superseding,
                confidence=verdict.confidence,
                judge_model=verdict.judge_model,
                judging_path=path,
                revision_a=first.revision,
                revision_b=second.revision,
            )
            if verdict.verdict in ("complementary", "unrelated"):
                await _dismissed(conn, cycle, pair.id, "rejudged")


async def _dismiss(cycle: Cycle, conflict_id: uuid.UUID, because: str) -> None:
    async with cycle.services.db.transaction() as conn:
        await _dismissed(conn, cycle, conflict_id, because)


async def _dismissed(conn: Conn, cycle: Cycle, conflict_id: uuid.UUID, because: str) -> None:
    done = await store.decide_conflict(
        conn,
        cycle.context_id,
        conflict_id,
        status="dismissed",
        resolution=None,
        decided_by=None,
        dismissed_because=because,
    )
    if done:
        cycle.counts["dismissed"] += 1
        await _audit(conn, cycle.context_id, "hygiene.dismiss", "conflict", conflict_id)


async def run_cycle(services: Services, context_id: uuid.UUID, run_id: uuid.UUID) -> str:
    """Run a queued hygiene run to its end; the run row says how it went."""
    async with services.db.transaction() as conn:
        run = await store.get_run(conn, context_id, run_id)
        if run is None or not await store.start_run(conn, context_id, run_id):
            return "skipped"
        config = await read_config(conn, context_id)
    cycle = Cycle(services, context_id, run_id, config, full=run.kind != "write")
    status, error = "done", None
    try:
        if run.kind == "write":
            for subject_id in run.subjects:
                if cycle.capped:
                    break
                await scan_subject(cycle, subject_id)
        else:
            await _full_cycle(cycle, run.rejudge)
    except BudgetExhausted:
        status, error = "failed", "token_budget_exhausted"
    except Exception as exc:  # recorded on the run; the worker logs the traceback
        status, error = "failed", type(exc).__name__
        log.exception("hygiene_run_failed", run_id=str(run_id))
    async with services.db.transaction() as conn:
        if cycle.capped:
            cycle.counts["stopped_on_queue_cap"] = True
            await _audit(conn, context_id, "hygiene.queue_cap_stop", "hygiene_run", run_id)
        await store.finish_run(
            conn,
            context_id,
            run_id,
            status=status,
            counts=cycle.counts,
            error=error,
            watermark=cycle.watermark,
            owed=list(cycle.owed),
        )
    return status


async def _full_cycle(cycle: Cycle, rejudge: bool) -> None:
    """Stale sweep, then (on demand) the re-judge pass, the subjects the last cycle owed,
    the ordinary sweep over what changed since the last run's watermark, and
    re-examination. Owed subjects take their share of `max_subjects_per_run` first."""
    services, cid, cfg = cycle.services, cycle.context_id, cycle.config.hygiene
    cycle.counts["dismissed"] += await stale_sweep(services, cid)
    if rejudge:
        await rejudge_pending(cycle)
    async with services.db.connection() as conn:
        carried = await store.last_owed(conn, cid)
        cycle.watermark = await store.last_watermark(conn, cid)
        room = cfg.max_subjects_per_run - min(len(carried), cfg.max_subjects_per_run)
        recent = await store.recent_subjects(conn, cid, cycle.watermark, room) if room else []
    for index, subject_id in enumerate(carried):
        if cycle.capped or index >= cfg.max_subjects_per_run:
            cycle.owe(*carried[index:])  # still owed: they lead the next run
            break
        try:
            await scan_subject(cycle, subject_id)
        except BaseException:
            cycle.owe(*carried[index + 1 :])
            raise
    for subject in recent:
        if cycle.capped:
            break  # the subjects after the last one reached lead the next run
        cycle.watermark = store.Watermark(subject.modified_at, subject.id)
        await scan_subject(cycle, subject.id)
    if not cycle.capped:
        await _reexamine(cycle)


async def _reexamine(cycle: Cycle) -> None:
    """Live memories recall serves often, once per judge model: a guard row per look,
    written whichever way it went. A scan that left a pair unrecorded (a failed call, the
    brake) is not a look: the memory stays unstamped."""
    services, cid, cfg = cycle.services, cycle.context_id, cycle.config.hygiene
    async with services.db.connection() as conn:
        popular = await store.reexamine_subjects(
            conn,
            cid,
            min_hits=cfg.reexamine_min_recalls,
            window_days=cfg.reexamine_window_days,
            adjudication_model=cycle.judge_name("adjudication"),
            hygiene_model=cycle.judge_name("hygiene"),
            limit=cfg.max_subjects_per_run,
        )
    for subject in popular:
        if cycle.capped:
            break
        look = await scan_subject(cycle, subject.id)
        if not (look.found and look.complete):
            continue
        cycle.counts["reexamined"] += 1
        async with services.db.transaction() as conn:
            await store.guard(conn, cid, subject.id, cycle.subject_judge(subject.provenance_rank))
            await _audit(conn, cid, "hygiene.examine", "record", subject.id)
