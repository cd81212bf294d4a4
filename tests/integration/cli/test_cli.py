"""The `memwarden` command as a user runs it: a real process on the same database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

from memwarden.settings import Settings


def cli(
    settings: Settings, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {
        **os.environ,
        "MEMWARDEN_DATABASE_URL": settings.database_url or "",
        "MEMWARDEN_DATA_DIR": str(settings.data_dir),
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "memwarden", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )


def test_contexts_create_prints_an_id_and_a_working_key(settings: Settings, live) -> None:
    result = cli(settings, "contexts", "create", "demo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    cid = lines[0].split(":", 1)[1].strip()
    key = lines[1].rsplit(":", 1)[1].strip()
    with live.client(key) as client:
        resp = client.get(f"/api/v1/contexts/{cid}/config")
    assert resp.status_code == 200


def test_keys_can_be_created_listed_and_revoked(settings: Settings, live) -> None:
    created = json.loads(cli(settings, "contexts", "create", "k", "--json").stdout)
    cid = created["context"]["id"]
    issued = cli(
        settings,
        "keys",
        "create",
        cid,
        "--subject",
        "bot",
        "--grant",
        "memory_read",
        "--grant",
        "memory_write",
        "--scope",
        "org/acme",
        "--json",
    )
    assert issued.returncode == 0, issued.stderr
    key = json.loads(issued.stdout)
    assert key["grants"] == ["memory_read", "memory_write"] and key["scope"] == "org/acme"
    listed = json.loads(cli(settings, "keys", "list", cid, "--json").stdout)
    assert {k["subject"] for k in listed} == {"owner", "bot"}
    assert key["key"] not in json.dumps(listed)
    revoked = cli(settings, "keys", "revoke", cid, key["id"])
    assert revoked.returncode == 0
    with live.client(key["key"]) as client:
        assert client.get("/api/v1/memory/changes").status_code == 401


def test_config_set_merges_and_config_get_reads_back(settings: Settings) -> None:
    cid = json.loads(cli(settings, "contexts", "create", "c", "--json").stdout)["context"]["id"]
    result = cli(settings, "config", "set", cid, '{"judge": {"enabled": true}}')
    assert result.returncode == 0, result.stderr
    got = json.loads(cli(settings, "config", "get", cid).stdout)
    assert got["judge"]["enabled"] is True and got["judge"]["on_error"] == "fail"


def test_failures_are_one_clear_line_never_a_traceback(settings: Settings) -> None:
    cases = [
        ("config", "get", "not-an-id"),
        ("config", "get", "00000000-0000-4000-8000-000000000000"),
        ("config", "set", "00000000-0000-4000-8000-000000000000", "{nope"),
        (
            "keys",
            "create",
            "00000000-0000-4000-8000-000000000000",
            "--subject",
            "x",
            "--grant",
            "root",
        ),
    ]
    for args in cases:
        result = cli(settings, *args)
        assert result.returncode != 0, args
        assert "Traceback" not in result.stderr + result.stdout, args
        assert "error:" in result.stderr, args


def test_an_unknown_capability_names_the_field(settings: Settings) -> None:
    cid = json.loads(cli(settings, "contexts", "create", "c", "--json").stdout)["context"]["id"]
    result = cli(settings, "keys", "create", cid, "--subject", "x", "--grant", "root")
    assert result.returncode == 2 and "grants" in result.stderr


def test_an_unreachable_database_is_reported_plainly(tmp_path: Path) -> None:
    settings = Settings(database_url="postgresql://nobody@127.0.0.1:1/none", data_dir=tmp_path)
    result = cli(settings, "contexts", "list")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "error:" in result.stderr


def test_doctor_reports_database_and_pgvector(settings: Settings) -> None:
    result = cli(settings, "doctor", env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pgvector" in result.stdout and "PostgreSQL" in result.stdout


def test_migrate_reports_nothing_to_do_on_a_migrated_database(settings: Settings) -> None:
    result = cli(settings, "migrate")
    assert result.returncode == 0 and "applied 0 migration(s)" in result.stdout


def test_help_lists_every_command(settings: Settings) -> None:
    out = cli(settings, "--help", env={"COLUMNS": "200"}).stdout
    for command in ("serve", "worker", "migrate", "contexts", "keys", "config", "doctor"):
        assert command in out


def _unused(client: httpx.Client) -> None:  # keeps httpx import meaningful for type checkers
    client.close()
