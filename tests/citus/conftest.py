"""The Citus tier: one cluster (a coordinator and two workers on loopback) per session,
one migrated database on it, and the root conftest's fixtures (`live`, `admin`,
`make_context`, `sql`, ...) pointed at its coordinator by overriding `db_url`.

Building a distributed schema takes tens of seconds, so it is built once, as a template,
and each test gets a copy of it on every node (tests/citus/cluster.py), made one ahead
in the background while the test before runs. Without the Citus tarball or a compiler the
tier is skipped with the reason; MEMWARDEN_REQUIRE_CITUS=1 (set by .ci/run) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import NoReturn

import pytest

from memwarden.store.migrate import apply_migrations
from tests.citus.build import CitusUnavailable, installation
from tests.citus.cluster import CitusCluster

TEMPLATE = "memwarden_template"


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("MEMWARDEN_REQUIRE_CITUS") == "1":
        pytest.fail(f"MEMWARDEN_REQUIRE_CITUS=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[CitusCluster]:
    try:
        install = installation()
    except CitusUnavailable as exc:
        _unavailable(str(exc))
    # Not under pytest's basetemp (kept 0700): as root the nodes run as another user.
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-citus-"))
    cluster = CitusCluster(workdir, install)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


class Copies:
    """Fresh copies of the template, one made ahead in a background thread."""

    def __init__(self, cluster: CitusCluster) -> None:
        self.cluster = cluster
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="citus-copy")
        self._ahead: Future[str] | None = None

    def _make(self) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        self.cluster.copy(TEMPLATE, name)
        return name

    def take(self) -> str:
        made = self._ahead or self._pool.submit(self._make)
        self._ahead = self._pool.submit(self._make)
        return made.result()

    def drop(self, name: str) -> None:
        self._pool.submit(self.cluster.drop, name)

    def close(self) -> None:
        if self._ahead is not None:
            self._pool.submit(self.cluster.drop, self._ahead.result())
        self._pool.shutdown(wait=True)


@pytest.fixture(scope="session")
def citus_copies(citus_cluster: CitusCluster) -> Iterator[Copies]:
    apply_migrations(citus_cluster.database(TEMPLATE))
    copies = Copies(citus_cluster)
    yield copies
    copies.close()


@pytest.fixture
def citus_database(citus_copies: Copies) -> Iterator[str]:
    """The name of this test's own copy of the migrated distributed database."""
    name = citus_copies.take()
    yield name
    citus_copies.drop(name)


@pytest.fixture
def db_url(request: pytest.FixtureRequest) -> str:
    """Every test of the tier runs on the coordinator, in a database of its own.

    MEMWARDEN_TEST_CITUS_URL names a prepared database on a running coordinator instead,
    shared by the tests (a quick loop while developing; tests of the nodes then skip)."""
    given = os.environ.get("MEMWARDEN_TEST_CITUS_URL")
    if given:
        apply_migrations(given)
        return given
    cluster: CitusCluster = request.getfixturevalue("citus_cluster")
    assert cluster.coordinator is not None
    return cluster.coordinator.url(request.getfixturevalue("citus_database"))
