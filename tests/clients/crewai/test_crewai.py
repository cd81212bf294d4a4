"""The CrewAI adapter (memwarden_client.integrations.crewai) against the real crewai package
and a live memwarden: the scenarios run in a venv of their own (tests/clients/crewai/venv.py)
with crewai and the client's dependencies only, while the server runs here.

Importing crewai takes seconds, so one process runs every scenario, each on a Context of
its own (tests/clients/crewai/scenarios.py), and each test below checks one of them; the
quick start runs in a process of its own, unchanged.

Where that venv cannot be built (no package index), these tests skip, unless
MEMWARDEN_REQUIRE_CREWAI=1 (CI's .ci/run, which builds the venv first) makes that a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from memwarden.settings import Settings
from tests.clients.crewai import venv
from tests.conftest import ADMIN_TOKEN, ALL_GRANTS
from tests.support.live import LiveServer
from tests.support.pg import PgCluster

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CLIENT_SRC = ROOT / "clients" / "python" / "src"
EXAMPLE = ROOT / "clients" / "python" / "examples" / "crewai_quickstart.py"
JUDGED = {"judge": {"enabled": True, "on_warn": "hold"}}
# Each scenario and whether its Context has the judge on.
SCENARIOS = {
    "environment": False,
    "memory_round_trip": False,
    "storage_protocol": False,
    "judged": True,
    "wrong_width": False,
}


@dataclass
class World:
    live: LiveServer
    python: Path
    contexts: dict[str, dict[str, str]]  # scenario -> {"id", "key"}
    results: dict[str, dict[str, Any]]  # scenario -> its SCENARIO line

    def seen(self, name: str) -> dict[str, Any]:
        result = self.results.get(name)
        assert result is not None, f"{name} printed nothing"
        assert result["ok"], f"{name} failed in the CrewAI venv:\n{result['error']}"
        return dict(result["seen"])


def _python() -> Path:
    try:
        return venv.ensure()
    except (OSError, subprocess.SubprocessError) as exc:
        message = f"no CrewAI venv could be built: {type(exc).__name__}: {exc}"
        if os.environ.get("MEMWARDEN_REQUIRE_CREWAI") == "1":
            pytest.fail(f"{message} (MEMWARDEN_REQUIRE_CREWAI=1)")
        pytest.skip(message)


def run(python: Path, script: Path, url: str, *args: str, key: str = "") -> str:
    """The script's stdout, run with the CrewAI venv's python and the tree's client."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", ""),
        "PYTHONPATH": str(CLIENT_SRC),
        "MEMWARDEN_URL": url,
        "MEMWARDEN_KEY": key,
        "CREWAI_TRACING_ENABLED": "false",
        "CREWAI_DISABLE_TELEMETRY": "true",
        "OTEL_SDK_DISABLED": "true",
    }
    done = subprocess.run(
        [str(python), str(script), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, f"{script.name} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def context(admin: httpx.Client, name: str, judged: bool) -> dict[str, str]:
    made = admin.post("/api/v1/contexts", json={"name": name})
    assert made.status_code == 201, made.text
    cid = made.json()["id"]
    if judged:
        assert admin.patch(f"/api/v1/contexts/{cid}/config", json=JUDGED).status_code == 200
    body = {"subject": "alice", "grants": ALL_GRANTS}
    issued = admin.post(f"/api/v1/contexts/{cid}/keys", json=body)
    assert issued.status_code == 201, issued.text
    return {"id": cid, "key": issued.json()["key"]}


@pytest.fixture(scope="module")
def world(cluster: PgCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    python = _python()
    name = cluster.create_database()
    settings = Settings(
        database_url=cluster.url_for(name),
        admin_token=ADMIN_TOKEN,
        data_dir=tmp_path_factory.mktemp("crewai"),
    )
    server = LiveServer(settings).start()
    try:
        with server.client(ADMIN_TOKEN) as admin:
            contexts = {s: context(admin, s, judged) for s, judged in SCENARIOS.items()}
        args = [f"{s}={c['key']}" for s, c in contexts.items()]
        out = run(python, HERE / "scenarios.py", server.url, *args)
        lines = [json.loads(x[9:]) for x in out.splitlines() if x.startswith("SCENARIO ")]
        yield World(server, python, contexts, {line["scenario"]: line for line in lines})
    finally:
        server.stop()
        cluster.drop_database(name)


def changes(w: World, scenario: str) -> list[dict[str, Any]]:
    with w.live.client(w.contexts[scenario]["key"]) as client:
        return list(client.get("/api/v1/memory/changes").json()["changes"])


def test_the_crewai_venv_holds_crewai_but_neither_memwarden_nor_its_server_stack(
    world: World,
) -> None:
    seen = world.seen("environment")
    assert seen["crewai"].startswith("1.15.") and seen["present"] == []
    assert Path(seen["client"]) == CLIENT_SRC / "memwarden_client"  # the tree's client


def test_crewais_memory_remembers_recalls_and_forgets_through_memwarden_notes(
    world: World,
) -> None:
    seen = world.seen("memory_round_trip")
    assert seen["recalled"][0] == "Dana leads the platform team at Initech."
    # The forgotten record is a deleted note in memwarden, its history kept.
    feed = changes(world, "memory_round_trip")
    assert [c["entry_type"] for c in feed if c["record_id"] == seen["record_id"]] == [
        "created",
        "deleted",
    ]


def test_every_storage_backend_method_works_as_crewai_calls_it(world: World) -> None:
    seen = world.seen("storage_protocol")
    feed = changes(world, "storage_protocol")
    assert {c["record_id"] for c in feed} >= set(seen["saved"])  # crewai's ids are the notes'


def test_a_judge_refusal_raises_in_crewai_with_reason_codes_and_a_held_record_is_not_served(
    world: World,
) -> None:
    assert world.seen("judged")["reasons"] == ["credential"]
    ctx = world.contexts["judged"]
    with world.live.client(ctx["key"]) as client:
        holds = client.get(f"/api/v1/{ctx['id']}/judgements", params={"held": "true"}).json()
    assert [j["reasons"] for j in holds["judgements"]] == [["personal_data"]]


def test_an_embedder_of_another_width_is_refused_before_anything_is_written(
    world: World,
) -> None:
    assert "384" in world.seen("wrong_width")["message"]
    assert changes(world, "wrong_width") == []


def test_the_crewai_quickstart_runs_unchanged(world: World) -> None:
    with world.live.client(ADMIN_TOKEN) as admin:
        ctx = context(admin, "quickstart", judged=True)
    printed = run(world.python, EXAMPLE, world.live.url, key=ctx["key"]).splitlines()
    out = [line for line in printed if line.startswith(("recalled:", "scopes:", "refused:"))]
    assert out[0] == "recalled: Dana leads the platform team at Initech. (/crew/research)"
    assert "scopes: ['/crew/ops', '/crew/research']" in out
    assert out[-1] == "refused: judge_refused ['credential']"


def test_the_crewai_page_shows_the_quickstart_as_it_is() -> None:
    code = EXAMPLE.read_text(encoding="utf-8")
    page = (ROOT / "docs" / "clients" / "crewai.md").read_text(encoding="utf-8")
    assert f"```python\n{code}```" in page
