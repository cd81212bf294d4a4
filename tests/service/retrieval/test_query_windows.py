"""/query's window lists: a turn's chunk is also ranked together with the chunk before it
in its session, so a reply is found by the question it answers ("What have you been up
to?" / "Researching adoption agencies"). Neighbours are chunks the caller may read and
that are served; turns of other sessions are never neighbours."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from memwarden.store.batch import run_all
from memwarden.store.recall import Reader
from memwarden.store.windows import chunks_vector_window
from tests.service.usecases import facts, query
from tests.support.services import ContextKey, ServiceHarness

QUESTION = "What have you been up to lately, any hobbies?"
REPLY = "Researching adoption agencies, it is a big step."


def _turn(svc: ServiceHarness, ctx: ContextKey, text: str, session: Any = None, **kw: Any) -> str:
    """A turn without extraction (chunks only); returns its session id."""
    return facts(svc, ctx, text, infer="none", session_id=session, **kw)["sessionId"]


def _texts(hits: list[dict[str, Any]]) -> list[str]:
    return [h["text"] for h in hits]


def test_a_reply_is_found_by_the_words_of_the_question_before_it_in_its_session(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    session = _turn(svc, ctx, QUESTION)
    _turn(svc, ctx, REPLY, uuid.UUID(session))
    _turn(svc, ctx, "The weather was grey all week.")
    hits = _texts(query(svc, ctx, "hobbies lately", mode="lexical"))
    assert hits[:2] == [QUESTION, REPLY]


def test_a_turn_of_another_session_lends_a_reply_none_of_its_words(svc: ServiceHarness) -> None:
    ctx = svc.make_context()
    _turn(svc, ctx, QUESTION)
    _turn(svc, ctx, REPLY)  # a new session: the question is not before it
    assert _texts(query(svc, ctx, "hobbies lately", mode="lexical")) == [QUESTION]


def test_a_neighbour_the_reader_may_not_see_lends_a_reply_none_of_its_words(
    svc: ServiceHarness,
) -> None:
    alice = svc.make_context(subject="alice")
    bob = svc.add_key(alice.id, ["memory_read"], subject="bob")
    session = _turn(svc, alice, QUESTION, visibility="private")
    _turn(svc, alice, REPLY, uuid.UUID(session))
    assert _texts(query(svc, alice, "hobbies lately", mode="lexical")) == [QUESTION, REPLY]
    assert _texts(query(svc, bob, "hobbies lately", mode="lexical")) == []
    assert REPLY in _texts(query(svc, bob, "adoption", mode="lexical"))


def test_a_chunks_window_vector_score_is_the_cosine_with_its_and_the_previous_embedding(
    svc: ServiceHarness, sql: Any
) -> None:
    ctx = svc.make_context()
    session = _turn(svc, ctx, QUESTION)
    _turn(svc, ctx, REPLY, uuid.UUID(session))
    _turn(svc, ctx, "The weather was grey all week.")
    rows = sql(
        "SELECT c.text, c.embedding::text FROM chunk c JOIN turn t"
        " ON t.context_id = c.context_id AND t.id = c.turn_id"
        " WHERE c.context_id = %s ORDER BY t.id",
        (ctx.id,),
    )
    vec = {text: np.array([float(x) for x in e.strip("[]").split(",")]) for text, e in rows}
    probe = np.zeros(len(vec[REPLY]))
    probe[:8] = 1.0
    probe /= np.linalg.norm(probe)

    def cos(v: np.ndarray) -> float:
        return float(v @ probe / np.linalg.norm(v))

    async def scores() -> dict[uuid.UUID, float]:
        who = Reader(ctx.id, ("",), ctx.caller.subject)
        async with svc.services.db.connection() as conn:
            [found] = await run_all(conn, [chunks_vector_window(who, list(probe), 10)])
        return {r["id"]: r["score"] for r in found}

    got = sorted(round(s, 5) for s in svc.run(scores()).values())
    want = sorted(
        round(cos(v), 5)
        for v in (vec[QUESTION], vec[QUESTION] + vec[REPLY], vec["The weather was grey all week."])
    )
    assert got == want
