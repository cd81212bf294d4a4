"""Export and import over HTTP, the CLI and MCP, against a live server whose worker runs
the import jobs: the stream, who may ask, the body limit at its edge, and a file exported
by `memwarden export` read back by `memwarden import` (issue 25)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from memwarden.cli.main import app
from memwarden.limits import IMPORT_BODY_LIMIT
from tests.conftest import ADMIN_TOKEN
from tests.integration.mcp.conftest import http_session, run
from tests.integration.mcp.helpers import error, ok
from tests.support.live import LiveServer

runner = CliRunner()
HEADER = {"kind": "header", "format": "memwarden-export", "version": 1}


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    return live_with(run_worker=True)


def _lines(resp: httpx.Response) -> list[dict[str, Any]]:
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in resp.text.splitlines()]


def _wait(client: httpx.Client, cid: str, import_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        body: dict[str, Any] = client.get(f"/api/v1/{cid}/imports/{import_id}").json()
        if body["status"] in ("done", "failed") or time.monotonic() > deadline:
            return body
        time.sleep(0.2)


def test_an_export_streams_a_header_the_records_and_an_end_line_with_the_counts(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as c:
        assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I like tea."}).status_code == 201
        lines = _lines(c.get(f"/api/v1/{ctx['id']}/export", params={"sessions": "true"}))
    assert lines[0]["kind"] == "header" and lines[0]["version"] == 1
    assert lines[-1]["kind"] == "end"
    kinds = [line["kind"] for line in lines[1:-1]]
    assert lines[-1]["counts"] == {k: kinds.count(k) for k in set(kinds)}
    assert {"record", "session", "turn"} <= set(kinds)
    turn = next(line for line in lines if line["kind"] == "turn")
    assert turn["text"] == "I like tea." and turn["chunks"]


def test_another_subject_keys_and_judgements_need_grant_manage_and_the_admin_token_none(
    live: LiveServer,
    make_context: Callable[..., dict[str, Any]],
    make_key: Callable[..., str],
) -> None:
    ctx = make_context()
    reader = make_key(ctx["id"], ["memory_read"], subject="bob")
    route = f"/api/v1/{ctx['id']}/export"
    with live.client(reader) as c:
        assert c.get(route, params={"subject": "bob"}).status_code == 200
        for params in ({"subject": "alice"}, {"include": "keys"}, {"include": "judgements"}):
            resp = c.get(route, params=params)
            assert resp.status_code == 403 and resp.json()["error"]["code"] == "missing_grant"
    with live.client(ADMIN_TOKEN) as admin:
        assert admin.get(route).status_code == 403
    with live.client(ctx["key"]) as c:
        lines = _lines(c.get(route, params=[("include", "keys"), ("include", "judgements")]))
    principals = [line for line in lines if line["kind"] == "principal"]
    assert {p["subject"] for p in principals} == {"alice", "bob"}
    text = json.dumps(principals)
    assert "secret" not in text and ctx["key"] not in text and reader not in text


def test_an_import_body_of_the_limit_is_read_and_one_byte_more_is_413(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context()
    head = (json.dumps(HEADER) + "\n").encode()
    at_limit = head + b" " * (IMPORT_BODY_LIMIT - len(head))
    route = f"/api/v1/{ctx['id']}/imports"
    with live.client(ctx["key"]) as c:
        read = c.post(route, params={"source_dir": "/src"}, content=at_limit)
        over = c.post(route, params={"source_dir": "/src"}, content=at_limit + b" ")
    assert read.status_code == 400 and "no items" in read.json()["error"]["message"]
    assert over.status_code == 413 and over.json()["error"]["code"] == "payload_too_large"


def test_an_import_over_http_is_a_job_whose_counts_and_progress_read_back(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context()
    body = "\n".join(json.dumps({"id": str(n), "text": f"I like game {n}."}) for n in range(3))
    with live.client(ctx["key"]) as c:
        started = c.post(
            f"/api/v1/{ctx['id']}/imports",
            params={"source_dir": "/src/games", "format": "texts"},
            content=body,
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert started.status_code == 202, started.text
        assert started.json()["total"] == 3 and started.json()["status"] == "queued"
        done = _wait(c, ctx["id"], started.json()["importId"])
        missing = c.post(f"/api/v1/{ctx['id']}/imports", content=body)
    assert done["status"] == "done" and done["processed"] == 3
    assert done["counts"]["imported"] == 3 and done["sourceDir"] == "/src/games"
    assert missing.status_code == 400 and missing.json()["error"]["field"] == "source_dir"


def test_memwarden_export_writes_a_file_that_memwarden_import_reads_into_another_context(
    live: LiveServer, make_context: Callable[..., dict[str, Any]], tmp_path: Path
) -> None:
    source, target = make_context("source"), make_context("target")
    with live.client(source["key"]) as c:
        assert c.post(f"/api/v1/{source['id']}/facts", json={"text": "I like tea."}).is_success
    out = tmp_path / "export.jsonl"

    def cli(ctx: dict[str, Any], *args: str) -> Any:
        return runner.invoke(
            app,
            [*args, "--url", live.url, "--context", ctx["id"]],
            env={"MEMWARDEN_API_KEY": ctx["key"]},
        )

    exported = cli(source, "export", "--out", str(out), "--sessions")
    assert exported.exit_code == 0, exported.output
    assert "exported" in exported.output
    assert json.loads(out.read_text().splitlines()[-1])["kind"] == "end"
    imported = cli(target, "import", str(out), "--source", "/src/old")
    assert imported.exit_code == 0, imported.output
    assert "imported:" in imported.output and "0 refused" in imported.output
    with live.client(target["key"]) as c:
        hits = c.get(f"/api/v1/{target['id']}/query", params={"query": "tea"}).json()["hits"]
    assert any("tea" in h["text"] for h in hits)


def test_the_mcp_export_subject_tool_answers_the_keys_own_subject_and_refuses_another(
    live: LiveServer,
    make_context: Callable[..., dict[str, Any]],
    make_key: Callable[..., str],
) -> None:
    ctx = make_context()
    reader = make_key(ctx["id"], ["memory_read", "memory_write"], subject="bob")
    with live.client(reader) as c:
        assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I like chess."}).is_success

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with http_session(live.url, reader) as client:
            own = ok(await client.call_tool("export_subject", {"subject": "bob"}))
            other = error(await client.call_tool("export_subject", {"subject": "alice"}))
        return own, other

    own, other = run(scenario())
    assert own["truncated"] is False and own["lines"][0]["kind"] == "header"
    assert any(line.get("body", "").startswith("bob") for line in own["lines"])
    assert other["code"] == "missing_grant"
