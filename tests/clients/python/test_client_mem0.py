"""The mem0-shaped facade against a real server, and the docs' examples (the quick start
and the mem0 migration) run unchanged as programs against a live server."""

from __future__ import annotations

import ast
import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memwarden_client import AsyncMemwarden, JudgeRefused, Memwarden, MemwardenAdmin
from memwarden_client.mem0 import AsyncMemory, Memory

from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer

ROOT = Path(__file__).resolve().parents[3]
CLIENT_SRC = ROOT / "clients" / "python" / "src"


def run_example(name: str, live: LiveServer, ctx: dict[str, Any]) -> str:
    env = {
        **os.environ,
        "PYTHONPATH": str(CLIENT_SRC),
        "MEMWARDEN_URL": live.url,
        "MEMWARDEN_KEY": ctx["key"],
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "clients" / "python" / "examples" / name)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_mem0_migration_example_runs_unchanged(live: LiveServer, ctx: dict[str, Any]) -> None:
    out = run_example("mem0_migration.py", live, ctx).splitlines()
    assert "added: ADD Alex lives in Lisbon" in out
    assert "get: Alex lives in Lisbon" in out
    assert "update: Memory updated successfully!" in out
    assert "history: ['ADD', 'UPDATE']" in out
    (now,) = [ast.literal_eval(line[len("now: ") :]) for line in out if line.startswith("now:")]
    assert now[0] == "Alex lives in Porto"  # the update is the newest
    assert sorted(now[1:]) == ["Alex — loves: basketball", "Alex — name: Alex"]
    assert out[-1] == "after delete_all: []"
    assert not any("bot" in line or "online" in line for line in out)  # the assistant's "I"


def test_each_user_id_is_its_own_scope_and_a_run_keeps_one_session(mw: Memwarden) -> None:
    memory = Memory(mw)
    memory.add("I love jazz.", user_id="alice", run_id="r1")
    memory.add([{"role": "user", "content": "I live in Porto."}], user_id="alice", run_id="r1")
    memory.add("I love opera.", user_id="bob")
    assert list(memory.sessions) == ["r1"]
    turns = {hit.source.ref for hit in mw.query("jazz Porto", scope="user/alice").hits}
    assert len(turns) == 2
    alice = [r["memory"] for r in memory.search("What does she love?", user_id="alice")["results"]]
    bob = [r["memory"] for r in memory.get_all(user_id="bob")["results"]]
    assert any("jazz" in text for text in alice) and not any("opera" in t for t in alice)
    assert bob and all("bob" in text for text in bob)
    with pytest.raises(ValueError, match="user_id"):
        memory.add("I love tango.")
    with pytest.raises(ValueError, match="metadata"):
        memory.search("jazz", user_id="alice", filters={"category": "music"})
    with pytest.warns(UserWarning, match="metadata"):
        memory.add("I love blues.", user_id="alice", metadata={"category": "music"})


def test_an_add_without_inference_stores_the_turn_and_get_of_a_deleted_memory_is_none(
    mw: Memwarden,
) -> None:
    memory = Memory(mw)
    (raw,) = memory.add("Remember the blue door.", user_id="alice", infer=False)["results"]
    assert raw["kind"] == "turn" and raw["memory"] == "Remember the blue door."
    assert [h.kind for h in mw.query("blue door", scope="user/alice").hits] == ["chunk"]
    results = memory.add("I love jazz.", user_id="alice")["results"]
    fact = next(r for r in results if "jazz" in r["memory"])
    assert memory.get(fact["id"])["user_id"] == "alice"
    assert memory.delete(fact["id"]) == {"message": "Memory deleted successfully!"}
    assert memory.get(fact["id"]) is None
    assert [e["event"] for e in memory.history(fact["id"])] == ["ADD", "DELETE"]


def test_a_note_is_updated_in_place_at_its_revision(mw: Memwarden) -> None:
    memory = Memory(mw)
    note = mw.memory.commands({"op": "create", "content": "Green tea."})
    assert memory.update(note.record_id, "Black tea.")["message"].startswith("Memory updated")
    after = memory.get(note.record_id)
    assert after is not None and after["memory"] == "Black tea." and after["revision"] == 2


def test_the_async_facade_adds_and_searches(live: LiveServer, ctx: dict[str, Any]) -> None:
    async def scenario() -> list[str]:
        async with AsyncMemwarden(live.url, ctx["key"]) as client:  # no context_id
            memory = AsyncMemory(client)
            await memory.add("I love jazz.", user_id="alice", run_id="r1")
            found = await memory.search("jazz", user_id="alice")
            await memory.delete_all(user_id="alice")
            left = await memory.get_all(user_id="alice")
            assert left["results"] == []
            return [r["memory"] for r in found["results"]]

    assert any("jazz" in text for text in asyncio.run(scenario()))


def test_the_quickstart_example_runs_unchanged(live_with: Callable[..., LiveServer]) -> None:
    working = live_with(run_worker=True)
    with MemwardenAdmin(working.url, ADMIN_TOKEN) as admin:
        created = admin.contexts.create("quickstart", owner_subject="alice")
    assert created.owner_key is not None
    ctx = {"id": created.id, "key": created.owner_key.key}
    out = run_example("quickstart.py", working, ctx).splitlines()
    assert "held: False chunk only: False" in out
    assert any(line.startswith("recalled:") and "green tea" in line for line in out)
    assert "refused: 400 invalid_request limit" in out
    assert "document: processed" in out
    assert out[-1].startswith("done:") and any(line.startswith("token:") for line in out)


def test_a_held_add_says_held_and_a_refused_one_raises_with_reason_codes(mw: Memwarden) -> None:
    memory = Memory(mw)
    mw.config.patch({"judge": {"enabled": True, "on_warn": "hold"}})
    (held,) = memory.add("Mail me at alex@example.com.", user_id="alex")["results"]
    assert held["event"] == "HELD"
    with pytest.raises(JudgeRefused) as refused:
        memory.add([{"role": "user", "content": "My card is 4111 1111 1111 1111."}], user_id="a")
    assert refused.value.reasons == ["payment_card"]
