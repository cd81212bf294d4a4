"""elaboration (off by default): facts that follow from several stored facts together.

The stage's model (`models.elaboration`, else `MEMWARDEN_MODEL_ELABORATION`) is shown the
newest serving facts of one scope, each as `[id] fact`, and answers in the extraction
contract with `derivedFrom` on each attribute and relation row. A row is kept only when it
names at least two of the facts shown; rows are written grouped by their sources, one unit
of work per group, each record with `derived_from` = exactly the facts it names (so it stops
serving the moment any of them does) and `memoryCategory` as the model assigned it. Without
a model elaboration does nothing: there is no honest offline inference.

Inputs: serving facts, never elaboration's (or rollup's, gist's) own output. Private facts
feed only records private to their owner. Unit: `facts:<scope>:<visibility>:<owner>`
(fingerprint: the facts' ids and revisions), watermarked with the unit's last group.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from memwarden.models.contracts import ElaborationOutput, ExtractionOutput
from memwarden.passes.unit import PassRun, fingerprint, write_unit
from memwarden.pipeline.extraction import ExtractionDiff, sanitise
from memwarden.store import passes as store
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

FACTS_SHOWN = 50
MIN_SOURCES = 2

Group = tuple[str, str, str]  # (scope path, visibility, owner of private output or '')


def fact_groups(facts: list[dict[str, Any]]) -> dict[Group, list[dict[str, Any]]]:
    shared: dict[str, list[dict[str, Any]]] = defaultdict(list)
    private: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for f in facts:
        if f["visibility"] == "private":
            private[(f["scope_path"], f["owner_subject"])].append(f)
        else:
            shared[f["scope_path"]].append(f)
    groups: dict[Group, list[dict[str, Any]]] = {
        (path, "shared", ""): rows for path, rows in shared.items()
    }
    for (path, owner), rows in private.items():
        groups[(path, "private", owner)] = shared.get(path, []) + rows
    return groups


def derived_rows(
    out: ElaborationOutput, shown: dict[str, uuid.UUID]
) -> list[tuple[tuple[uuid.UUID, ...], ExtractionDiff]]:
    """The rows that name at least two shown facts, grouped by the facts they name."""
    by_sources: dict[tuple[uuid.UUID, ...], dict[str, list[dict[str, Any]]]] = defaultdict(
        lambda: {"attributes": [], "relations": []}
    )
    for name, rows in (("attributes", out.attributes), ("relations", out.relations)):
        for row in rows:
            ids = tuple(sorted({shown[s] for s in row.derived_from if s in shown}, key=str))
            if len(ids) >= MIN_SOURCES:
                by_sources[ids][name].append(
                    row.model_dump(by_alias=True, exclude={"derived_from"})
                )
    found = []
    for ids, lists in by_sources.items():
        diff = sanitise(ExtractionOutput.model_validate(lists))
        if diff.attributes or diff.relations:
            found.append((ids, diff))
    return found


async def run_elaboration(run: PassRun) -> None:
    if run.provider is None:
        return
    async with run.services.db.connection() as conn:
        facts = await store.facts(conn, run.context_id, FACTS_SHOWN * 4)
    for (path, visibility, owner), rows in fact_groups(facts).items():
        rows = rows[:FACTS_SHOWN]
        if len(rows) < MIN_SOURCES:
            continue
        unit = f"facts:{path}:{visibility}:{owner}"
        fp = fingerprint(f"{r['id']}:{r['revision']}" for r in rows)
        if not run.is_new(unit, fp):
            continue
        run.counts.inputs += 1
        sink = Bookings()
        shown = {str(r["id"]): r["id"] for r in rows}
        text = "\n".join(f"[{r['id']}] {r['body']}" for r in rows)
        out = await run.ask(text, ElaborationOutput, sink)
        groups = derived_rows(out, shown) if out is not None else []
        where = WriteScope(run.context_id, path, visibility, owner or rows[0]["owner_subject"])
        units = groups or [((), ExtractionDiff())]
        for n, (sources, diff) in enumerate(units):
            last = n == len(units) - 1
            await write_unit(
                run,
                unit=unit,
                fp=fp if last else None,
                diff=diff,
                where=where,
                derived_from=sources,
                sink=sink if n == 0 else Bookings(),  # the call's usage is booked once
                exact_names=False,  # the model names entities as a turn's extraction does
            )
