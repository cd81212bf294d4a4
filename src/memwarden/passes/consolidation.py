"""consolidation: records that describe one thing under two names become one survivor.

Candidates come from `candidates.py`: entity pairs, and attributes of one entity stated
under two keys. With a model (`models.consolidation`, else
`MEMWARDEN_MODEL_CONSOLIDATION`) each candidate pair is asked `{"same", "survivor",
"confidence"}`: same and at least `MERGE_CONFIDENCE` sure merges, same but less sure goes to
the reviewer queue, not the same does nothing. Offline, sure candidates merge and unsure
ones are queued.

A merge is one unit of work through the row gate and the reconciled-write unit: the
survivor gains an `also_known_as` attribute naming the other (row-gated like any row), and
in the same transaction the other is superseded by the survivor (history revision
`supersede`, `superseded_by` = the survivor, a `superseded` feed entry), which a reviewer
can undo by restoring it. When the row gate drops or holds the alias, nothing is merged and
the pair goes to the reviewer queue. An attribute pair merges without a new row: the newer
(offline) is superseded by the older, with history and a feed entry. Queued pairs are rows
of `conflict` (verdict `duplicate`, status `pending`). Unit: `pair:<a>:<b>` (fingerprint:
both revisions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memwarden.domain.ids import new_id
from memwarden.models.contracts import ConsolidationOutput
from memwarden.models.sanitize import clean_line
from memwarden.passes.candidates import Pair, attribute_pairs, pairs
from memwarden.passes.unit import PassRun, write_unit
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.store import ingest as ingest_store
from memwarden.store import passes as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

ALIAS_KEY = "also_known_as"
MERGE_CONFIDENCE = 0.8


async def run_consolidation(run: PassRun) -> None:
    async with run.services.db.connection() as conn:
        entities = await store.entities(conn, run.context_id)
        attributes = await store.attributes(conn, run.context_id)
    for pair in [*pairs(entities), *attribute_pairs(attributes)]:
        first, second = sorted((pair.a, pair.b), key=lambda r: str(r["id"]))
        unit = f"pair:{first['id']}:{second['id']}"
        fp = f"{first['revision']}:{second['revision']}"
        if run.is_new(unit, fp):
            run.counts.inputs += 1
            await _decide(run, pair, unit, fp)


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
        if out.survivor == "a":
            gone, kept = pair.b, pair.a
        merge, confidence = out.confidence >= MERGE_CONFIDENCE, out.confidence
    if not merge:
        await _record(run, pair, unit, fp, sink, queue=True, confidence=confidence)
        return
    if "attr_key" in gone:
        await _merge_attribute(run, gone, kept, unit, fp, sink)
        return
    await _merge(run, gone, kept, unit, fp, sink, confidence)


async def _merge_attribute(
    run: PassRun,
    gone: Mapping[str, Any],
    kept: Mapping[str, Any],
    unit: str,
    fp: str,
    sink: Bookings,
) -> None:
    """The same attribute under two keys: the other superseded by the survivor (no new row,
    so nothing for the row gate to judge), with history and a feed entry."""

    async def supersede(conn: Conn, _clean: bool) -> None:
        event = await ingest_store.supersede_recorded(
            conn, run.context_id, gone["id"], kept["id"], f"pass:{run.stage}"
        )
        if event is not None:
            await ingest_store.change_events(conn, run.context_id, [event])

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


async def _queue(
    conn: Conn, run: PassRun, a: Mapping[str, Any], b: Mapping[str, Any], confidence: float
) -> None:
    model = getattr(run.provider, "model", None) if run.provider is not None else None
    await store.insert_conflict(conn, run.context_id, new_id(), a["id"], b["id"], confidence, model)


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
    diff = ExtractionDiff.model_validate(
        {
            "attributes": [
                {
                    "entity": kept["name"],
                    "key": ALIAS_KEY,
                    "value": gone["name"],
                    "memoryCategory": "identity",
                }
            ]
        }
    )

    async def supersede(conn: Conn, kept_rows: bool) -> None:
        if not kept_rows:
            await _queue(conn, run, gone, kept, confidence)
            return
        event = await ingest_store.supersede_recorded(
            conn, run.context_id, gone["id"], kept["id"], f"pass:{run.stage}"
        )
        if event is not None:
            await ingest_store.change_events(conn, run.context_id, [event])

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
    )
