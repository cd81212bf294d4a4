"""What a turn's text must be before anything is judged, extracted or stored (pure)."""

from __future__ import annotations

from memwarden.errors import InvalidInput

_ALLOWED_CONTROLS = {"\t", "\n", "\r"}


def check_text(text: str) -> None:
    """400 for empty text and for binary junk: NUL bytes, unpaired surrogates (not valid
    UTF-8), or text where more than 5% of the characters are controls or U+FFFD."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text must not be empty", field="text")
    if "\x00" in text:
        raise InvalidInput("text holds NUL bytes", field="text", code="binary_content")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(
            "text is not valid Unicode", field="text", code="binary_content"
        ) from None
    junk = sum(
        1
        for ch in text
        if ch == "\ufffd" or (ord(ch) < 32 and ch not in _ALLOWED_CONTROLS) or 127 <= ord(ch) < 160
    )
    if junk * 20 > len(text):
        raise InvalidInput("text looks like binary data", field="text", code="binary_content")
