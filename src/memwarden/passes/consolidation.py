"""consolidation: records that describe one thing under two names become one survivor.

Candidates come from `candidates.py`: entity pairs, and attributes of one entity stated
under two keys. With a model (`models.consolidation`, else
`MEMWARDEN_MODEL_CONSOLIDATION`) each candidate pair is asked `{"same", "survivor",
"confidence"}`: same and at least `MERGE_CONFIDENCE` sure merges, same but less sure goes to
the reviewer queue, not the same does nothing. Offline, sure candidates merge and unsure
ones are queued.

A merge is one unit of work through the row gate and the reconciled-write unit: the
survivor gains an `also_known_as` attribute naming the other (row-gated like any row), and
in the same transaction the other is retired in favour of the survivor through
`retirement.retire` (the replacement rule, then history revision `supersede`,
`superseded_by` = the survivor, a `superseded` feed entry) and the merge is kept as an
automatic resolution (a `conflict` row, origin `pass`), which a reviewer undoes by restoring
the merged-away record. When the row gate drops or holds the alias, or the replacement rule
refuses, nothing is merged and the pair goes to the reviewer queue. An attribute pair merges
without a new row: the newer (offline) is retired in favour of the older, likewise. Queued
pairs are rows of `conflict` (origin `pass`, verdict `duplicate`, status `pending`), queued
once; a pair a person decided is never queued or merged again.

A merge also carries the merged-away entity's serving facts in the survivor's scope (its
attributes, and relations and actions from it or naming it) to the survivor: restated on
the survivor as rows of the same unit, through the same row gate and reconciliation, and
each original superseded by its restatement (`replaces`, history kept, so restoring undoes
it). A dropped or held row stops the whole merge, carried rows included.

Unit: `pair:<a>:<b>` (fingerprint: both revisions). A unit that fails unexpectedly is logged
and left for the next run (no watermark); the run goes on with the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import structlog

from memwarden.domain.ids import new_id
from memwarden.domain.replacement import Refusal
from memwarden.domain.speaker import FIRST_PERSON, SPEAKER_PREFIX, Speaker
from memwarden.errors import AppError
from memwarden.models.base import ModelTransportError
from memwarden.models.contracts import ConsolidationOutput
from memwarden.models.sanitize import clean_line
from memwarden.passes.candidates import Pair, attribute_pairs, is_speakers, pairs
from memwarden.passes.unit import PassRun, write_unit
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.retirement import check, retire
from memwarden.store import ingest as ingest_store
from memwarden.store import passes as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)

ALIAS_KEY = "also_known_as"
MERGE_CONFIDENCE = 0.8
OFFLINE = "offline"


class _Refused(Exception):
    """The replacement rule refused the merge inside its unit: the unit rolls back."""

    def __init__(self, reason: Refusal) -> None:
        super().__init__(reason)
        self.reason = reason


async def run_consolidation(run: PassRun) -> None:
    async with run.services.db.connection() as conn:
        entities = await store.entities(conn, run.context_id)
        attributes = await store.attributes(conn, run.context_id)
        decided = await store.decided_pairs(conn, run.context_id)
    for pair in [*pairs(entities), *attribute_pairs(attributes)]:
        if frozenset((pair.a["id"], pair.b["id"])) in decided:
            continue  # a person decided this pair: it stands
        first, second = sorted((pair.a, pair.b), key=lambda r: str(r["id"]))
        unit = f"pair:{first['id']}:{second['id']}"
        fp = f"{first['revision']}:{second['revision']}"
        if run.is_new(unit, fp):
            run.counts.inputs += 1
            try:
                await _decide(run, pair, unit, fp)
            except (AppError, ModelTransportError):
                raise  # the run's own failures (budget, model, judge): the run stops
            except Exception:
                # One unit never stops the pass for good: it is left for the next run.
                log.exception("consolidation_unit_failed", run_id=str(run.run_id), unit=unit)


def _describe(label: str, row: Mapping[str, Any]) -> str:
    if "attr_key" in row:  # an attribute: the same entity's `key = value`
        return f"{label}: {clean_line(str(row['name']))} = {clean_line(str(row['value']))}"
    return f"{label}: {clean_line(str(row['name']))} ({clean_line(str(row['entity_type']))})"


async def _decide(run: PassRun, pair: Pair, unit: str, fp: str) -> None:
    sink = Bookings()
    gone, kept, merge, confidence = pair.a, pair.b, pair.sure, pair.confidence
    if run.provider is not None:
        text = f"{_describe('a', pair.a)}\n{_describe('b', pair.b)}"
        out = await run.ask(text, ConsolidationOutput, sink)
        if out is None or not out.same:
            await _record(run, pair, unit, fp, sink, queue=False)
            return
        if out.survivor == "a" and not is_speakers(pair.b):
            gone, kept = pair.b, pair.a  # never a speaker's own entity merged away
        merge, confidence = out.confidence >= MERGE_CONFIDENCE, out.confidence
    if merge and await _refusal(run, gone, kept) is not None:
        merge = False  # the replacement rule would refuse it: a person decides
    if not merge:
        await _record(run, pair, unit, fp, sink, queue=True, confidence=confidence)
        return
    try:
        if "attr_key" in gone:
            await _merge_attribute(run, gone, kept, unit, fp, sink, confidence)
        else:
            await _merge(run, gone, kept, unit, fp, sink, confidence)
    except _Refused:  # refused as the unit's transaction saw it: nothing was written
        await _record(run, pair, unit, fp, sink, queue=True, confidence=confidence)


async def _refusal(
    run: PassRun, gone: Mapping[str, Any], kept: Mapping[str, Any]
) -> Refusal | None:
    """The replacement rule on the pair as it stands (checked again in the unit)."""
    async with run.services.db.connection() as conn:
        return await check(conn, run.context_id, gone["id"], kept["id"])


async def _merge_attribute(
    run: PassRun,
    gone: Mapping[str, Any],
    kept: Mapping[str, Any],
    unit: str,
    fp: str,
    sink: Bookings,
    confidence: float,
) -> None:
    """The same attribute under two keys: the other retired in favour of the survivor (no
    new row, so nothing for the row gate to judge), with history and a feed entry."""

    async def supersede(conn: Conn, _clean: bool) -> None:
        await _superseded(conn, run, gone, kept, confidence)

    await write_unit(
        run,
        unit=unit,
        fp=fp,
        diff=ExtractionDiff(),
        where=_where(run, kept),
        derived_from=[],
        sink=sink,
        extra_gated=supersede,
    )


async def _record(
    run: PassRun,
    pair: Pair,
    unit: str,
    fp: str,
    sink: Bookings,
    *,
    queue: bool,
    confidence: float = 0.0,
) -> None:
    """No merge: the watermark (and usage), and the pair queued for a reviewer if unsure."""

    async def enqueue_pair(conn: Conn) -> None:
        if queue:
            await _queue(conn, run, pair.a, pair.b, confidence)

    await write_unit(
        run,
        unit=unit,
        fp=fp,
        diff=ExtractionDiff(),
        where=_where(run, pair.b),
        derived_from=[],
        sink=sink,
        extra=enqueue_pair,
    )


def _model(run: PassRun) -> str | None:
    return getattr(run.provider, "model", None) if run.provider is not None else None


async def _queue(
    conn: Conn, run: PassRun, a: Mapping[str, Any], b: Mapping[str, Any], confidence: float
) -> None:
    await store.insert_conflict(
        conn, run.context_id, new_id(), a["id"], b["id"], confidence, _model(run)
    )


async def _superseded(
    conn: Conn, run: PassRun, gone: Mapping[str, Any], kept: Mapping[str, Any], confidence: float
) -> None:
    """`gone` retired in favour of `kept` as the replacement rule allows (`_Refused`
    otherwise, which rolls the unit back), with its history revision, a `superseded` feed
    entry and the merge kept as an automatic resolution (nothing when it was no longer
    live)."""
    done = await retire(
        conn, run.context_id, gone["id"], kept["id"], f"pass:{run.stage}", cause="consolidation"
    )
    if done.refused is not None:
        raise _Refused(done.refused)
    if done.event is None:
        return
    await ingest_store.change_events(conn, run.context_id, [done.event])
    await store.insert_merge(
        conn,
        run.context_id,
        new_id(),
        gone["id"],
        kept["id"],
        confidence,
        _model(run) or OFFLINE,
        run.run_id,
    )


def _where(run: PassRun, row: Mapping[str, Any]) -> WriteScope:
    return WriteScope(run.context_id, row["scope_path"], row["visibility"], row["owner_subject"])


async def _merge(
    run: PassRun,
    gone: Mapping[str, Any],
    kept: Mapping[str, Any],
    unit: str,
    fp: str,
    sink: Bookings,
    confidence: float,
) -> None:
    async with run.services.db.connection() as conn:
        facts = await store.entity_facts_of(conn, run.context_id, gone["id"])
    # Onto a speaker's own entity, the rows name it as first person, with its speaker.
    speaker = _speaker_of(kept)
    survivor = FIRST_PERSON if speaker is not None else str(kept["name"])
    rows, replaces = carried(gone, kept, facts, survivor)
    rows["attributes"].insert(
        0,
        {
            "entity": survivor,
            "key": ALIAS_KEY,
            "value": gone["name"],
            "memoryCategory": "identity",
        },
    )
    replaces = {_shift(row_id): old for row_id, old in replaces.items()}
    diff = ExtractionDiff.model_validate(rows)

    async def supersede(conn: Conn, kept_rows: bool) -> None:
        if kept_rows:
            await _superseded(conn, run, gone, kept, confidence)
        else:
            await _queue(conn, run, gone, kept, confidence)

    await write_unit(
        run,
        unit=unit,
        fp=fp,
        diff=diff,
        where=_where(run, kept),
        # The survivor only: the merged-away record is superseded by this very unit, and
        # its `superseded_by` already points here (a superseded source would stop the alias).
        derived_from=[kept["id"]],
        sink=sink,
        extra_gated=supersede,
        replaces=replaces,
        speaker=speaker,
    )


def _speaker_of(row: Mapping[str, Any]) -> Speaker | None:
    if not is_speakers(row):
        return None
    key = str(row["norm_name"]).removeprefix(SPEAKER_PREFIX)
    return Speaker(key, str(row["name"]))


def _shift(row_id: str) -> str:
    """The alias is the unit's first attribute row: carried attributes come after it."""
    return f"a{int(row_id[1:]) + 1}" if row_id.startswith("a") else row_id


