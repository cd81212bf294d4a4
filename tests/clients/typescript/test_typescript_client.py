"""The TypeScript client (clients/typescript) against a real server: node's own test runner
drives its tests at live servers, and its generated types must match the server's OpenAPI.

Node and npm are needed. Without them these tests skip, except where
MEMWARDEN_REQUIRE_NODE=1 (CI's .ci/run) turns the skip into a failure.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

CLIENT = Path(__file__).resolve().parents[3] / "clients" / "typescript"
STAMP = CLIENT / "node_modules" / ".memwarden-lock-sha256"
# The busy server's chat model answers after this long: the time a Context's only slot
# is held while the retry test sends its requests.
SLOW_CHAT_S = 2.0
# A Context whose chat model is `broken-model` gets one token, then a stream it cannot read:
# the chat stream's `error` event after it started.
_FIRST_CHUNK = {
    "id": "chatcmpl-broken",
    "object": "chat.completion.chunk",
    "created": 0,
    "model": "broken-model",
    "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}}],
}
BROKEN_STREAM = f"data: {json.dumps(_FIRST_CHUNK)}\n\ndata: {{not json\n\n"
EVENT_STREAM = {"content-type": "text/event-stream"}


def _tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node and npm:
        return node, npm
    message = "node and npm are needed for the TypeScript client's tests"
    if os.environ.get("MEMWARDEN_REQUIRE_NODE") == "1":
        pytest.fail(f"{message} (MEMWARDEN_REQUIRE_NODE=1)")
    pytest.skip(message)


def _run(args: list[str], timeout: float, env: dict[str, str] | None = None) -> str:
    """Run a command in clients/typescript; fails with its output unless it exits 0."""
    done = subprocess.run(
        args,
        cwd=CLIENT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(args)} failed ({done.returncode}):\n{output}"
    return output


@pytest.fixture(scope="session")
def npm_installed() -> str:
    """`npm ci`, skipped while node_modules was installed from this package-lock.json."""
    node, npm = _tools()
    lock = hashlib.sha256((CLIENT / "package-lock.json").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != lock:
        _run([npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], 300)
        STAMP.write_text(lock)
    return node


def _newest_source() -> float:
    sources = [*(CLIENT / "src").glob("*.ts"), CLIENT / "package.json", CLIENT / "tsconfig.json"]
    return max(path.stat().st_mtime for path in sources)


@pytest.fixture(scope="session")
def built(npm_installed: str) -> str:
    """The client compiled to dist/ by `npm run build` (tsc), unless dist/ is newer than
    every source (CI always builds: its checkout has no dist/)."""
    _, npm = _tools()
    stamp = CLIENT / "dist" / ".memwarden-built"
    if not stamp.exists() or stamp.stat().st_mtime < _newest_source():
        _run([npm, "run", "--silent", "build"], timeout=120)
        stamp.touch()
    return npm_installed


@pytest.fixture
def servers(
    live_with: Callable[..., LiveServer], scripted: ScriptedModelServer
) -> tuple[LiveServer, LiveServer]:
    """The offline server with a worker (documents get processed), and a second one on the
    same database whose Contexts may have one request in flight and whose chat is slow (or
    broken, for a Context that chooses `broken-model`)."""
    main = live_with(run_worker=True)
    scripted.respond_with("chat-model", Reply.text("a slow answer").after(SLOW_CHAT_S))
    scripted.respond_with("broken-model", Reply.raw(BROKEN_STREAM, headers=EVENT_STREAM))
    busy = live_with(
        context_max_in_flight=1,
        **scripted_models(scripted, model_chat="openai:chat-model", model_timeout_s=10.0),
    )
    return main, busy


def test_the_node_tests_of_the_typescript_client_pass_against_a_live_server(
    built: str, servers: tuple[LiveServer, LiveServer]
) -> None:
    main, busy = servers
    with main.client(ADMIN_TOKEN) as admin:
        created = admin.post("/api/v1/contexts", json={"name": "ts", "owner_subject": "alice"})
    assert created.status_code == 201, created.text
    env = {
        "MEMWARDEN_URL": main.url,
        "MEMWARDEN_BUSY_URL": busy.url,
        "MEMWARDEN_KEY": created.json()["owner_key"]["key"],
        "MEMWARDEN_CONTEXT": created.json()["id"],
        "MEMWARDEN_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    # Named one by one: node 20 takes no globs, and later versions read a bare directory
    # argument as a pattern.
    files = sorted(str(path.relative_to(CLIENT)) for path in (CLIENT / "test").glob("*.test.mjs"))
    assert len(files) >= 8, files
    _run([built, "--test", "--test-reporter=spec", *files], timeout=240, env=env)


def test_the_generated_types_match_the_servers_openapi(
    npm_installed: str, live: LiveServer, tmp_path: Path
) -> None:
    document = tmp_path / "openapi.json"
    document.write_bytes(httpx.get(f"{live.url}/openapi.json", timeout=30).content)
    regenerated = tmp_path / "schema.d.ts"
    _run(
        [npm_installed, "scripts/generate.mjs", str(document), "--out", str(regenerated)],
        timeout=120,
    )
    committed = (CLIENT / "src" / "schema.d.ts").read_text().splitlines(keepends=True)
    difference = "".join(
        difflib.unified_diff(committed, regenerated.read_text().splitlines(keepends=True), n=2)
    )
    assert not difference, (
        "clients/typescript/src/schema.d.ts differs from the server's /openapi.json: run "
        "`npm run generate -- --app` in clients/typescript and commit it\n" + difference[:6000]
    )


def test_the_quick_start_in_the_docs_is_the_example_the_node_tests_run() -> None:
    example = (CLIENT / "examples" / "quickstart.mjs").read_text().strip()
    doc = (CLIENT.parents[1] / "docs" / "clients" / "typescript.md").read_text()
    assert f"```js\n{example}\n```" in doc
