"""`as_of` over HTTP: GET and POST /query, GET /profile and GET /state read as of a moment,
and a bad moment is a 400 naming `as_of`; `memwarden query/profile/state --as-of` read the
same routes. What each moment serves is checked in depth on the use cases
(tests/service/retrieval/test_as_of.py); here, what the routes make of it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from memwarden.cli.main import app
from tests.integration.review.helpers import command, create
from tests.support.live import LiveServer

Sql = Callable[..., list[tuple]]


def moment(sql: Sql) -> str:
    time.sleep(0.01)
    [(now,)] = sql("SELECT clock_timestamp()")
    time.sleep(0.01)
    return now.isoformat()


def written(resp: httpx.Response) -> None:
    assert resp.status_code == 201, resp.text


def texts(resp: httpx.Response, key: str = "hits") -> set[str]:
    assert resp.status_code == 200, resp.text
    return {hit["text"] for hit in resp.json()[key]}


@pytest.fixture
def story(
    live: LiveServer, make_context: Callable[..., dict[str, Any]], make_key: Callable, sql: Sql
) -> dict[str, Any]:
    """alice's and bob's writes in one Context, and the moment after each step."""
    ctx = make_context(subject="alice")
    cid = ctx["id"]
    bob_key = make_key(cid, ["memory_read", "memory_write"], "bob")
    with live.client(ctx["key"]) as alice, live.client(bob_key) as bob:
        at = [moment(sql)]
        written(alice.post(f"/api/v1/{cid}/facts", json={"text": "I live in Oslo."}))
        jazz = {"text": "I love jazz.", "visibility": "private", "scope": ["team/a"]}
        written(alice.post(f"/api/v1/{cid}/facts", json=jazz))
        written(bob.post(f"/api/v1/{cid}/facts", json={"text": "Always answer in French."}))
        note, rev = create(alice, "remember the milk")
        at.append(moment(sql))
        written(alice.post(f"/api/v1/{cid}/facts", json={"text": "I live in Bergen."}))
        assert command(alice, "delete", record_id=note, expected_revision=rev).status_code == 200
        at.append(moment(sql))
    return {"ctx": ctx, "bob": bob_key, "at": at}


def test_get_and_post_query_read_as_of_a_moment(live: LiveServer, story: dict[str, Any]) -> None:
    cid, at = story["ctx"]["id"], story["at"]
    with live.client(story["ctx"]["key"]) as alice:
        url = f"/api/v1/{cid}/query"
        assert texts(alice.get(url, params={"query": "live Oslo", "as_of": at[0]})) == set()
        then = texts(alice.get(url, params={"query": "live Oslo Bergen", "as_of": at[1]}))
        assert "alice lives in Oslo" in then and "alice lives in Bergen" not in then
        body = {"query": "live Oslo Bergen", "as_of": at[2], "mode": "lexical"}
        later = texts(alice.post(url, json=body))
        assert "alice lives in Bergen" in later and "alice lives in Oslo" not in later
        milk = {"query": "remember milk", "kinds": ["note"]}
        assert texts(alice.post(url, json={**milk, "as_of": at[1]})) == {"remember the milk"}
        assert texts(alice.post(url, json={**milk, "as_of": at[2]})) == set()


def test_profile_and_state_read_as_of_a_moment_for_each_principal(
    live: LiveServer, story: dict[str, Any]
) -> None:
    cid, at = story["ctx"]["id"], story["at"]
    with live.client(story["ctx"]["key"]) as alice, live.client(story["bob"]) as bob:
        early = alice.get(f"/api/v1/{cid}/profile", params={"entity": "me", "as_of": at[0]})
        assert early.status_code == 404
        params = {"entity": "me", "as_of": at[1]}
        assert texts(alice.get(f"/api/v1/{cid}/profile", params=params), "relations") == {
            "alice lives in Oslo"
        }
        assert texts(alice.get(f"/api/v1/{cid}/profile", params=params), "attributes") == {
            "alice — loves: jazz"
        }
        bobs = bob.get(f"/api/v1/{cid}/profile", params={"entity": "alice", "as_of": at[1]})
        assert texts(bobs, "attributes") == set()  # alice's jazz is private
        state = f"/api/v1/{cid}/state"
        assert texts(bob.get(state, params={"as_of": at[0]}), "instructions") == set()
        [instruction] = texts(bob.get(state, params={"as_of": at[1]}), "instructions")
        assert "French" in instruction


@pytest.mark.parametrize(
    "value",
    ["yesterday", "2026-01-01T00:00:00", "1700000000", "9" * 65, "future"],
)
def test_a_bad_moment_is_a_400_naming_as_of_on_every_recall_route(
    live: LiveServer, make_context: Callable[..., dict[str, Any]], value: str
) -> None:
    ctx = make_context(subject="alice")
    if value == "future":
        value = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    cid = ctx["id"]
    with live.client(ctx["key"]) as alice:
        answers = [
            alice.get(f"/api/v1/{cid}/query", params={"query": "x", "as_of": value}),
            alice.post(f"/api/v1/{cid}/query", json={"query": "x", "as_of": value}),
            alice.get(f"/api/v1/{cid}/profile", params={"as_of": value}),
            alice.get(f"/api/v1/{cid}/state", params={"as_of": value}),
        ]
    for resp in answers:
        assert resp.status_code == 400, resp.text
        assert resp.json()["error"]["field"] == "as_of", resp.text


def test_the_openapi_documents_as_of_as_a_timestamp(live: LiveServer) -> None:
    with live.client() as anon:
        spec = anon.get("/openapi.json").json()
    params = {
        p["name"]: p for p in spec["paths"]["/api/v1/{context_id}/state"]["get"]["parameters"]
    }
    schema = params["as_of"]["schema"]
    variants = [schema, *schema.get("anyOf", [])]
    assert any(v.get("format") == "date-time" for v in variants), schema
    assert "moment" in params["as_of"]["description"]


def test_the_cli_reads_query_profile_and_state_as_of_a_moment(
    live: LiveServer, story: dict[str, Any]
) -> None:
    cid, at = story["ctx"]["id"], story["at"]

    def cli(key: str, *args: str) -> Any:
        done = CliRunner().invoke(
            app,
            [*args, "--url", live.url, "--context", cid],
            env={"MEMWARDEN_API_KEY": key, "COLUMNS": "200"},
        )
        return done

    def hits(done: Any, *parts: str) -> set[str]:
        assert done.exit_code == 0, done.output
        answer = json.loads(done.stdout)
        return {hit["text"] for part in parts for hit in answer[part]}

    alice, bob = story["ctx"]["key"], story["bob"]
    then = cli(alice, "query", "live Oslo Bergen", "--as-of", at[1], "--json")
    assert hits(then, "hits") >= {"alice lives in Oslo"}
    assert "alice lives in Bergen" not in hits(then, "hits")
    now = hits(cli(alice, "query", "live Oslo Bergen", "--json"), "hits")
    assert "alice lives in Bergen" in now and "alice lives in Oslo" not in now
    table = cli(alice, "query", "live Oslo Bergen", "--as-of", at[1])
    assert table.exit_code == 0 and f"as of {at[1]}" in table.output
    assert "alice lives in Oslo" in table.output and "Bergen" not in table.output.split("'")[-1]
    profile = cli(alice, "profile", "--entity", "me", "--as-of", at[1], "--json")
    assert hits(profile, "relations") == {"alice lives in Oslo"}
    state = cli(bob, "state", "--as-of", at[0], "--json")
    assert hits(state, "instructions") == set()
    [instruction] = hits(cli(bob, "state", "--as-of", at[1], "--json"), "instructions")
    assert "French" in instruction
    refused = cli(alice, "state", "--as-of", "yesterday")
    assert refused.exit_code == 2 and "400" in refused.output and "as_of" in refused.output
