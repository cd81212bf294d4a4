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


def _docx_with_body(body_xml: bytes, doctype: bytes = b"") -> bytes:
    """A real DOCX whose word/document.xml body is replaced by `body_xml`, with an
    optional DOCTYPE (entity declarations) before the root element."""
    source = zipfile.ZipFile(io.BytesIO(make_docx(["seed"])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                head, _, rest = data.partition(_BODY_START)
                _, _, tail = rest.partition(b"</w:body>")
                if doctype:
                    decl, _, root = head.partition(b"?>")
                    head = decl + b"?>" + doctype + root
                data = head + _BODY_START + body_xml + b"</w:body>" + tail
            target.writestr(info.filename, data)
    return out.getvalue()


_LAUGHS = (
    b'<!DOCTYPE w:document [<!ENTITY lol "lol">'
    + b"".join(
        b'<!ENTITY lol%d "%s">' % (n, (b"&lol%d;" % (n - 1) if n > 1 else b"&lol;") * 10)
        for n in range(1, 10)
    )
    + b"]>"
)


def docx_billion_laughs() -> bytes:
    """XML entity expansion: nine levels of ten, a billion "lol"s if a parser expands them."""
    return _docx_with_body(b"<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p>", _LAUGHS)


def docx_deep_nesting(depth: int = 100_000) -> bytes:
    """Elements nested `depth` deep inside one paragraph."""
    return _docx_with_body(b"<w:p>" + b"<w:r>" * depth + b"</w:r>" * depth + b"</w:p>")


def html_billion_laughs() -> bytes:
    doctype = _LAUGHS.replace(b"w:document", b"html")
    return doctype + b"<html><body><p>&lol9;</p></body></html>"


def html_deep_nesting(depth: int = 100_000) -> bytes:
    return b"<html><body>" + b"<div>" * depth + b"deep" + b"</div>" * depth + b"</body></html>"


def pdf_flate_bomb(inflated_mb: int = 64) -> bytes:
    """A one-page PDF whose content stream is small deflated and `inflated_mb` MB inflated:
    text-showing operators, so a text extractor works through all of it."""
    import zlib

    ops = b"BT /F1 12 Tf 72 720 Td (bomb) Tj ET\n"
    stream = zlib.compress(ops * (inflated_mb * 1024 * 1024 // len(ops)), 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % n + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def text_huge_page(megabytes: int = 4) -> bytes:
    """One line of `megabytes` MB of words: no paragraph or sentence to cut at."""
    word = b"lorem "
    return word * (megabytes * 1024 * 1024 // len(word))
