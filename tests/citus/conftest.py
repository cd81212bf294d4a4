"""The Citus tier: one cluster (a coordinator and two workers on loopback) per session,
one migrated database on it, and the root conftest's fixtures (`live`, `admin`,
`make_context`, `sql`, ...) pointed at its coordinator by overriding `db_url`.

Tests share the database (building a distributed schema takes tens of seconds), so each
works in Contexts of its own. Without the Citus tarball or a compiler the tier is skipped
with the reason; MEMWARDEN_REQUIRE_CITUS=1 (set by .ci/run) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from memwarden.store.migrate import apply_migrations
from tests.citus.build import CitusUnavailable, installation
from tests.citus.cluster import CitusCluster

DATABASE = "memwarden"


def _unavailable(reason: str) -> None:
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


@pytest.fixture(scope="session")
def citus_url(request: pytest.FixtureRequest) -> str:
    """MEMWARDEN_TEST_CITUS_URL names a prepared database on a running coordinator (for a
    quick loop while developing: tests that need the nodes themselves then skip)."""
    given = os.environ.get("MEMWARDEN_TEST_CITUS_URL")
    if given:
        apply_migrations(given)
        return given
    cluster: CitusCluster = request.getfixturevalue("citus_cluster")
    url = cluster.database(DATABASE)
    apply_migrations(url)
    return url


@pytest.fixture
def db_url(citus_url: str) -> str:
    """Every test of the tier runs on the coordinator's one database."""
    return citus_url
