"""The test databases (tests/support/pg.py): each test gets a database copied from the
migrated template, made ahead in the background, never handed out twice, and dropped
after the test."""

from __future__ import annotations

import time

import psycopg

from memwarden.store.migrate import available
from tests.support.pg import AHEAD, PgCluster


def _exists(cluster: PgCluster, name: str) -> bool:
    with psycopg.connect(cluster.admin_url, autocommit=True) as conn:
        return bool(
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        )


def test_each_database_handed_out_is_a_new_copy_of_the_migrated_template(
    cluster: PgCluster,
) -> None:
    names = [cluster.create_database() for _ in range(AHEAD + 2)]
    assert len(set(names)) == len(names)
    for name in names:
        with psycopg.connect(cluster.url_for(name), autocommit=True) as conn:
            applied = conn.execute("SELECT count(*) FROM schema_migration").fetchone()
            template = conn.execute(
                "SELECT datistemplate FROM pg_database WHERE datname = current_database()"
            ).fetchone()
        assert applied == (len(available()),)
        assert template == (False,)
    for name in names:
        cluster.drop_database(name)


def test_a_dropped_database_is_gone_soon_after_even_with_a_connection_left_open(
    cluster: PgCluster,
) -> None:
    name = cluster.create_database()
    leaked = psycopg.connect(cluster.url_for(name), autocommit=True)
    leaked.execute("SELECT 1")
    cluster.drop_database(name)
    deadline = time.monotonic() + 60
    while _exists(cluster, name) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _exists(cluster, name)
    leaked.close()
