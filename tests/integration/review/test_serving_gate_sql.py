"""The SQL serving gate agrees with the pure rule on every combination of states."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from datetime import timedelta

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memwarden.domain.eligibility import (
    MAX_SOURCE_DEPTH,
    SERVING_STATES,
    STORED_DISPOSITIONS,
    RecordState,
    first_blocking,
    is_servable,
    is_servable_with_sources,
)

OFFSETS = (None, timedelta(hours=-1), timedelta(0), timedelta(hours=1))
INSERT = """
INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body, author_subject,
                           serving, review_disposition, expires_at, valid_to, derived_from)
VALUES (%s, %s, 'note', 'alice', '{}', 'x', 'alice', %s, %s, %s, %s, %s)
"""
GATE = """
SELECT id, memory_block_reason(serving, review_disposition, expires_at, valid_to, now()) AS reason,
       memory_servable(context_id, serving, review_disposition, expires_at, valid_to,
                       derived_from, now()) AS servable
FROM memory_record WHERE context_id = %s
"""


@pytest.fixture
def conn(db_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(db_url) as connection:
        yield connection


def _context(conn: psycopg.Connection) -> uuid.UUID:
    cid = uuid.uuid4()
    conn.execute("INSERT INTO context (id, name) VALUES (%s, 'gate')", (cid,))
    return cid


def _at(now, offset):
    return None if offset is None else now + offset


def test_sql_and_pure_gates_agree_on_every_record_state(conn: psycopg.Connection) -> None:
    with conn.transaction(force_rollback=True):
        cid = _context(conn)
        now = conn.execute("SELECT now()").fetchone()[0]
        states: dict[uuid.UUID, RecordState] = {}
        for serving, disposition, exp, valid in itertools.product(
            SERVING_STATES, STORED_DISPOSITIONS, OFFSETS, OFFSETS
        ):
            state = RecordState(serving, disposition, _at(now, exp), _at(now, valid))
            rid = uuid.uuid4()
            states[rid] = state
            conn.execute(
                INSERT,
                (cid, rid, serving, disposition, state.expires_at, state.valid_to, []),
            )
        rows = conn.execute(GATE, (cid,)).fetchall()
    assert len(rows) == len(states) == 240  # 5 serving states (erased among them) x 3 x 4 x 4
    for rid, reason, servable in rows:
        verdict = is_servable(states[rid], now)
        assert (reason, servable) == (verdict.reason, verdict.servable), states[rid]
    assert {r[1] for r in rows} == {
        None,
        *("deleted", "rejected", "held", "superseded", "invalidated", "expired"),
    }


state_strategy = st.tuples(
    st.sampled_from(SERVING_STATES),
    st.sampled_from(STORED_DISPOSITIONS),
    st.sampled_from(OFFSETS),
    st.sampled_from(OFFSETS),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(state_strategy, min_size=1, max_size=6), st.data())
def test_sql_and_pure_gates_agree_on_transitive_sources(
    conn: psycopg.Connection, states: list[tuple], data: st.DataObject
) -> None:
    keys = [uuid.uuid4() for _ in states]
    edges = {k: data.draw(st.lists(st.sampled_from(keys), max_size=3)) for k in keys}
    with conn.transaction(force_rollback=True):
        cid = _context(conn)
        now = conn.execute("SELECT now()").fetchone()[0]
        records = {}
        for rid, (serving, disposition, exp, valid) in zip(keys, states, strict=True):
            records[rid] = RecordState(
                serving, disposition, _at(now, exp), _at(now, valid), tuple(edges[rid])
            )
            conn.execute(
                INSERT,
                (cid, rid, serving, disposition, _at(now, exp), _at(now, valid), edges[rid]),
            )
        rows = conn.execute(GATE, (cid,)).fetchall()
    for rid, _reason, servable in rows:
        assert servable == is_servable_with_sources(rid, records, now)


def test_sql_and_pure_gates_agree_on_the_source_depth_bound(conn: psycopg.Connection) -> None:
    chain = [uuid.uuid4() for _ in range(MAX_SOURCE_DEPTH + 2)]
    for blocked_at in (MAX_SOURCE_DEPTH, MAX_SOURCE_DEPTH + 1):
        with conn.transaction(force_rollback=True):
            cid = _context(conn)
            now = conn.execute("SELECT now()").fetchone()[0]
            records = {}
            for i, rid in enumerate(chain):
                serving = "deleted" if i == blocked_at else "live"
                sources = [chain[i + 1]] if i + 1 < len(chain) else []
                records[rid] = RecordState(serving, derived_from=tuple(sources))
                conn.execute(INSERT, (cid, rid, serving, None, None, None, sources))
            servable = {r[0]: r[2] for r in conn.execute(GATE, (cid,)).fetchall()}
        assert servable[chain[0]] == (first_blocking(chain[0], records, now) is None)
    assert servable[chain[0]] is True  # the deepest blocker is beyond the bound
