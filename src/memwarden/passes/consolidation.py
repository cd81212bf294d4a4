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
of `conflict` (verdict `duplicate`, status `pending`).

A merge also carries the merged-away entity's serving facts in the survivor's scope (its
attributes, and relations and actions from it or naming it) to the survivor: restated on
the survivor as rows of the same unit, through the same row gate and reconciliation, and
each original superseded by its restatement (`replaces`, history kept, so restoring undoes
it). A dropped or held row stops the whole merge, carried rows included.

Unit: `pair:<a>:<b>` (fingerprint: both revisions).
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
        await _superseded(conn, run, gone, kept)

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


async def _superseded(
    conn: Conn, run: PassRun, gone: Mapping[str, Any], kept: Mapping[str, Any]
) -> None:
    """`gone` superseded by `kept`, with its history revision and a `superseded` feed entry
    (nothing when it was no longer live)."""
    event = await ingest_store.supersede_recorded(
        conn, run.context_id, gone["id"], kept["id"], f"pass:{run.stage}"
    )
    if event is not None:
        await ingest_store.change_events(conn, run.context_id, [event])


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
    rows, replaces = carried(gone, kept, facts)
    rows["attributes"].insert(
        0,
        {
            "entity": kept["name"],
            "key": ALIAS_KEY,
            "value": gone["name"],
            "memoryCategory": "identity",
        },
    )
    replaces = {_shift(row_id): old for row_id, old in replaces.items()}
    diff = ExtractionDiff.model_validate(rows)

    async def supersede(conn: Conn, kept_rows: bool) -> None:
        if kept_rows:
            await _superseded(conn, run, gone, kept)
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
    )


def _shift(row_id: str) -> str:
    """The alias is the unit's first attribute row: carried attributes come after it."""
    return f"a{int(row_id[1:]) + 1}" if row_id.startswith("a") else row_id


def carried(
    gone: Mapping[str, Any], kept: Mapping[str, Any], facts: list[dict[str, Any]]
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The merged-away entity's facts restated on the survivor, as extraction rows, and the
    record each row replaces (row ids as the row gate numbers them: `a0`, `r0`, `x0`).
    Only facts in the survivor's own scope are carried; the others stay where they are."""
    rows: dict[str, list[dict[str, Any]]] = {"attributes": [], "relations": [], "actions": []}
    replaces: dict[str, Any] = {}
    same_scope = ("scope_path", "visibility", "owner_subject")
    for f in facts:
        if any(f[k] != kept[k] for k in same_scope):
            continue
        c, category = f["content"], f["memory_category"]

        def name(field: str, entity_id: Any, c: Mapping[str, Any] = c) -> str:
            return str(kept["name"]) if entity_id == gone["id"] else str(c.get(field) or "")

        if f["kind"] == "attribute":
            replaces[f"a{len(rows['attributes'])}"] = f["id"]
            rows["attributes"].append(
                {
                    "entity": kept["name"],
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
