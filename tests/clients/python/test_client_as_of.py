"""The Python client's `as_of` on query, profile and state against a real server: a datetime
or ISO text is sent as the server reads it, and a naive moment comes back as InvalidRequest
naming `as_of`."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from memwarden_client import InvalidRequest, Memwarden


def moment() -> datetime:
    time.sleep(0.02)
    now = datetime.now(UTC)
    time.sleep(0.02)
    return now


def test_query_profile_and_state_read_as_of_a_moment(mw: Memwarden) -> None:
    before = moment()
    mw.remember("I live in Oslo. Always answer in French.")
    then = moment()
    mw.remember("I live in Bergen.")
    assert mw.query("live Oslo Bergen", as_of=before).hits == []
    hits = {h.text for h in mw.query("live Oslo Bergen", mode="lexical", as_of=then).hits}
    assert "alice lives in Oslo" in hits and "alice lives in Bergen" not in hits
    now = {h.text for h in mw.query("live Oslo Bergen", mode="lexical").hits}
    assert "alice lives in Bergen" in now and "alice lives in Oslo" not in now
    relations = mw.profile("me", as_of=then.isoformat()).relations
    assert {r.text for r in relations} == {"alice lives in Oslo"}
    assert mw.state(as_of=before).instructions == []
    assert "French" in str(mw.state(as_of=then).instructions)


def test_a_naive_moment_is_refused_naming_as_of(mw: Memwarden) -> None:
    with pytest.raises(InvalidRequest) as raised:
        mw.state(as_of=datetime(2026, 1, 1))
    assert raised.value.status == 400 and raised.value.field == "as_of"
