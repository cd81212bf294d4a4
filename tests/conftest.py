"""Shared fixtures: a real PostgreSQL per session, a database per test, and on it either
Services to call use cases directly (the service tier) or a live HTTP server (acceptance)."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from hypothesis import settings as hypothesis_settings

from memwarden.logging_setup import configure_logging
from memwarden.models.openai_compat import OpenAICompatProvider
from memwarden.settings import Settings
from tests.support.live import LiveServer
from tests.support.pg import PgCluster
from tests.support.scripted_model import RecordingSink, ScriptedModelServer
from tests.support.services import ServiceHarness
from tests.support.tool_schemas import install as reuse_tool_schemas

# Property tests assert properties, not speed: hypothesis's default 200 ms deadline per
# example turns a busy CI machine into a failure (seen: chunking a large drawn document).
hypothesis_settings.register_profile("memwarden", deadline=None)
hypothesis_settings.load_profile("memwarden")
# Each live server's MCP tools reuse the schemas the first one derived (tests/support).
reuse_tool_schemas()
# A pytest-xdist worker starts with COLUMNS=80 and LINES=24 where the run had neither: a
# rich console made when the CLI is imported would then keep 80 columns whatever COLUMNS
# a test gives its CLI call. Workers drop that pair, as a serial run never had it.
if os.environ.get("PYTEST_XDIST_WORKER") and (
    os.environ.get("COLUMNS"),
    os.environ.get("LINES"),
) == ("80", "24"):
    del os.environ["COLUMNS"], os.environ["LINES"]

ADMIN_TOKEN = "test-admin-token-0123456789"
ALL_GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]
HERE = "tests"  # the node id prefix of this conftest's fixtures
GROUP_SIZE = 100  # tests sharing a module fixture, at most, sent to one xdist worker at once


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """`pytest -n N` distributes by xdist_group (`--dist loadgroup`, see
    pytest_collection_modifyitems) unless another `--dist` mode than load is asked for."""
    option = config.option
    if getattr(option, "numprocesses", None) and getattr(option, "dist", None) in ("no", "load"):
        option.dist = "loadgroup"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Each xdist worker is told that the run is grouped: a worker parses the command line
    again, where `-n` alone means no grouping, and names no test's group to the scheduler
    unless its own `loadgroup` option is set (pytest_configure below)."""
    if node.config.option.dist == "loadgroup":
        node.workerinput["memwarden_loadgroup"] = True


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", {}).get("memwarden_loadgroup"):
        config.option.loadgroup = True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, tests that share a fixture wider than one test (a module's
    browser or deployment, a session's npm install) run on one worker, so it is built
    once; every other test goes to whichever worker is free. The session-wide fixtures
    of this file (the PostgreSQL cluster) are meant per worker and group nothing.

    First of the hooks: each xdist worker names a test's group to the scheduler in its own
    pytest_collection_modifyitems (the `@group` suffix of the node id), which would
    otherwise run before this one and find no marker. Without that suffix (or without the
    worker's `loadgroup` option) no test is grouped, and a module's fixture is built again
    on each worker its tests reach."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    sizes: dict[str, int] = {}
    for item in items:
        group, whole = _shared_fixture_group(item)
        if group is None:
            continue
        if not whole:
            # A module of hundreds of tests on one server (the auth matrix) would keep
            # one worker busy long after the others finish: it goes out in runs of
            # GROUP_SIZE consecutive tests, each run building the module's fixture once.
            seen = sizes.get(group, 0)
            sizes[group] = seen + 1
            group = f"{group}#{seen // GROUP_SIZE}"
        item.add_marker(pytest.mark.xdist_group(group))
        if getattr(config.option, "loadgroup", False):  # set on xdist's workers only
            _name_group(item, group)


def _name_group(item: pytest.Item, group: str) -> None:
    """The `@group` suffix xdist's scheduler groups by, on pytest's structured node ids
    (pytest 9.2): xdist still writes it to `_nodeid`, which pytest no longer reads, so
    that nothing was grouped (pytest-xdist issue #1386, fix in review as #1388). With an
    older pytest xdist's own suffix takes, and a second one from a fixed xdist would name
    the same group (its scheduler reads the last `@`)."""
    node_id = getattr(item, "_id", None)
    if node_id is None:
        return
    item._id = type(node_id).parse(f"{item.nodeid}@{group}")


def _shared_fixture_group(item: pytest.Item) -> tuple[str | None, bool]:
    """The group of a test that uses a fixture wider than one test, and whether the group
    must stay whole: a session fixture (an npm install into the checkout, say) must be
    built by one worker only."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None, False
    group = None
    for defs in info.name2fixturedefs.values():
        for fixture in defs:
            where = fixture.baseid
            if fixture.scope == "function" or where in ("", HERE):
                continue  # per test, or pytest's own, or this file's per-worker ones
            if fixture.scope in ("session", "package"):
                return where, True
            group = item.nodeid.split("::", 1)[0]
    return group, False


@pytest.fixture(scope="session", autouse=True)
def _structured_logs() -> None:
    configure_logging("INFO", json=True)


@pytest.fixture(autouse=True)
def _logs_as_served() -> None:
    """Every test starts with the logging a served process has: a test before it in the same
    worker may have raised the level, swapped structlog's chain or disabled loggers (a
    benchmark module a test imports configures WARNING on import: benchmarks/_harness.py),
    and the tests that read log lines would then see none."""
    configure_logging("INFO", json=True)
    logging.disable(logging.NOTSET)
    for logger in list(logging.root.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger) and logger.disabled:
            logger.disabled = False


@pytest.fixture(scope="session")
def cluster() -> Iterator[PgCluster]:
    # Not under pytest's basetemp: pytest keeps that 0700, and as root pgserver runs
    # PostgreSQL as its own user, which must traverse the path.
    # Under pytest-xdist each worker (gw0, gw1, ...) runs its own server in its own
    # directory, with its own template.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    given = os.environ.get("MEMWARDEN_TEST_PGDIR")
    if given:
        workdir = Path(given) / worker if worker else Path(given)
        workdir.mkdir(parents=True, exist_ok=True)
    else:
        workdir = Path(tempfile.mkdtemp(prefix=f"memwarden-test-pg-{worker}"))
    workdir.chmod(0o755)
    cluster = PgCluster(workdir, suffix=worker)
    yield cluster
    cluster.close()
    if not given:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def db_url(cluster: PgCluster) -> Iterator[str]:
    name = cluster.create_database()
    yield cluster.url_for(name)
    cluster.drop_database(name)


@pytest.fixture
def settings(db_url: str, tmp_path: Path) -> Settings:
    return Settings(
        database_url=db_url,
        admin_token=ADMIN_TOKEN,
        data_dir=tmp_path / "data",
        log_json=True,
        # A loaded CI machine can keep a request waiting for a connection for seconds;
        # the tests of the connection budget set their own (tests/integration/deploy).
        pool_timeout_s=30.0,
    )


@pytest.fixture
def live_with(settings: Settings) -> Iterator[Callable[..., LiveServer]]:
    """live_with(run_worker=False, gatekeeper=None, **changes): a started server on the
    test's database with those settings changed; every one is stopped after the test."""
    started: list[LiveServer] = []

    def start(*, run_worker: bool = False, gatekeeper: Any = None, **changes: Any) -> LiveServer:
        server = LiveServer(settings.model_copy(update=changes), run_worker=run_worker)
        if gatekeeper is not None:
            server.services.gatekeeper = gatekeeper
        started.append(server)
        return server.start()

    yield start
    for server in reversed(started):
        server.stop()


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    """The server most acceptance tests use: the offline defaults."""
    return live_with()


@pytest.fixture
def services_with(settings: Settings) -> Iterator[Callable[..., ServiceHarness]]:
    """services_with(**changes): Services on the test's database with those settings
    changed, and an event loop to call use cases in (tests/support/services.py)."""
    built: list[ServiceHarness] = []

    def build(*, gatekeeper: Any = None, **changes: Any) -> ServiceHarness:
        harness = ServiceHarness(settings.model_copy(update=changes))
        if gatekeeper is not None:
            harness.services.gatekeeper = gatekeeper
        built.append(harness)
        return harness

    yield build
    for harness in reversed(built):
        harness.close()


@pytest.fixture
def admin(live: LiveServer) -> Iterator[httpx.Client]:
    with live.client(ADMIN_TOKEN) as client:
        yield client


@pytest.fixture
def anon(live: LiveServer) -> Iterator[httpx.Client]:
    with live.client() as client:
        yield client


@pytest.fixture
def make_context(admin: httpx.Client) -> Callable[..., dict[str, Any]]:
    """Create a Context and one key; returns {"id", "key", "key_id"}."""

    def make(name: str = "ctx", grants: list[str] | None = None, **key: Any) -> dict[str, Any]:
        ctx = admin.post("/api/v1/contexts", json={"name": name})
        assert ctx.status_code == 201, ctx.text
        cid = ctx.json()["id"]
        body = {"subject": key.pop("subject", "alice"), "grants": grants or ALL_GRANTS, **key}
        issued = admin.post(f"/api/v1/contexts/{cid}/keys", json=body)
        assert issued.status_code == 201, issued.text
        return {"id": cid, "key": issued.json()["key"], "key_id": issued.json()["id"]}

    return make


@pytest.fixture
def scripted() -> Iterator[ScriptedModelServer]:
    """A scripted OpenAI-compatible model server on 127.0.0.1 (tests/support)."""
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def sink() -> RecordingSink:
    return RecordingSink()


@pytest.fixture
def make_provider(scripted: ScriptedModelServer) -> Callable[..., OpenAICompatProvider]:
    def make(model: str = "test-model", **kwargs: Any) -> OpenAICompatProvider:
        kwargs.setdefault("timeout_s", 5.0)
        kwargs.setdefault("max_retries", 2)
        return OpenAICompatProvider(model, base_url=scripted.base_url, api_key="k", **kwargs)

    return make


@pytest.fixture
def make_key(admin: httpx.Client) -> Callable[..., str]:
    def make(context_id: str, grants: list[str], subject: str = "bob", **extra: Any) -> str:
        issued = admin.post(
            f"/api/v1/contexts/{context_id}/keys",
            json={"subject": subject, "grants": grants, **extra},
        )
        assert issued.status_code == 201, issued.text
        return issued.json()["key"]

    return make


@pytest.fixture
def sql(db_url: str) -> Iterator[Callable[..., list[tuple]]]:
    """Run SQL directly against the test's database (to check rows, or set up states the
    API cannot)."""
    with psycopg.connect(db_url, autocommit=True) as conn:

        def run(query: str, params: Any = None) -> list[tuple]:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else []

        yield run
