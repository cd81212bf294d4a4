"""Turn an upload's bytes into plain text with maintained parsers (pypdf, python-docx, bs4).

A 16 KB DOCX can unpack to gigabytes of XML, and parsing is CPU-bound: archives are
bounded from their zip directory before anything is unpacked, and the worker parses in a
child process (`memwarden.child_pool`) within a time budget and a memory cap, so the
event loop (health, every tenant's requests) keeps running and a parse past its budget
is killed rather than abandoned.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from typing import Any, TypeVar

from memwarden.child_pool import ChildDied, ChildPool, ChildTimeout, describe_exit
from memwarden.documents.formats import Format

T = TypeVar("T")

_BLANK_LINES = re.compile(r"\n{3,}")


MAX_ZIP_ENTRIES = 1000
MAX_ZIP_ENTRY_BYTES = 8 * 1024 * 1024
MAX_ZIP_TOTAL_BYTES = 32 * 1024 * 1024
MAX_PDF_PAGES = 2000
PARSE_BUDGET_S = 60.0
# A parser child's address space (RLIMIT_AS); one starts at about 85 MB with its modules.
PARSE_MEMORY_BYTES = 1 << 30
# What a parser child imports once, before its first document.
PARSER_MODULES = (
    "memwarden.documents.parse",
    "memwarden.documents.prepare",
    "pypdf",
    "docx",
    "bs4",
)


class ParseError(ValueError):
    """The file could not be read although its format is supported; `code` is the
    document's failure code."""

    def __init__(self, message: str, code: str = "parse_error") -> None:
        super().__init__(message)
        self.code = code


def _too_large(message: str) -> ParseError:
    return ParseError(message, "document_too_large")


def check_archive(data: bytes) -> None:
    """Refuse a zip whose directory declares too many entries or too many unpacked bytes.

    zipfile never unpacks more than an entry's declared size (a lying entry fails its
    CRC), so the directory bounds what reading can cost.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError) as exc:
        raise ParseError(f"unreadable archive ({type(exc).__name__})") from None
    if len(entries) > MAX_ZIP_ENTRIES:
        raise _too_large(f"the archive holds more than {MAX_ZIP_ENTRIES} entries")
    if any(e.file_size > MAX_ZIP_ENTRY_BYTES for e in entries):
        raise _too_large(f"an archive entry unpacks to more than {MAX_ZIP_ENTRY_BYTES} bytes")
    if sum(e.file_size for e in entries) > MAX_ZIP_TOTAL_BYTES:
        raise _too_large(f"the archive unpacks to more than {MAX_ZIP_TOTAL_BYTES} bytes")


def _pdf(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError, PdfReadError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ParseError("encrypted PDFs are not supported")
        if len(reader.pages) > MAX_PDF_PAGES:
            raise _too_large(f"the PDF has more than {MAX_PDF_PAGES} pages")
        return "\n\n".join((page.extract_text() or "").strip() for page in reader.pages)
    except LimitReachedError:
        # pypdf's own work limits: a page whose content stream inflates to millions of
        # operators (a "flate bomb"), declared sizes past its bounds, reference loops.
        raise _too_large("the PDF exceeds the parser's limits") from None
    except (PdfReadError, PyPdfError, ValueError, KeyError) as exc:
        raise ParseError(f"unreadable PDF ({type(exc).__name__})") from None


def _docx(data: bytes) -> str:
    import docx

    check_archive(data)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises many types for a damaged file
        raise ParseError(f"unreadable DOCX ({type(exc).__name__})") from None
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts.append(" | ".join(cell.text for cell in row.cells))
    return "\n".join(parts)


def _html(data: bytes) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data.decode("utf-8", errors="replace"), "html.parser")
    for tag in soup(["script", "style", "noscript", "template"]):
        tag.decompose()
    return soup.get_text("\n")


def parse(fmt: Format, data: bytes) -> str:
    """Plain text with normalised line breaks; empty text is a ParseError."""
    if fmt == "pdf":
        text = _pdf(data)
    elif fmt == "docx":
        text = _docx(data)
    elif fmt == "html":
        text = _html(data)
    else:
        text = data.decode("utf-8")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = _BLANK_LINES.sub("\n\n", text).strip()
    if not text:
        raise ParseError("the document holds no text")
    return text


async def in_child(
    pool: ChildPool, budget_s: float, what: str, fn: Callable[..., T], *args: Any
) -> T:
    """`fn(*args)` in one of the pool's children, its failures as the document's codes:
    past the budget `parse_timeout` (the child is killed), past the memory cap
    `document_too_large`, a child that dies `parse_failed`."""
    try:
        return await pool.run(budget_s, fn, *args)
    except ChildTimeout:
        raise ParseError(f"{what} took longer than {budget_s:g} s", "parse_timeout") from None
    except MemoryError:
        raise _too_large(f"{what} needed more memory than a parser may use") from None
    except ChildDied as died:
        message = f"the parser process died during {what} ({describe_exit(died.exitcode)})"
        raise ParseError(message, "parse_failed") from None


async def parse_within(
    pool: ChildPool, fmt: Format, data: bytes, budget_s: float = PARSE_BUDGET_S
) -> str:
    """`parse` in a child process of `pool`, failing with `parse_timeout` past the budget."""
    return await in_child(pool, budget_s, "parsing", parse, fmt, data)
