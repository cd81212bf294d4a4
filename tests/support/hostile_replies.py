"""Model replies a misbehaving provider or proxy sends: each must follow the stage's
error rule (judge on_error, extraction window failed), never surface as a 500."""

from __future__ import annotations

from tests.support.scripted_model import Reply

DEPTH = 5000
DEEP_OBJECT = '{"a":' * DEPTH + "1" + "}" * DEPTH
CUT_ENVELOPE = '{"id":"chatcmpl-x","object":"chat.completion","choices":[{"index":0,"message":{"ro'

HOSTILE_REPLIES: dict[str, Reply] = {
    "html_envelope": Reply.raw("<html><body><h1>502 Bad Gateway</h1></body></html>"),
    "deep_envelope": Reply.raw(DEEP_OBJECT),
    "deep_content": Reply.text(DEEP_OBJECT),
    "huge_content": Reply.text('{"verdict":"pass","reasons":[],"pad":"' + "x" * 3_000_000 + '"}'),
    "truncated_envelope": Reply.raw(CUT_ENVELOPE),
    "truncated_content": Reply.text('{"verdict":"pass","reas', finish_reason="length"),
    "envelope_not_an_object": Reply.raw('["not", "a", "completion"]'),
}
