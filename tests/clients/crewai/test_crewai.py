"""The CrewAI adapter (memwarden_client.integrations.crewai) against the real crewai package
and a live memwarden: the scenarios run in a venv of their own (tests/clients/crewai/venv.py)
with crewai and the client's dependencies only, while the server runs here.

Where that venv cannot be built (no package index), these tests skip, unless
MEMWARDEN_REQUIRE_CREWAI=1 (CI's .ci/run, which builds the venv first) makes that a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.clients.crewai import venv
from tests.support.live import LiveServer

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CLIENT_SRC = ROOT / "clients" / "python" / "src"
EXAMPLE = ROOT / "clients" / "python" / "examples" / "crewai_quickstart.py"


@pytest.fixture(scope="session")
def crewai_python() -> Path:
    try:
        return venv.ensure()
    except (OSError, subprocess.SubprocessError) as exc:
        message = f"no CrewAI venv could be built: {type(exc).__name__}: {exc}"
        if os.environ.get("MEMWARDEN_REQUIRE_CREWAI") == "1":
            pytest.fail(f"{message} (MEMWARDEN_REQUIRE_CREWAI=1)")
        pytest.skip(message)


def run(python: Path, script: Path, live: LiveServer, key: str, *args: str) -> str:
    """The script's stdout, run with the CrewAI venv's python and the tree's client."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", ""),
        "PYTHONPATH": str(CLIENT_SRC),
        "MEMWARDEN_URL": live.url,
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
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, f"{script.name} {args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def scenario(python: Path, live: LiveServer, key: str, name: str) -> dict[str, Any]:
    out = run(python, HERE / "scenarios.py", live, key, name)
    return dict(json.loads(out.strip().splitlines()[-1]))


def _judged(admin: httpx.Client, ctx: dict[str, Any]) -> None:
    patch = {"judge": {"enabled": True, "on_warn": "hold"}}
    resp = admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json=patch)
    assert resp.status_code == 200, resp.text


def test_the_crewai_venv_holds_crewai_but_neither_memwarden_nor_its_server_stack(
    crewai_python: Path,
) -> None:
    code = (
        "import importlib.util as u, crewai, pydantic, httpx;"
        "print(crewai.__version__, [m for m in ('memwarden', 'memwarden_client', 'psycopg')"
        " if u.find_spec(m)])"
    )
    done = subprocess.run(
        [str(crewai_python), "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    version, missing = done.stdout.split(" ", 1)
    assert version.startswith("1.15.") and missing.strip() == "[]"


def test_crewais_memory_remembers_recalls_and_forgets_through_memwarden_notes(
    crewai_python: Path, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context("crewai")
    seen = scenario(crewai_python, live, ctx["key"], "memory_round_trip")
    assert seen["recalled"][0] == "Dana leads the platform team at Initech."
    # The forgotten record is a deleted note in memwarden, its history kept.
    with live.client(ctx["key"]) as client:
        feed = client.get("/api/v1/memory/changes").json()["changes"]
    mine = [c["entry_type"] for c in feed if c["record_id"] == seen["record_id"]]
    assert mine == ["created", "deleted"]


def test_every_storage_backend_method_works_as_crewai_calls_it(
    crewai_python: Path, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context("crewai-storage")
    seen = scenario(crewai_python, live, ctx["key"], "storage_protocol")
    with live.client(ctx["key"]) as client:
        feed = client.get("/api/v1/memory/changes").json()["changes"]
    assert {c["record_id"] for c in feed} >= set(seen["saved"])  # crewai's ids are the notes'


def test_a_judge_refusal_raises_in_crewai_with_reason_codes_and_a_held_record_is_not_served(
    crewai_python: Path,
    live: LiveServer,
    admin: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
) -> None:
    ctx = make_context("crewai-judged")
    _judged(admin, ctx)
    seen = scenario(crewai_python, live, ctx["key"], "judged")
    assert seen["reasons"] == ["credential"]
    held = admin.get(f"/api/v1/{ctx['id']}/judgements", params={"held": "true"})
    assert held.status_code == 403  # the admin token reads no judgements: use the key
    with live.client(ctx["key"]) as client:
        holds = client.get(f"/api/v1/{ctx['id']}/judgements", params={"held": "true"}).json()
    assert [j["reasons"] for j in holds["judgements"]] == [["personal_data"]]


def test_an_embedder_of_another_width_is_refused_before_anything_is_written(
    crewai_python: Path, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context("crewai-width")
    assert "384" in scenario(crewai_python, live, ctx["key"], "wrong_width")["message"]


def test_the_crewai_quickstart_runs_unchanged(
    crewai_python: Path,
    live: LiveServer,
    admin: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
) -> None:
    ctx = make_context("crewai-quickstart")
    _judged(admin, ctx)
    printed = run(crewai_python, EXAMPLE, live, ctx["key"]).splitlines()
    out = [line for line in printed if line.startswith(("recalled:", "scopes:", "refused:"))]
    assert out[0] == "recalled: Dana leads the platform team at Initech. (/crew/research)"
    assert "scopes: ['/crew/ops', '/crew/research']" in out
    assert out[-1] == "refused: judge_refused ['credential']"


def test_the_crewai_page_shows_the_quickstart_as_it_is() -> None:
    code = EXAMPLE.read_text(encoding="utf-8")
    page = (ROOT / "docs" / "clients" / "crewai.md").read_text(encoding="utf-8")
    assert f"```python\n{code}```" in page
