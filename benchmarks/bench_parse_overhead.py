"""Benchmark what parsing in a child process costs per document (issue 15, finding 1).

Small documents of each format (markdown, HTML, DOCX, PDF; about 2 KB of text) go
through the document pipeline's CPU-bound steps two ways, `--docs` times each:

- before: `parse` in a worker thread, then chunking in a thread and the injection scan
  on the event loop (what documents/processing.py did);
- after: `parse_within` and `prepare_within` in a warm child of a `ChildPool`.

It reports p50/p95 per document in milliseconds, and what starting one child costs
(paid on the first document and after a child is killed or retired).
Run: `python benchmarks/bench_parse_overhead.py [--docs 50] [--json]`
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from _tables import table_console
from rich.table import Table

from memwarden.child_pool import ChildPool
from memwarden.documents.chunking import chunk
from memwarden.documents.formats import Format
from memwarden.documents.parse import PARSE_MEMORY_BYTES, PARSER_MODULES, parse, parse_within
from memwarden.documents.prepare import prepare_within
from memwarden.pipeline.injection_scan import scan_items

SENTENCE = "Alice Chen works at Acme in Berlin and reviews the budget every Monday. "
PARAGRAPHS = [SENTENCE * 4 for _ in range(7)]  # ~2 KB of text


def sample(fmt: Format) -> bytes:
    if fmt == "md":
        return ("# Notes\n\n" + "\n\n".join(PARAGRAPHS)).encode()
    if fmt == "html":
        body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        return f"<html><head><style>p{{}}</style></head><body>{body}</body></html>".encode()
    if fmt == "docx":
        import docx

        document = docx.Document()
        for p in PARAGRAPHS:
            document.add_paragraph(p)
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 6, "\n\n".join(PARAGRAPHS))
    return bytes(pdf.output())


async def before(fmt: Format, data: bytes, _pool: ChildPool) -> None:
    text = await asyncio.to_thread(parse, fmt, data)
    chunks = await asyncio.to_thread(chunk, text)
    scan_items(chunks)


async def after(fmt: Format, data: bytes, pool: ChildPool) -> None:
    text = await parse_within(pool, fmt, data)
    await prepare_within(pool, text, False)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed(
    way: Callable[[Format, bytes, ChildPool], Awaitable[None]],
    fmt: Format,
    data: bytes,
    pool: ChildPool,
    n: int,
) -> list[float]:
    await way(fmt, data, pool)  # warm: imports, the child
    out = []
    for _ in range(n):
        started = time.perf_counter()
        await way(fmt, data, pool)
        out.append((time.perf_counter() - started) * 1000)
    return out


async def main(n: int) -> dict[str, Any]:
    results: dict[str, Any] = {"docs": n, "formats": {}}
    cold = ChildPool(preload=PARSER_MODULES, memory_bytes=PARSE_MEMORY_BYTES)
    started = time.perf_counter()
    await cold.run(60, len, "")
    results["child_start_ms"] = round((time.perf_counter() - started) * 1000, 1)
    await cold.close()
    pool = ChildPool(preload=PARSER_MODULES, memory_bytes=PARSE_MEMORY_BYTES)
    try:
        for fmt in ("md", "html", "docx", "pdf"):
            data = sample(fmt)
            row: dict[str, Any] = {"bytes": len(data)}
            for name, way in (("before", before), ("after", after)):
                ms = await timed(way, fmt, data, pool, n)
                row[name] = {"p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95)}
            results["formats"][fmt] = row
    finally:
        await pool.close()
    return results


def report(results: dict[str, Any]) -> None:
    table = Table(title=f"per document, {results['docs']} documents each (ms)")
    for column in ("format", "bytes", "thread p50", "thread p95", "child p50", "child p95"):
        table.add_column(column, justify="right")
    for fmt, row in results["formats"].items():
        table.add_row(
            fmt,
            str(row["bytes"]),
            *(f"{row[w][q]:.2f}" for w in ("before", "after") for q in ("p50", "p95")),
        )
    console = table_console()
    console.print(table)
    console.print(f"starting one child (cold, modules imported): {results['child_start_ms']} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = asyncio.run(main(args.docs))
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        report(out)
