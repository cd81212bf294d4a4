"""One hygiene run: the stale sweep, the re-judge pass, the ordinary sweep over scan
subjects and re-examination (spec 2; docs/hygiene.md).

Every pair forms in one place (`_scan_subject`): nearest live neighbours in the band
(store: same Context, the owner's view, never a pair pending or decided by a person), the
cross-project filter first, the judge of the pair's path (a model, or the offline
adjudicator), the routing policy, and its outcome applied in one transaction per pair with
the judge call's usage and audit events. An automatic resolution supersedes the loser
through the write path's own supersede (history kept; `restore` undoes it).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

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
    judging_path,
)
from memwarden.hygiene.projects import project_of, provably_cross_project
from memwarden.hygiene.routing import Route, queue_cap_reached, route
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
    "linked",
    "reexamined",
    "stopped_on_queue_cap",
)
ACTOR = "hygiene"  # the audit actor of what a run does by itself
PENDING_REJUDGE_LIMIT = 1000


def empty_counts() -> dict[str, Any]:
    return {key: (False if key == "stopped_on_queue_cap" else 0) for key in COUNT_KEYS}


class QueueCapReached(Exception):
    """The run handed over its share of queue rows: it stops (the brake)."""


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
    )


async def stale_sweep(services: Services, context_id: uuid.UUID) -> int:
    """Pending pairs with a side no longer served are dismissed (no model), each audited."""
    async with services.db.transaction() as conn:
        ids = await store.stale_sweep(conn, context_id)
        for conflict_id in ids:
            await _audit(conn, context_id, "hygiene.dismiss", "conflict", conflict_id)
    return len(ids)


async def scan_subject(cycle: Cycle, subject_id: uuid.UUID) -> bool:
    """The ordinary single-memory scan; False when the subject was not (or no longer) live."""
    services, cid, cfg = cycle.services, cycle.context_id, cycle.config.hygiene
    async with services.db.connection() as conn:
        found = await store.members(conn, cid, [subject_id])
        if not found:
            return False
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
    judged: list[
        tuple[store.Neighbour, JudgingPath, Adjudication | None, Route, Bookings | None]
    ] = []
    for neighbour in near:
        b = side(neighbour)
        if provably_cross_project(a.project, b.project):
            cycle.counts["skipped_cross_project"] += 1
            continue
        path = judging_path(a.rank, b.rank)
        if cycle.judge_name(path) in neighbour.judged_by:
            continue  # this judge already looked at the pair as it stands
        verdict, sink = await _adjudicate(cycle, path, a, b, subject.owner_subject)
        if verdict is None and sink is None:
            continue  # the model failed: the pair is left alone, nothing is recorded
        cycle.counts["pairs_judged"] += 1
        decided = route(
            verdict,
            a.rank,
            b.rank,
            at_a=a.at,
            at_b=b.at,
            link_confidence=cfg.link_confidence,
            auto_resolve_min_confidence=cfg.auto_resolve_min_confidence,
        )
        judged.append((neighbour, path, verdict, decided, sink))
    # The subject's outcomes in one transaction (the model calls are all made before it).
    capped = False
    if judged:
        async with services.db.transaction() as conn:
            for neighbour, path, verdict, decided, sink in judged:
                if queue_cap_reached(cycle.counts["queued"], cfg.max_queue_rows_per_run):
                    capped = True  # the rest stay unrecorded: judged again next run
                    break
                lost = await _apply(conn, cycle, subject, neighbour, path, verdict, decided, sink)
                if lost:
                    break  # the subject itself was superseded: its other pairs are moot
    if capped or queue_cap_reached(cycle.counts["queued"], cfg.max_queue_rows_per_run):
        raise QueueCapReached
    return True


async def _adjudicate(
    cycle: Cycle, path: JudgingPath, a: PairSide, b: PairSide, owner: str
) -> tuple[Adjudication | None, Bookings | None]:
    """(verdict, the call's usage); (None, None) when a model call failed."""
    judge = cycle.judge(path)
    sink = Bookings()
    if judge is None:
        return adjudicate_offline(a, b), sink
    async with cycle.services.db.connection() as conn:
        await check_budget(conn, cycle.context_id, cycle.config.token_budget)
    addendum = getattr(cycle.config.prompt_addendums, path, None)
    try:
        result = await adjudicate_with_model(judge, a, b, addendum=addendum, usage_sink=sink)
    except AdjudicationError as exc:
        log.warning("hygiene_judge_failed", path=path, error=str(exc))
        async with cycle.services.db.transaction() as conn:
            await sink.write(conn, cycle.context_id)  # tokens spent are booked either way
        return None, None
    return result.adjudication, sink


async def _apply(
    conn: Conn,
    cycle: Cycle,
    subject: Member,
    neighbour: store.Neighbour,
    path: JudgingPath,
    verdict: Adjudication | None,
    decided: Route,
    sink: Bookings | None,
) -> bool:
    """The route's outcome, the judged-pair record and the usage, in the subject's
    transaction (`conn`). True when the subject (side a) lost."""
    cid = cycle.context_id
    judge_model = verdict.judge_model if verdict else cycle.judge_name(path)
    if sink is not None:
        await sink.write(conn, cid)
    await store.judged(
        conn,
        cid,
        (subject.id, subject.revision),
        (neighbour.id, neighbour.revision),
        judge_model,
        verdict.verdict if verdict else "undecided",
    )
    if sink is not None and sink.entries:
        # A model call is attributed to the owner of the memory under review.
        await audit(
            conn,
            context_id=cid,
            actor_subject=subject.owner_subject,
            key_id=None,
            action="hygiene.judge",
            target_kind="record",
            target_id=subject.id,
        )
    if decided.action == "linked" and verdict is not None:
        await store.link(conn, cid, subject.id, neighbour.id, verdict.confidence, judge_model)
        cycle.counts["linked"] += 1
    elif decided.action == "dismissed":
        cycle.counts["dismissed"] += 1
    elif decided.action == "queued" and verdict is not None:
        queued = await store.insert_conflict(
            conn, _conflict(cycle, subject, neighbour, path, verdict, decided, "pending")
        )
        if queued is not None:
            cycle.counts["queued"] += 1
            await _audit(conn, cid, "hygiene.queue", "conflict", queued)
    elif decided.action == "auto_resolved" and verdict is not None:
        return await _auto_resolve(conn, cycle, subject, neighbour, path, verdict, decided)
    return False


def _conflict(
    cycle: Cycle,
    subject: Member,
    neighbour: store.Neighbour,
    path: JudgingPath,
    verdict: Adjudication,
    decided: Route,
    status: str,
) -> NewConflict:
    return NewConflict(
        context_id=cycle.context_id,
        id=new_id(),
        record_a=subject.id,
        record_b=neighbour.id,
        verdict=verdict.verdict,
        superseding=verdict.superseding,
        confidence=verdict.confidence,
        similarity=neighbour.similarity,
        status=status,
        judge_model=verdict.judge_model,
        judging_path=path,
        action=decided.action,
        loser=decided.loser,
        run_id=cycle.run_id,
        revision_a=subject.revision,
        revision_b=neighbour.revision,
    )


async def _auto_resolve(
    conn: Conn,
    cycle: Cycle,
    subject: Member,
    neighbour: store.Neighbour,
    path: JudgingPath,
    verdict: Adjudication,
    decided: Route,
) -> bool:
    """Supersede the loser by the winner (history kept), and keep the resolution so that
    `restore` can undo it."""
    cid = cycle.context_id
    loser, winner = (subject, neighbour) if decided.loser == "a" else (neighbour, subject)
    event = await ingest_store.supersede_recorded(conn, cid, loser.id, winner.id, ACTOR)
    if event is None:
        return False  # no longer live: another change got there first
    await ingest_store.change_events(conn, cid, [event])
    resolved = _conflict(cycle, subject, neighbour, path, verdict, decided, "resolved")
    await store.insert_conflict(conn, resolved)
    await _audit(conn, cid, "hygiene.auto_resolve", "record", loser.id)
    cycle.counts["auto_resolved"] += 1
    return decided.loser == "a"


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
    """Live pending pairs judged again by the current judge; those that no longer look like
    a conflict are dismissed. Loss-free: it never invalidates a memory."""
    cid = cycle.context_id
    async with cycle.services.db.connection() as conn:
        pairs = await store.pending_pairs(conn, cid, PENDING_REJUDGE_LIMIT)
    for pair in pairs:
        async with cycle.services.db.connection() as conn:
            both = await store.members(conn, cid, [pair.record_a, pair.record_b])
        found = {m.id: m for m in both}
        if len(found) < 2:
            continue  # the stale sweep's to dismiss
        a, b = side(found[pair.record_a]), side(found[pair.record_b])
        path = judging_path(a.rank, b.rank)
        verdict, sink = await _adjudicate(cycle, path, a, b, found[pair.record_a].owner_subject)
        if verdict is None:
            if sink is not None:  # offline and undecided: left for a person
                async with cycle.services.db.transaction() as conn:
                    await sink.write(conn, cid)
            continue
        cycle.counts["pairs_judged"] += 1
        async with cycle.services.db.transaction() as conn:
            if sink is not None:
                await sink.write(conn, cid)
            if verdict.verdict in ("complementary", "unrelated"):
                done = await store.decide_conflict(
                    conn,
                    cid,
                    pair.id,
                    status="dismissed",
                    resolution=None,
                    decided_by=None,
                    dismissed_because="rejudged",
                )
                if done:
                    cycle.counts["dismissed"] += 1
                    await _audit(conn, cid, "hygiene.dismiss", "conflict", pair.id)


async def run_cycle(services: Services, context_id: uuid.UUID, run_id: uuid.UUID) -> str:
    """Run a queued hygiene run to its end; the run row says how it went."""
    async with services.db.transaction() as conn:
        run = await store.get_run(conn, context_id, run_id)
        if run is None or not await store.start_run(conn, context_id, run_id):
            return "skipped"
        config = await read_config(conn, context_id)
    cycle = Cycle(services, context_id, run_id, config)
    status, error = "done", None
    try:
        if run.kind == "write":
            for subject_id in run.subjects:
                await scan_subject(cycle, subject_id)
        else:
            await _full_cycle(cycle, run.rejudge)
    except QueueCapReached:
        cycle.counts["stopped_on_queue_cap"] = True
        async with services.db.transaction() as conn:
            await _audit(conn, context_id, "hygiene.queue_cap_stop", "hygiene_run", run_id)
    except BudgetExhausted:
        status, error = "failed", "token_budget_exhausted"
    except Exception as exc:  # recorded on the run; the worker logs the traceback
        status, error = "failed", type(exc).__name__
        log.exception("hygiene_run_failed", run_id=str(run_id))
    async with services.db.transaction() as conn:
        await store.finish_run(
            conn,
            context_id,
            run_id,
            status=status,
            counts=cycle.counts,
            error=error,
            watermark=cycle.watermark,
        )
    return status


async def _full_cycle(cycle: Cycle, rejudge: bool) -> None:
    """Stale sweep, then (on demand) the re-judge pass, the ordinary sweep over what changed
    since the last run's watermark, and re-examination."""
    services, cid, cfg = cycle.services, cycle.context_id, cycle.config.hygiene
    cycle.counts["dismissed"] += await stale_sweep(services, cid)
    if rejudge:
        await rejudge_pending(cycle)
    async with services.db.connection() as conn:
        cycle.watermark = await store.last_watermark(conn, cid)
        recent = await store.recent_subjects(conn, cid, cycle.watermark, cfg.max_subjects_per_run)
    for subject in recent:
        # Reached, even when its pairs hit the brake: the subjects after it lead next time.
        cycle.watermark = store.Watermark(subject.modified_at, subject.id)
        await scan_subject(cycle, subject.id)
    await _reexamine(cycle)


async def _reexamine(cycle: Cycle) -> None:
    """Live memories recall serves often, once per judge model: a guard row per look,
    written whichever way it went."""
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
        examined = await scan_subject(cycle, subject.id)
        if not examined:
            continue
        cycle.counts["reexamined"] += 1
        async with services.db.transaction() as conn:
            await store.guard(conn, cid, subject.id, cycle.subject_judge(subject.provenance_rank))
            await _audit(conn, cid, "hygiene.examine", "record", subject.id)
