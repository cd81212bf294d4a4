"""The listwise chat scorer through the real OpenAI-compatible client against the scripted
server: what it sends, how it reads the ranking, and how it fails."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from memwarden.models.base import ModelOutputError, ModelTransportError
from memwarden.models.openai_compat import OpenAICompatProvider
from memwarden.models.rerank import CHAT_DOCUMENT_CHARS, ChatReranker, RerankResult
from tests.support.scripted_model import RecordingSink, Reply, ScriptedModelServer

DOCS = ["Caroline went to a support group.", "Melanie paints.", "The weather was fine."]
MakeProvider = Callable[..., OpenAICompatProvider]


def rerank(
    provider: OpenAICompatProvider, docs: list[str] = DOCS, sink: RecordingSink | None = None
) -> RerankResult:
    async def call() -> RerankResult:
        async with provider:
            scorer = ChatReranker(provider)
            return await scorer.rerank("what did Caroline do?", docs, usage_sink=sink)

    return asyncio.run(call())


def test_the_model_reads_numbered_candidates_and_its_ranking_orders_them(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("rerank", Reply.json({"ranking": [1, 3]}))
    sink = RecordingSink()
    result = rerank(make_provider(max_retries=0), sink=sink)
    assert [i for i, _ in result.order] == [0, 2]
    assert result.order[0][1] > result.order[1][1]
    (request,) = scripted.requests_for("rerank")
    assert "<<<QUESTION\nwhat did Caroline do?\nQUESTION>>>" in request.user
    assert "[1] Caroline went to a support group." in request.user
    assert "[3] The weather was fine." in request.user
    assert "rank candidate passages" in request.system
    assert "Caroline" not in request.system  # untrusted text only in the user message
    fmt = request.response_format
    assert fmt is not None
    assert fmt["json_schema"]["schema"]["properties"]["ranking"]["maxItems"] == 3
    assert [b.stage for b in sink.bookings] == ["rerank"]


def test_numbers_the_model_invented_or_repeated_are_dropped(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script(
        "rerank", Reply.json({"ranking": [2, 2, 9]}), Reply.json({"ranking": [0, 3, -1]})
    )
    assert [i for i, _ in rerank(make_provider(max_retries=0)).order] == [1]
    assert [i for i, _ in rerank(make_provider(max_retries=0)).order] == [2]


def test_a_ranking_longer_than_the_candidates_is_outside_the_contract(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("rerank", Reply.json({"ranking": [1, 2, 3, 1]}))
    with pytest.raises(ModelOutputError):
        rerank(make_provider(max_retries=0))


def test_candidates_are_flattened_and_cut_for_the_prompt(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("rerank", Reply.json({"ranking": [1]}))
    rerank(make_provider(max_retries=0), ["line one\nline two " + "y" * 2000])
    (request,) = scripted.requests_for("rerank")
    line = next(x for x in request.user.splitlines() if x.startswith("[1] "))
    assert line.startswith("[1] line one line two y")
    assert len(line) == len("[1] ") + CHAT_DOCUMENT_CHARS


def test_a_reply_outside_the_contract_is_an_output_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("rerank", Reply.json({"ranking": ["first", "second"]}))
    with pytest.raises(ModelOutputError):
        rerank(make_provider(max_retries=0))


def test_an_unreachable_model_is_a_transport_error(
    scripted: ScriptedModelServer, make_provider: MakeProvider
) -> None:
    scripted.script("rerank", Reply.error(503))
    with pytest.raises(ModelTransportError):
        rerank(make_provider(max_retries=0))