def carried(
    gone: Mapping[str, Any],
    kept: Mapping[str, Any],
    facts: list[dict[str, Any]],
    survivor: str | None = None,
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The merged-away entity's facts restated on the survivor (named `survivor`: its name,
    or first person for a speaker's own entity), as extraction rows, and the record each
    row replaces (row ids as the row gate numbers them: `a0`, `r0`, `x0`). Only facts in
    the survivor's own scope are carried; the others stay where they are."""
    kept_name = survivor if survivor is not None else str(kept["name"])
    rows: dict[str, list[dict[str, Any]]] = {"attributes": [], "relations": [], "actions": []}
    replaces: dict[str, Any] = {}
    same_scope = ("scope_path", "visibility", "owner_subject")
    for f in facts:
        if any(f[k] != kept[k] for k in same_scope):
            continue
        c, category = f["content"], f["memory_category"]

        def name(field: str, entity_id: Any, c: Mapping[str, Any] = c) -> str:
            return kept_name if entity_id == gone["id"] else str(c.get(field) or "")

        if f["kind"] == "attribute":
            replaces[f"a{len(rows['attributes'])}"] = f["id"]
            rows["attributes"].append(
                {
                    "entity": kept_name,
                    "key": c["key"],
                    "value": str(c["value"]),
                    "memoryCategory": category,
                }
            )
            continue
        first = "subject" if f["kind"] == "relation" else "actor"
        listed, prefix = ("relations", "r") if f["kind"] == "relation" else ("actions", "x")
        replaces[f"{prefix}{len(rows[listed])}"] = f["id"]
        rows[listed].append(
            {
                first: name(first, f["entity_id"]),
                "label": c["label"],
                "object": name("object", f["object_entity_id"]),
                "memoryCategory": category,
            }
        )
    return rows, replaces
