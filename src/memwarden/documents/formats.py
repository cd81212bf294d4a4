"""Which uploads memwarden reads, decided from the bytes as well as the declared type.

A declared type is a hint: the bytes must agree (a PDF starts with %PDF-, a DOCX is a
ZIP holding word/document.xml, text must decode as UTF-8 without NUL bytes).
"""

from __future__ import annotations

import io
import zipfile
from typing import Literal

Format = Literal["txt", "md", "html", "pdf", "docx"]

_BY_EXTENSION: dict[str, Format] = {
    "txt": "txt",
    "text": "txt",
    "md": "md",
    "markdown": "md",
    "html": "html",
    "htm": "html",
    "pdf": "pdf",
    "docx": "docx",
}
_BY_MIME: dict[str, Format] = {
    "text/plain": "txt",
    "text/markdown": "md",
    "text/x-markdown": "md",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
}
CONTENT_TYPES: dict[Format, str] = {
    "txt": "text/plain",
    "md": "text/markdown",
    "html": "text/html",
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}


class UnsupportedFormat(ValueError):
    """The upload is not one of the formats memwarden reads."""


def _is_docx(data: bytes) -> bool:
    if not data.startswith(b"PK"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "word/document.xml" in archive.namelist()
    except zipfile.BadZipFile:
        return False


def _is_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def detect(filename: str, declared: str | None, data: bytes) -> Format:
    """The format of an upload, or UnsupportedFormat."""
    if data.startswith(b"%PDF-"):
        return "pdf"
    if _is_docx(data):
        return "docx"
    mime = (declared or "").split(";", 1)[0].strip().lower()
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    hint = _BY_MIME.get(mime) or _BY_EXTENSION.get(extension)
    if hint in ("pdf", "docx"):
        raise UnsupportedFormat(f"the file is not a valid {hint.upper()}")
    if not _is_text(data):
        raise UnsupportedFormat("binary files other than PDF and DOCX are not supported")
    if hint is None:
        if mime and not mime.startswith("text/") and mime != "application/octet-stream":
            raise UnsupportedFormat(f"content type {mime!r} is not supported")
        return "txt"
    return hint
