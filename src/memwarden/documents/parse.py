"""Turn an upload's bytes into plain text with maintained parsers (pypdf, python-docx, bs4)."""

from __future__ import annotations

import io
import re

from memwarden.documents.formats import Format

_BLANK_LINES = re.compile(r"\n{3,}")


class ParseError(ValueError):
    """The file could not be read although its format is supported."""


def _pdf(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ParseError("encrypted PDFs are not supported")
        return "\n\n".join((page.extract_text() or "").strip() for page in reader.pages)
    except (PdfReadError, ValueError, KeyError) as exc:
        raise ParseError(f"unreadable PDF ({type(exc).__name__})") from None


def _docx(data: bytes) -> str:
    import docx

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
