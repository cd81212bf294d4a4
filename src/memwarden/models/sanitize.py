"""Cleaning untrusted strings before they enter a prompt or a memory record.

Titles, section paths, retrieved hit text and model-emitted identifiers can carry
control characters, bidi overrides, chat-template tokens and newline framing
("\\n\\nSYSTEM: ..."); these functions collapse or remove them and cap lengths.
They complement, not replace, the injection scanner that inspects body text.
"""

from __future__ import annotations

import re
import unicodedata

ELLIPSIS = "…"

_TEMPLATE_TOKEN = re.compile(r"<\|[^|<>\n]{0,40}\|>")
_SPACES = re.compile(r"[^\S\n]+")
_NEWLINES = re.compile(r"\n\s*\n+")
_LINE_BREAKS = re.compile(r"\r\n|[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_IDENTIFIER_BAD = re.compile(r"[^A-Za-z0-9_.:\-]")


def _drop_invisible(text: str, keep_newlines: bool) -> str:
    """Remove control (Cc), format (Cf: zero-width, bidi), surrogate and private-use chars."""
    out: list[str] = []
    for ch in text:
        if ch == "\n" and keep_newlines:
            out.append(ch)
        elif ch in "\t\n":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co"):
            continue
        else:
            out.append(ch)
    return "".join(out)


def _drop_template_tokens(text: str) -> str:
    """Repeat until none is left: removing `<|a|>` from `<|<|a|>|>` leaves a new token."""
    while True:
        text, count = _TEMPLATE_TOKEN.subn(" ", text)
        if not count:
            return text


def _cut(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return text[:max_chars]
    return text[: max_chars - 1].rstrip() + ELLIPSIS


def clean_line(text: str, max_chars: int = 200) -> str:
    """One line: every line break and whitespace run becomes one space; capped."""
    text = _LINE_BREAKS.sub("\n", text)
    text = _drop_template_tokens(_drop_invisible(text, keep_newlines=False))
    text = " ".join(text.split())
    return _cut(text, max_chars)


def clean_block(text: str, max_chars: int = 2000) -> str:
    """Multi-line text: lines kept, blank-line runs collapsed to one break; capped."""
    text = _LINE_BREAKS.sub("\n", text)
    text = _drop_template_tokens(_drop_invisible(text, keep_newlines=True))
    text = _SPACES.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    text = _NEWLINES.sub("\n", text).strip()
    return _cut(text, max_chars).strip()


def clean_identifier(text: str, max_chars: int = 64) -> str:
    """A model-emitted id: only [A-Za-z0-9_.:-] survives, so it cannot carry framing."""
    return _IDENTIFIER_BAD.sub("", text)[:max_chars]


def frame_untrusted(text: str, tag: str = "TEXT") -> str:
    """Wrap content in `<<<TAG ... TAG>>>` markers the stage prompts name as data.

    An end marker inside the content is defused so the content cannot close its own frame.
    """
    end = f"{tag}>>>"
    body = text.replace(end, f"{tag}> > >").replace(f"<<<{tag}", f"< < <{tag}")
    return f"<<<{tag}\n{body}\n{end}"


def unframe(message: str, tag: str = "TEXT") -> str:
    """The content of the first frame in a message (the rule extractor reads it back)."""
    start_marker, end_marker = f"<<<{tag}\n", f"\n{tag}>>>"
    start = message.find(start_marker)
    if start == -1:
        return message
    start += len(start_marker)
    end = message.rfind(end_marker)
    return message[start:end] if end >= start else message[start:]
