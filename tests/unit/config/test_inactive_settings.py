"""One registry says which accepted settings do nothing yet; it must stay true to the schema."""

from __future__ import annotations

import pytest

from memwarden.config import (
    INACTIVE_CONFIG_FIELDS,
    ContextConfig,
    ModelChoice,
    apply_patch,
    inactive_fields_set,
)
from memwarden.settings import INACTIVE_SETTINGS, Settings, inactive_settings, unknown_variables
from tests.unit.docs.doccheck import config_paths


def test_every_inactive_config_entry_names_a_real_field() -> None:
    """A feature that renames its fields must update the registry, or this fails."""
    paths = set(config_paths(ContextConfig, leaf_types=(ModelChoice,)))
    assert set(INACTIVE_CONFIG_FIELDS) <= paths
    assert not any(path.startswith("hygiene.") for path in INACTIVE_CONFIG_FIELDS)


def test_every_inactive_deployment_entry_names_a_real_setting() -> None:
    assert set(INACTIVE_SETTINGS) <= set(Settings.model_fields)


def test_a_default_configuration_sets_nothing_inactive() -> None:
    assert inactive_fields_set(ContextConfig()) == {}


def test_a_configuration_naming_an_unbuilt_feature_is_reported_field_by_field() -> None:
    config = apply_patch(
        ContextConfig(),
        {
            "judge": {"enabled": True},
            "models": {"gist": {"provider": "openai", "model": "small"}},
            "prompt_addendums": {"rollup": "Keep it short."},
        },
    )
    assert sorted(inactive_fields_set(config)) == [
        "models.gist",
        "prompt_addendums.rollup",
    ]
    assert "not built yet" in inactive_fields_set(config)["models.gist"]


def test_an_inactive_deployment_setting_is_reported_only_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No deployment setting is inactive since hygiene (issue 11) reads the adjudication and
    # hygiene models; a stand-in entry keeps the reporting itself tested.
    monkeypatch.setitem(INACTIVE_SETTINGS, "model_chat", "a feature that is not built yet")
    assert inactive_settings(Settings(model_chat=None)) == []
    reported = inactive_settings(Settings(model_chat="openai:gpt-4o-mini"))
    assert [r["setting"] for r in reported] == ["MEMWARDEN_MODEL_CHAT"]
    assert "not built yet" in reported[0]["reason"]


def test_the_adjudication_and_hygiene_models_are_active_settings() -> None:
    configured = Settings(model_adjudication="openai:strong", model_hygiene="openai:cheap")
    assert inactive_settings(configured) == []
    assert "models.adjudication" not in INACTIVE_CONFIG_FIELDS
    assert "models.hygiene" not in INACTIVE_CONFIG_FIELDS


def test_memwarden_variables_that_nothing_reads_are_named() -> None:
    environ = {
        "MEMWARDEN_DATA_DIR": "/tmp/x",
        "memwarden_log_level": "INFO",
        "MEMWARDEN_URL": "http://127.0.0.1:8420",
        "MEMWARDEN_MODEL_CONSOLIDATION": "openai:small",
        "MEMWARDEN_DATABSE_URL": "postgresql://typo",
        "PATH": "/usr/bin",
    }
    assert unknown_variables(environ) == ["MEMWARDEN_DATABSE_URL", "MEMWARDEN_MODEL_CONSOLIDATION"]
