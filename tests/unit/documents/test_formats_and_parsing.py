"""Upload formats are decided from the bytes; each supported format parses to text."""

from __future__ import annotations

import asyncio
import io
import time

import pytest

from memwarden.documents.formats import UnsupportedFormat, detect
from memwarden.documents.parse import ParseError, parse, parse_within


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


def test_a_parse_past_its_time_budget_fails_and_the_event_loop_keeps_running() -> None:
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

    async def run() -> ParseError:
        stop = asyncio.Event()
        ticker = asyncio.create_task(tick(stop))
        try:
            with pytest.raises(ParseError) as failed:
                await parse_within("docx", slow, budget_s=0.2)
        finally:
            stop.set()
            await ticker
        return failed.value

    error = asyncio.run(run())
    assert error.code == "parse_timeout"
    assert gaps and max(gaps) < 0.5
