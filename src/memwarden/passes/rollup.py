"""rollup: per session, an episodic summary once the session has been idle for
`passes.rollup_idle_minutes`; per entity, a profile summary refreshed when its facts change.

Inputs: a session's live turns (never a held or deleted one); an entity's serving facts
(the serving gate drops held, rejected, deleted, superseded and expired ones), never the
passes' own output. Private material feeds only a summary private to the same owner.
Units: `session:<id>` (fingerprint: its turn ids and the ids of the facts extracted from
them) and `entity:<id>` or
`entity:<id>:<owner>` (fingerprint: its facts' ids and revisions).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from memwarden.passes.summaries import summarise
from memwarden.passes.unit import PassRun, fingerprint, summary_diff, write_unit
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.store import passes as store
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

SESSION_KEY = "session_summary"
PROFILE_KEY = "profile_summary"
MIN_FACTS = 2  # one fact is its own summary


def session_entity(session_id: uuid.UUID) -> str:
    return f"session {session_id}"


async def run_rollup(run: PassRun) -> None:
    idle_s = 0.0 if run.manual else run.config.passes.rollup_idle_minutes * 60.0
    async with run.services.db.connection() as conn:
        turns = await store.idle_session_turns(conn, run.context_id, idle_s)
        facts = await store.entity_facts(conn, run.context_id)
    await _sessions(run, turns)
    await _entities(run, facts)


async def _sessions(run: PassRun, turns: list[dict[str, Any]]) -> None:
    by_session: dict[uuid.UUID, list[dict[str, Any]]] = defaultdict(list)
    for t in turns:
        by_session[t["session_id"]].append(t)
    for session_id, rows in by_session.items():
        turn_ids = [r["id"] for r in rows]
        async with run.services.db.connection() as conn:
            records = await store.turn_records(conn, run.context_id, turn_ids)
        # The summary is made from the turns' text, so it names the facts those turns gave
        # too: the serving gate then drops it once any of them is rejected, held or deleted.
        sources = [*turn_ids, *records]
        unit, fp = f"session:{session_id}", fingerprint(sources)
        if not run.is_new(unit, fp):
            continue
        run.counts.inputs += 1
        private = any(r["visibility"] == "private" for r in rows)
        first = rows[0]
        where = WriteScope(
            run.context_id,
            first["scope_path"],
            "private" if private else "shared",
            first["owner_subject"],
        )
        sink = Bookings()
        summary = await summarise(run, "\n".join(r["text"] for r in rows), sink)
        name = session_entity(session_id)
        await write_unit(
            run,
            unit=unit,
            fp=fp,
            diff=summary_diff(name, "event", SESSION_KEY, summary, "context")
            if summary
            else ExtractionDiff(),
            where=where,
            derived_from=sources,
            sink=sink,
        )


Group = tuple[str | None, list[dict[str, Any]]]  # (owner of a private summary, facts)


def entity_groups(facts: list[dict[str, Any]]) -> dict[str, Group]:
    """Per entity: its shared facts (a shared summary) and, per owner of private facts, the
    shared ones with that owner's private ones (a summary private to that owner)."""
    shared: dict[uuid.UUID, list[dict[str, Any]]] = defaultdict(list)
    private: dict[tuple[uuid.UUID, str], list[dict[str, Any]]] = defaultdict(list)
    first: dict[uuid.UUID, dict[str, Any]] = {}
    for f in facts:
        first.setdefault(f["entity_id"], f)
        if f["visibility"] == "private" or f["entity_visibility"] == "private":
            owner = f["owner_subject"] if f["visibility"] == "private" else f["entity_owner"]
            private[(f["entity_id"], owner)].append(f)
        else:
            shared[f["entity_id"]].append(f)
    groups: dict[str, Group] = {}
    for entity_id, rows in shared.items():
        if first[entity_id]["entity_visibility"] == "shared":
            groups[f"entity:{entity_id}"] = (None, rows)
    for (entity_id, owner), rows in private.items():
        groups[f"entity:{entity_id}:{owner}"] = (owner, shared.get(entity_id, []) + rows)
    return groups


async def _entities(run: PassRun, facts: list[dict[str, Any]]) -> None:
    for unit, (owner, rows) in entity_groups(facts).items():
        if len(rows) < MIN_FACTS:
            continue
        fp = fingerprint(f"{r['id']}:{r['revision']}" for r in rows)
        if not run.is_new(unit, fp):
            continue
        run.counts.inputs += 1
        head = rows[0]
        where = WriteScope(
            run.context_id,
            head["scope_path"],
            "private" if owner else "shared",
            owner or head["entity_owner"],
        )
        sink = Bookings()
        name = head["entity_name"] or ""
        text = "\n".join(f"{name}: {r['body']}" for r in rows)
        summary = await summarise(run, text, sink)
        diff = summary_diff(name, "other", PROFILE_KEY, summary, "knowledge")
        await write_unit(
            run,
            unit=unit,
            fp=fp,
            diff=diff if summary else ExtractionDiff(),
            where=where,
            derived_from=[head["entity_id"], *(r["id"] for r in rows)],
            sink=sink,
        )
