"""Hostile uploads built in the test: small on the wire, huge or slow once opened."""

from __future__ import annotations

import io
import zipfile

from tests.unit.documents.test_formats_and_parsing import make_docx

_BODY_START = b"<w:body>"


def docx_bomb(empty_paragraphs: int, extra_entries: int = 0) -> bytes:
    """A real DOCX whose word/document.xml holds `empty_paragraphs` empty paragraphs
    (10 MB of them deflate to about 16 KB), plus `extra_entries` tiny extra zip entries."""
    source = zipfile.ZipFile(io.BytesIO(make_docx(["seed"])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                head, _, tail = data.partition(_BODY_START)
                data = head + _BODY_START + b"<w:p/>" * empty_paragraphs + tail
            target.writestr(info.filename, data)
        for n in range(extra_entries):
            target.writestr(f"memwarden/pad{n}.xml", b"<a/>")
    return out.getvalue()
