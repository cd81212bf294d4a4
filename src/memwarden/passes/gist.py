"""gist: per processed document, and per live turn longer than one extraction window, a short
gist stored as a derived record (and, for a document, on the document itself).

Inputs: processed documents none of whose chunks is held or deleted, and live turns.
Units: `document:<id>` and `turn:<id>` (fingerprint: the text's digest).
"""

from __future__ import annotations

import hashlib
from typing import Any

from memwarden.passes.summaries import summarise
from memwarden.passes.unit import PassRun, summary_diff, write_unit
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.pipeline.windowing import EXTRACTION_WINDOW
from memwarden.store import passes as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

GIST_KEY = "gist"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


async def run_gist(run: PassRun) -> None:
    async with run.services.db.connection() as conn:
        documents = await store.documents(conn, run.context_id)
        turns = await store.long_turns(conn, run.context_id, EXTRACTION_WINDOW)
    for doc in documents:
        await _one(run, f"document:{doc['id']}", doc, f"document {doc['filename']}", "document")
    for turn in turns:
        await _one(run, f"turn:{turn['id']}", turn, f"turn {turn['id']}", "turn")


async def _one(run: PassRun, unit: str, row: dict[str, Any], name: str, kind: str) -> None:
    text = row["parsed_text"] if kind == "document" else row["text"]
    fp = _digest(text)
    if not run.is_new(unit, fp):
        return
    run.counts.inputs += 1
    sink = Bookings()
    gist = await summarise(run, text, sink)
    where = WriteScope(run.context_id, row["scope_path"], row["visibility"], row["owner_subject"])

    async def keep_on_document(conn: Conn) -> None:
        if kind == "document" and gist:
            await store.set_document_gist(conn, run.context_id, row["id"], gist)

    await write_unit(
        run,
        unit=unit,
        fp=fp,
        diff=summary_diff(name, kind, GIST_KEY, gist, "knowledge") if gist else ExtractionDiff(),
        where=where,
        derived_from=[row["id"]],
        sink=sink,
        extra=keep_on_document,
    )
