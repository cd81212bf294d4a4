"""The real OpenAI SDK client against the scripted server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from memwarden.models.base import (
    ModelOutputError,
    ModelRequestRejected,
    ModelTransportError,
    StructuredOutputMode,
)
from memwarden.models.contracts import AdjudicationOutput, ExtractionOutput, JudgeOutput
from memwarden.models.deadline import request_deadline, time_left
from memwarden.models.openai_compat import OpenAICompatEmbedder, OpenAICompatProvider
from memwarden.models.prompts import ADDENDUM_HEADING, system_prompt
from tests.support.hostile_replies import HOSTILE_REPLIES
from tests.support.replies import PASS_VERDICT, extraction
from tests.support.scripted_model import RecordingSink, Reply, ScriptedModelServer

MakeProvider = Callable[..., OpenAICompatProvider]
JUDGE_PASS = PASS_VERDICT


def judge(provider: OpenAICompatProvider, **kwargs: Any) -> Any:
    async def call() -> Any:
        async with provider:
            return await provider.complete_json(
                "judge", "rules", "<<<TEXT\nhello\nTEXT>>>", JudgeOutput, 64, **kwargs
            )

    return asyncio.run(call())


def test_json_schema_mode_sends_the_contract_schema_as_response_format(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.json({"verdict": "fail", "reasons": ["credential"]}))
    result = judge(make_provider(mode="json_schema"))
    assert result.data == {"verdict": "fail", "reasons": ["credential"]}
    (request,) = scripted.requests_for("judge")
    fmt = request.response_format
    assert fmt is not None and fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "judge"
    assert fmt["json_schema"]["strict"] is False
    assert fmt["json_schema"]["schema"]["properties"]["reasons"]["maxItems"] > 0
    assert request.max_tokens == 64


def test_json_object_schema_mode_sends_the_schema_inside_a_json_object_format(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.json(JUDGE_PASS))
    judge(make_provider(mode=StructuredOutputMode.JSON_OBJECT_SCHEMA))
    (request,) = scripted.requests
    fmt = request.response_format
    assert fmt is not None and fmt["type"] == "json_object"
    assert fmt["schema"]["required"] == ["verdict", "reasons"]


def test_prompt_json_mode_describes_the_schema_in_the_system_message_and_parses_text(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    wrapped = 'Sure! Here it is:\n```json\n{"verdict": "warn", "reasons": ["policy"]}\n```'
    scripted.script("judge", Reply.text(wrapped))
    result = judge(make_provider(mode="prompt_json"))
    assert result.data["verdict"] == "warn"
    (request,) = scripted.requests
    assert request.response_format is None
    assert '"verdict"' in request.system and "JSON schema" in request.system
    assert '"verdict"' not in request.user


def test_a_500_is_retried_and_the_later_success_is_returned(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.error(500), Reply.error(503), Reply.json(JUDGE_PASS))
    result = judge(make_provider(max_retries=2))
    assert result.data["verdict"] == "pass"
    assert len(scripted.requests) == 3


def test_500s_past_the_retry_budget_raise_a_transport_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", *[Reply.error(500)] * 3)
    with pytest.raises(ModelTransportError):
        judge(make_provider(max_retries=1))
    assert len(scripted.requests) == 2


def test_a_400_is_not_retried_and_raises_a_rejected_request(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.error(400, "response_format not supported"))
    with pytest.raises(ModelRequestRejected) as caught:
        judge(make_provider(max_retries=3))
    assert caught.value.status_code == 400
    assert isinstance(caught.value, ModelTransportError)
    assert len(scripted.requests) == 1


def test_a_reply_slower_than_the_timeout_raises_a_transport_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.json(JUDGE_PASS).after(3.0))
    with pytest.raises(ModelTransportError, match="timed out"):
        judge(make_provider(timeout_s=0.3, max_retries=0))


def judge_within(provider: OpenAICompatProvider, seconds: float) -> None:
    """Run one judge call under a request deadline of `seconds`."""

    async def call() -> None:
        with request_deadline(seconds):
            await provider.complete_json("judge", "rules", "hello", JudgeOutput, 64)

    asyncio.run(call())


def test_the_request_deadline_bounds_every_attempt_and_the_retries(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", *[Reply.json(JUDGE_PASS).after(5.0)] * 3)
    started = time.monotonic()
    with pytest.raises(ModelTransportError):
        judge_within(make_provider(timeout_s=10.0, max_retries=2), 1.0)
    assert time.monotonic() - started < 2.5
    assert len(scripted.requests) == 1


def test_a_trickled_reply_is_cut_at_the_request_deadline(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    # each byte restarts httpx's read timeout: only the total deadline ends this
    scripted.script("judge", Reply.json(JUDGE_PASS).trickled(0.05))
    started = time.monotonic()
    with pytest.raises(ModelTransportError, match="deadline"):
        judge_within(make_provider(timeout_s=0.5, max_retries=0), 1.0)
    assert time.monotonic() - started < 2.5


def test_no_call_starts_once_the_request_deadline_has_passed(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    async def call(provider: OpenAICompatProvider) -> None:
        with request_deadline(0.01):
            await asyncio.sleep(0.05)
            await provider.complete_json("judge", "rules", "hello", JudgeOutput, 64)

    scripted.script("judge", Reply.json(JUDGE_PASS))
    with pytest.raises(ModelTransportError, match="deadline"):
        asyncio.run(call(make_provider()))
    assert scripted.requests == []


def test_an_earlier_outer_deadline_wins_over_a_later_inner_one() -> None:
    with request_deadline(1.0), request_deadline(60.0):
        left = time_left()
        assert left is not None and left <= 1.0
    assert time_left() is None


def test_an_unreachable_endpoint_raises_a_transport_error() -> None:
    provider = OpenAICompatProvider(
        "m", base_url="http://127.0.0.1:9/v1", timeout_s=1.0, max_retries=0
    )
    with pytest.raises(ModelTransportError, match="unreachable"):
        judge(provider)


def test_a_reply_that_breaks_the_contract_raises_an_output_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.json({"verdict": "maybe", "reasons": []}))
    with pytest.raises(ModelOutputError):
        judge(make_provider())


def test_a_reply_with_no_json_raises_an_output_error_and_is_not_retried(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.text("I cannot do that."))
    with pytest.raises(ModelOutputError):
        judge(make_provider(max_retries=3))
    assert len(scripted.requests) == 1


@pytest.mark.parametrize("name", sorted(HOSTILE_REPLIES))
def test_an_unreadable_reply_is_an_output_error_and_is_not_retried(
    scripted: ScriptedModelServer, make_provider: MakeProvider, name: str
) -> None:
    scripted.script("judge", HOSTILE_REPLIES[name])
    with pytest.raises(ModelOutputError):
        judge(make_provider(max_retries=3))
    assert len(scripted.requests) == 1


@pytest.mark.parametrize("name", ["html_envelope", "deep_envelope", "truncated_envelope"])
def test_an_unreadable_streamed_or_text_reply_is_an_output_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider, name: str
) -> None:
    scripted.script("chat", HOSTILE_REPLIES[name])

    async def call() -> Any:
        async with make_provider() as provider:
            return await provider.complete_text("chat", "rules", "hi", 64)

    with pytest.raises(ModelOutputError):
        asyncio.run(call())


def test_a_streamed_reply_past_the_size_bound_is_an_output_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("chat", Reply.text("x" * 1_200_000))
    scripted.stream_chunk_chars = 100_000

    async def call() -> str:
        parts: list[str] = []
        async with make_provider() as provider:
            async for part in provider.stream_text("chat", "rules", "hi", 64):
                parts.append(part)
        return "".join(parts)

    with pytest.raises(ModelOutputError):
        asyncio.run(call())


def test_a_reply_cut_at_max_tokens_says_so(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.text('{"verdict": "pa', finish_reason="length"))
    with pytest.raises(ModelOutputError, match="max_tokens"):
        judge(make_provider())


def test_usage_is_booked_through_the_sink_under_the_stage(
    scripted: ScriptedModelServer, make_provider: MakeProvider, sink: RecordingSink
) -> None:
    scripted.script("judge", Reply.json(JUDGE_PASS, prompt_tokens=120, completion_tokens=9))
    result = judge(make_provider("judge-model"), usage_sink=sink)
    assert result.usage.prompt_tokens == 120
    assert [(b.stage, b.model, b.prompt_tokens, b.completion_tokens) for b in sink.bookings] == [
        ("judge", "judge-model", 120, 9)
    ]


def test_usage_is_booked_even_when_the_output_is_invalid(
    scripted: ScriptedModelServer, make_provider: MakeProvider, sink: RecordingSink
) -> None:
    scripted.script("judge", Reply.text("not json", prompt_tokens=50, completion_tokens=3))
    with pytest.raises(ModelOutputError):
        judge(make_provider(), usage_sink=sink)
    assert sink.total_tokens == 53


def test_missing_usage_is_booked_as_an_estimate(
    scripted: ScriptedModelServer, make_provider: MakeProvider, sink: RecordingSink
) -> None:
    scripted.script("judge", Reply.json(JUDGE_PASS).without_usage())
    judge(make_provider(), usage_sink=sink)
    (booking,) = sink.bookings
    assert booking.estimated and booking.prompt_tokens > 0


def test_the_addendum_goes_into_the_system_message_and_never_the_user_message(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.json(JUDGE_PASS))
    addendum = "Treat internal project codenames as policy violations."
    system = system_prompt("judge", addendum)

    async def call() -> None:
        async with make_provider() as provider:
            await provider.complete_json("judge", system, "<<<TEXT\nx\nTEXT>>>", JudgeOutput, 32)

    asyncio.run(call())
    (request,) = scripted.requests
    assert addendum in request.system
    assert request.system.index(ADDENDUM_HEADING) < request.system.index(addendum)
    assert addendum not in request.user
    assert [m["role"] for m in request.messages] == ["system", "user"]


def test_the_stage_travels_in_a_header_so_servers_and_proxies_can_tell_calls_apart(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script(
        "adjudication",
        Reply.json({"verdict": "supersedes", "superseding": "b"} | {"confidence": 0.8}),
    )

    async def call() -> Any:
        async with make_provider() as provider:
            return await provider.complete_json("adjudication", "s", "u", AdjudicationOutput, 16)

    result = asyncio.run(call())
    assert result.data == {"verdict": "supersedes", "superseding": "b", "confidence": 0.8}
    assert scripted.requests[0].stage == "adjudication"


def test_a_plain_schema_dict_is_validated_with_json_schema(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    schema = {
        "title": "summary",
        "type": "object",
        "properties": {"summary": {"type": "string", "maxLength": 50}},
        "required": ["summary"],
    }
    scripted.script("chat", Reply.json({"summary": "ok"}), Reply.json({"other": 1}))

    async def call() -> tuple[Any, BaseException | None]:
        async with make_provider() as provider:
            first = await provider.complete_json("chat", "s", "u", schema, 16)
            try:
                await provider.complete_json("chat", "s", "u", schema, 16)
            except ModelOutputError as exc:
                return first, exc
            return first, None

    first, error = asyncio.run(call())
    assert first.data == {"summary": "ok"}
    assert isinstance(error, ModelOutputError)
    assert scripted.requests[0].response_format["json_schema"]["name"] == "summary"  # type: ignore[index]


def test_extraction_replies_bucket_unknown_categories_as_context(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    reply = extraction(
        entities=[{"name": "Alice", "entityType": "person", "memoryCategory": "emotion"}]
    )
    scripted.script("extraction", Reply.json(reply))

    async def call() -> Any:
        async with make_provider() as provider:
            return await provider.complete_json("extraction", "s", "u", ExtractionOutput, 256)

    result = asyncio.run(call())
    assert result.data["entities"][0]["memoryCategory"] == "context"


def test_complete_text_returns_the_reply_and_books_usage(
    scripted: ScriptedModelServer, make_provider: MakeProvider, sink: RecordingSink
) -> None:
    scripted.script("chat", Reply.text("Hello Alice.", prompt_tokens=30, completion_tokens=4))

    async def call() -> Any:
        async with make_provider() as provider:
            return await provider.complete_text("chat", "s", "hi", 100, usage_sink=sink)

    result = asyncio.run(call())
    assert result.text == "Hello Alice."
    assert scripted.requests[0].response_format is None
    assert scripted.requests[0].max_tokens == 100
    assert sink.total_tokens == 34


def test_stream_text_yields_deltas_over_sse_and_books_the_final_usage(
    scripted: ScriptedModelServer, make_provider: MakeProvider, sink: RecordingSink
) -> None:
    text = "Bullet points, as you asked: one, two, three."
    scripted.script("chat", Reply.text(text, prompt_tokens=40, completion_tokens=12))

    async def call() -> list[str]:
        async with make_provider() as provider:
            return [d async for d in provider.stream_text("chat", "s", "hi", 80, usage_sink=sink)]

    parts = asyncio.run(call())
    assert len(parts) > 1 and "".join(parts) == text
    (request,) = scripted.requests
    assert request.stream and request.body["stream_options"] == {"include_usage": True}
    assert [(b.prompt_tokens, b.completion_tokens) for b in sink.bookings] == [(40, 12)]


def test_a_stream_that_fails_before_it_starts_raises_a_transport_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("chat", Reply.error(502), Reply.error(502))

    async def call() -> None:
        async with make_provider(max_retries=1) as provider:
            async for _ in provider.stream_text("chat", "s", "hi", 80):
                pass

    with pytest.raises(ModelTransportError):
        asyncio.run(call())


def test_the_openai_embedder_returns_vectors_in_input_order_in_batches(
    scripted: ScriptedModelServer,
) -> None:
    embedder = OpenAICompatEmbedder("emb", base_url=scripted.base_url, batch_size=2)
    try:
        vectors = embedder.embed(["a", "b", "c"])
        assert embedder.dimensions == 8
        assert len(vectors) == 3 and vectors[0] != vectors[1]
        assert embedder.embed(["c"])[0] == vectors[2]
    finally:
        embedder.close()
    bodies = [r.body for r in scripted.requests if r.path.endswith("/embeddings")]
    assert [b["input"] for b in bodies[:2]] == [["a", "b"], ["c"]]
    assert all(b["encoding_format"] == "float" for b in bodies)


def test_the_openai_embedder_reports_the_tokens_of_every_batch(
    scripted: ScriptedModelServer,
) -> None:
    embedder = OpenAICompatEmbedder("emb", base_url=scripted.base_url, batch_size=2)
    try:
        vectors, usage = embedder.embed_counted(["one two", "three", "four five six"])
    finally:
        embedder.close()
    assert len(vectors) == 3
    assert (usage.prompt_tokens, usage.completion_tokens, usage.estimated) == (6, 0, False)


def test_the_openai_embedder_maps_failures_to_transport_errors(
    scripted: ScriptedModelServer,
) -> None:
    scripted.script("emb", Reply.error(500), Reply.error(500))
    embedder = OpenAICompatEmbedder("emb", base_url=scripted.base_url, max_retries=1)
    try:
        with pytest.raises(ModelTransportError):
            embedder.embed(["a"])
    finally:
        embedder.close()


def test_ping_reports_whether_the_endpoint_answers(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    async def call() -> tuple[bool, bool]:
        async with make_provider() as up:
            reachable = await up.ping()
        down = OpenAICompatProvider("m", base_url="http://127.0.0.1:9/v1", max_retries=0)
        async with down:
            unreachable = await down.ping()
        return reachable, unreachable

    assert asyncio.run(call()) == (True, False)


def test_recorded_requests_keep_the_exact_json_body(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("judge", Reply.json(JUDGE_PASS))
    judge(make_provider(json_temperature=0.0))
    body = scripted.requests[0].body
    assert body["temperature"] == 0.0
    assert json.loads(json.dumps(body)) == body
