"""A multi-process deployment for a test module: API processes (`memwarden serve`) and
job workers (`memwarden worker`) started as separate operating-system processes, all at
once, on one fresh database and one data directory, as an operator would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.support.live import free_port
from tests.support.pg import PgCluster
from tests.support.scripted_model import ScriptedModelServer

ADMIN_TOKEN = "test-admin-token-0123456789"
JUDGE_MODEL = "openai:judge-model"


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    url: str | None = None

    def lines(self) -> list[dict]:
        out = []
        for raw in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            if raw.startswith("{"):
                try:
                    out.append(json.loads(raw))
                except json.JSONDecodeError:
                    continue
        return out


@dataclass
class Deployment:
    db_url: str
    scripted: ScriptedModelServer
    env: dict[str, str]
    logs: Path
    apis: list[Process] = field(default_factory=list)
    workers: list[Process] = field(default_factory=list)

    @property
    def processes(self) -> list[Process]:
        return [*self.apis, *self.workers]

    def client(self, i: int, token: str = ADMIN_TOKEN) -> httpx.Client:
        url = self.apis[i % len(self.apis)].url
        assert url is not None
        return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60)


def spawn(name: str, args: list[str], env: dict[str, str], logs: Path) -> Process:
    log = logs / f"{name}.log"
    with log.open("wb") as handle:  # the child keeps its own copy of the descriptor
        popen = subprocess.Popen(
            [sys.executable, "-m", "memwarden", *args], env=env, stdout=handle, stderr=handle
        )
    return Process(name, popen, log)


def wait_healthy(process: Process, deadline: float) -> None:
    assert process.url is not None
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise AssertionError(f"{process.name} exited: {process.log.read_text()[-2000:]}")
        try:
            if httpx.get(process.url + "/health", timeout=2).status_code in (200, 503):
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{process.name} did not answer: {process.log.read_text()[-2000:]}")


def _wait_worker(process: Process, deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise AssertionError(f"{process.name} exited: {process.log.read_text()[-2000:]}")
        if "worker started" in process.log.read_text(errors="replace"):
            return
        time.sleep(0.1)
    raise AssertionError(f"{process.name} did not start: {process.log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def deployment(
    cluster: PgCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    """API processes (no in-process worker) and two workers, started together on an empty
    database, each applying the migrations at start: `api0` is `serve --workers 2` (two
    API processes behind one port, migrated by their parent), `api1` a plain `serve`."""
    name = cluster.create_empty_database()
    db_url = cluster.url_for(name)
    logs = tmp_path_factory.mktemp("deploy-logs")
    data = tmp_path_factory.mktemp("deploy-data")
    with ScriptedModelServer() as scripted:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(sys.path),
            "MEMWARDEN_DATABASE_URL": db_url,
            "MEMWARDEN_ADMIN_TOKEN": ADMIN_TOKEN,
            "MEMWARDEN_DATA_DIR": str(data),  # shared: the workers read the API's uploads
            "MEMWARDEN_OPENAI_BASE_URL": scripted.base_url,
            "MEMWARDEN_MODEL_JUDGE": JUDGE_MODEL,
            "MEMWARDEN_MODEL_TIMEOUT_S": "5",
            "MEMWARDEN_MODEL_MAX_RETRIES": "0",
            "MEMWARDEN_LOG_LEVEL": "INFO",
            "MEMWARDEN_LOG_JSON": "true",
        }
        env.pop("MEMWARDEN_CONFIG_FILE", None)
        deployment = Deployment(db_url, scripted, env, logs)
        for i, extra in enumerate((["--workers", "2"], [])):
            port = free_port()
            args = ["serve", "--no-worker", "--port", str(port), *extra]
            api = spawn(f"api{i}", args, env, logs)
            api.url = f"http://127.0.0.1:{port}"
            deployment.apis.append(api)
        for i in range(2):
            deployment.workers.append(spawn(f"worker{i}", ["worker"], env, logs))
        try:
            deadline = time.monotonic() + 90
            for api in deployment.apis:
                wait_healthy(api, deadline)
            for worker in deployment.workers:
                _wait_worker(worker, deadline)
            yield deployment
        finally:
            for process in deployment.processes:
                process.popen.terminate()
            for process in deployment.processes:
                try:
                    process.popen.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.popen.kill()
                    process.popen.wait()
    cluster.drop_database(name)
