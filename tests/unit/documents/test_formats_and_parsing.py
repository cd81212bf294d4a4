"""Upload formats are decided from the bytes; each supported format parses to text."""

from __future__ import annotations

import asyncio
import io
import os
import resource
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psutil
import pytest

from memwarden.child_pool import ChildPool
from memwarden.documents.formats import UnsupportedFormat, detect
from memwarden.documents.parse import PARSER_MODULES, ParseError, parse, parse_within
from tests.support.child_work import busy_pid

T = TypeVar("T")
# The longest the event loop may go without running while a hostile parse runs. Measured
# at a load of 10 on 2 cores: parsing in a child, the longest gap was 0.02-0.04 s; in a
# thread (before), 0.86-1.0 s, with a p99 of 0.25-0.32 s.
GAP_BOUND_S = 0.25


def in_pool(scenario: Callable[[ChildPool], Awaitable[T]], **options: Any) -> T:
    async def main() -> T:
        pool = ChildPool(preload=PARSER_MODULES, **options)
        try:
            return await scenario(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


def make_pdf(text: str) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.multi_cell(0, 10, text)
    return bytes(pdf.output())


def make_docx(paragraphs: list[str]) -> bytes:
    import docx

    document = docx.Document()
    for p in paragraphs:
        document.add_paragraph(p)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_a_pdf_is_recognised_by_its_bytes_whatever_its_name() -> None:
    data = make_pdf("Alice is the CTO of Acme.")
    assert detect("notes.txt", "text/plain", data) == "pdf"
    assert "Alice is the CTO of Acme." in parse("pdf", data)


def test_a_docx_is_read_paragraph_by_paragraph() -> None:
    data = make_docx(["First paragraph.", "Second paragraph."])
    assert detect("x.docx", None, data) == "docx"
    assert parse("docx", data) == "First paragraph.\nSecond paragraph."


def test_html_loses_its_markup_and_scripts() -> None:
    data = b"<html><script>alert(1)</script><body><h1>Title</h1><p>Body text</p></body></html>"
    assert detect("page.html", "text/html", data) == "html"
    text = parse("html", data)
    assert "Title" in text and "Body text" in text and "alert" not in text


@pytest.mark.parametrize(
    ("name", "mime", "fmt"),
    [
        ("a.md", "text/markdown", "md"),
        ("a.txt", None, "txt"),
        ("README", None, "txt"),
        ("a.markdown", "application/octet-stream", "md"),
    ],
)
def test_text_formats_follow_the_declared_type_or_extension(name, mime, fmt) -> None:
    assert detect(name, mime, b"# hello\nworld") == fmt


@pytest.mark.parametrize(
    ("name", "mime", "data"),
    [
        ("a.png", "image/png", b"\x89PNG\r\n\x1a\n\x00\x00"),
        ("a.bin", "application/octet-stream", b"\x00\x01\x02"),
        ("a.pdf", "application/pdf", b"not really a pdf"),
        ("a.docx", None, b"PK\x03\x04 broken zip"),
        ("a.json", "application/json", b'{"a": 1}'),
        ("a.txt", "text/plain", "caf\u00e9".encode("latin-1")),
    ],
)
def test_unsupported_or_mislabelled_uploads_are_refused(name, mime, data) -> None:
    with pytest.raises(UnsupportedFormat):
        detect(name, mime, data)


def test_a_damaged_pdf_is_a_parse_error_not_a_crash() -> None:
    with pytest.raises(ParseError):
        parse("pdf", b"%PDF-1.4\n garbage without structure")


def test_an_empty_document_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        parse("txt", b"  \n\n  ")


def test_a_docx_over_the_unpacked_size_bound_is_refused_from_its_directory() -> None:
    from tests.support.hostile_documents import docx_bomb

    with pytest.raises(ParseError) as refused:
        parse("docx", docx_bomb(empty_paragraphs=10_000_000 // 6))
    assert refused.value.code == "document_too_large"


def _own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # every thread of this process
    return usage.ru_utime + usage.ru_stime


def test_a_parse_past_its_time_budget_is_killed_and_the_event_loop_keeps_running() -> None:
    from tests.support.hostile_documents import docx_bomb

    slow = docx_bomb(empty_paragraphs=300_000)  # under the size bound, seconds to parse
    gaps: list[float] = []

    async def tick(stop: asyncio.Event) -> None:
        last = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    async def run(pool: ChildPool) -> tuple[ParseError, int, float]:
        await parse_within(pool, "txt", b"a child is started outside the budget")
        stop = asyncio.Event()
        ticker = asyncio.create_task(tick(stop))
        try:
            parsing = asyncio.create_task(parse_within(pool, "docx", slow, budget_s=1.0))
            pid = await busy_pid(pool)
            with pytest.raises(ParseError) as failed:
                await parsing
        finally:
            stop.set()
            await ticker
        before = _own_cpu_s()
        await asyncio.sleep(1.0)
        return failed.value, pid, _own_cpu_s() - before

    error, pid, cpu_after = in_pool(run)
    assert error.code == "parse_timeout"
    assert not psutil.pid_exists(pid)  # the parser was killed, not abandoned
    assert cpu_after < 0.3  # nothing in this process keeps parsing either
    assert gaps and max(gaps) < GAP_BOUND_S


def test_a_parser_that_dies_fails_the_parse_with_parse_failed_and_the_next_parse_works() -> None:
    from tests.support.hostile_documents import docx_bomb

    slow = docx_bomb(empty_paragraphs=300_000)

    async def run(pool: ChildPool) -> tuple[ParseError, str]:
        parsing = asyncio.create_task(parse_within(pool, "docx", slow))
        os.kill(await busy_pid(pool), signal.SIGKILL)  # as the OOM killer would
        with pytest.raises(ParseError) as failed:
            await parsing
        return failed.value, await parse_within(pool, "md", b"# next\nfine")

    error, text = in_pool(run)
    assert error.code == "parse_failed"
    assert "SIGKILL" in str(error)
    assert text == "# next\nfine"


def test_a_parse_past_the_memory_cap_fails_with_document_too_large() -> None:
    many_lines = b"ab\n" * 3_000_000  # 9 MB: 3 million line objects, ~200 MB to split

    async def run(pool: ChildPool) -> ParseError:
        with pytest.raises(ParseError) as failed:
            await parse_within(pool, "txt", many_lines)
        return failed.value

    error = in_pool(run, memory_bytes=200 << 20)
    assert error.code == "document_too_large"
