"""The OpenAI-compatible embedder under a misbehaving endpoint (issue 15, standing
campaign): the request deadline bounds the whole call, retries and a trickled body
included, and every fault is a ModelError, never a raw exception."""

from __future__ import annotations

import time

import pytest

from memwarden.models.base import ModelError, ModelOutputError, ModelTransportError
from memwarden.models.deadline import request_deadline
from memwarden.models.openai_compat import OpenAICompatEmbedder
from tests.support.scripted_model import FAULTS, Reply, ScriptedModelServer, fault

DEADLINE_S = 1.0


def _embed_under_deadline(scripted: ScriptedModelServer, **kwargs: object) -> list[list[float]]:
    embedder = OpenAICompatEmbedder(
        "emb", base_url=scripted.base_url, timeout_s=10.0, max_retries=2, **kwargs
    )
    try:
        with request_deadline(DEADLINE_S):
            return embedder.embed(["a"])
    finally:
        embedder.close()


def test_a_trickled_embedding_reply_is_cut_at_the_request_deadline(scripted) -> None:
    scripted.respond_with("emb", Reply.vectors([[0.5] * 8]).trickled(0.05))
    started = time.monotonic()
    with pytest.raises(ModelTransportError, match="deadline"):
        _embed_under_deadline(scripted)
    assert time.monotonic() - started < DEADLINE_S + 1.0


def test_a_hanging_endpoint_is_not_retried_past_the_request_deadline(scripted) -> None:
    scripted.respond_with("emb", Reply.vectors([[0.5] * 8]).after(5.0))
    started = time.monotonic()
    with pytest.raises(ModelTransportError):
        _embed_under_deadline(scripted)
    assert time.monotonic() - started < DEADLINE_S + 1.0


def test_a_failing_endpoint_is_retried_inside_the_request_deadline(scripted) -> None:
    scripted.script("emb", Reply.error(500))
    scripted.respond_with("emb", Reply.vectors([[0.5] * 8]))
    assert _embed_under_deadline(scripted) == [[0.5] * 8]
    assert len(scripted.requests_for("emb")) == 2


def test_an_unreadable_embedding_reply_is_an_output_error(scripted) -> None:
    scripted.respond_with("emb", Reply.raw('{"a":' * 5000 + "1" + "}" * 5000))
    with pytest.raises(ModelOutputError):
        _embed_under_deadline(scripted)


@pytest.mark.parametrize("name", FAULTS)
def test_every_fault_is_a_model_error_inside_the_deadline(scripted, name: str) -> None:
    scripted.respond_with("emb", fault(name, Reply.vectors([[0.5] * 8]), hang_s=5.0))
    started = time.monotonic()
    try:
        vectors = _embed_under_deadline(scripted)
    except ModelError:
        pass
    else:  # a well-formed reply of the wrong width is the caller's to refuse
        assert name in ("huge", "wrong_schema") and len(vectors) == 1
    assert time.monotonic() - started < DEADLINE_S + 1.5
