"""`memwarden doctor` says which settings do nothing (yet), and for which Context."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from memwarden.settings import Settings


def cli(settings: Settings, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        **{k: v for k, v in os.environ.items() if not k.startswith("MEMWARDEN_")},
        "MEMWARDEN_DATABASE_URL": settings.database_url or "",
        "MEMWARDEN_DATA_DIR": str(settings.data_dir),
        "COLUMNS": "400",  # one table row per line, nothing wrapped
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "memwarden", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )


def test_doctor_reports_nothing_inactive_on_a_default_deployment(settings: Settings) -> None:
    cli(settings, "contexts", "create", "plain")
    result = cli(settings, "doctor")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "inactive:" not in result.stdout


def test_doctor_names_inactive_deployment_settings_and_context_fields(
    settings: Settings,
) -> None:
    created = json.loads(cli(settings, "contexts", "create", "tuned", "--json").stdout)
    cid = created["context"]["id"]
    patch = {"hygiene": {"band_low": 0.5}, "prompt_addendums": {"gist": "Be brief."}}
    assert cli(settings, "config", "set", cid, json.dumps(patch)).returncode == 0
    result = cli(
        settings,
        "doctor",
        MEMWARDEN_MODEL_ADJUDICATION="openai:pairs",
        MEMWARDEN_OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        MEMWARDEN_MODEL_CONSOLIDATION="openai:small",  # DESIGN names it; no setting reads it
    )
    assert result.returncode == 0, result.stdout + result.stderr  # a warning, not a failure
    lines = result.stdout.splitlines()
    # The adjudication model is read by hygiene (issue 11): no longer an inactive setting.
    assert not [line for line in lines if "inactive:MEMWARDEN_MODEL_ADJUDICATION" in line]
    assert [line for line in lines if "model:adjudication" in line and "openai:pairs" in line]
    context = [line for line in lines if "inactive:context tuned" in line]
    assert context, result.stdout
    assert cid in context[0]
    assert "prompt_addendums.gist" in context[0]
    assert "hygiene" not in context[0]  # built: no longer reported
    unknown = [line for line in lines if "unknown:MEMWARDEN_MODEL_CONSOLIDATION" in line]
    assert unknown and "ignored" in unknown[0]
