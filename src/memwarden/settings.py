"""Deployment settings: environment variables (MEMWARDEN_*) or a TOML file.

Per-Context behaviour lives in `config.py`; this module holds only what an operator
sets for the whole deployment (where data lives, which database, which models).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

STAGES = (
    "judge",
    "extraction",
    "adjudication",
    "hygiene",
    "chat",
    "embedding",
    "consolidation",
    "elaboration",
    "rollup",
    "gist",
)


# Settings accepted but read by nothing yet: `/health` and `memwarden doctor` name each one
# that is set, the docs test checks the README marks each "not yet active", and the change
# that builds the feature deletes its entry here.
INACTIVE_SETTINGS: dict[str, str] = {}


# MEMWARDEN_* variables read outside `Settings`: the settings file's name, and the reviewer
# CLI's server, key and Context. Any other MEMWARDEN_* variable is read by nothing.
OTHER_VARIABLES = (
    "MEMWARDEN_CONFIG_FILE",
    "MEMWARDEN_URL",
    "MEMWARDEN_API_KEY",
    "MEMWARDEN_CONTEXT_ID",
)


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("memwarden"))


class Settings(BaseSettings):
    """Everything a deployment chooses; read once per process."""

    model_config = SettingsConfigDict(env_prefix="MEMWARDEN_", extra="ignore")

    data_dir: Path = Field(default_factory=_default_data_dir)
    database_url: str | None = None
    admin_token: SecretStr | None = None
    ui_session_secret: SecretStr | None = None
    openai_base_url: str | None = None
    openai_api_key: SecretStr | None = None
    structured_output: Literal["json_schema", "json_object_schema", "prompt_json"] = "json_schema"
    model_judge: str | None = None
    model_extraction: str | None = None
    model_adjudication: str | None = None
    model_hygiene: str | None = None
    model_chat: str | None = None
    model_embedding: str | None = None
    model_consolidation: str | None = None
    model_elaboration: str | None = None
    model_rollup: str | None = None
    model_gist: str | None = None
    model_timeout_s: float = 30.0
    model_max_retries: int = 2
    request_deadline_s: float = Field(default=45.0, ge=0.0)
    # /query's reranker (docs/configuration.md#reranker): off unless a model is named; a
    # /rerank endpoint (rerank:, cohere:, jina:, infinity:, tei:) or a chat model (openai: ...)
    # over the fused top `rerank_candidates`, bounded by `rerank_timeout_s`.
    model_rerank: str | None = None
    rerank_base_url: str | None = None
    rerank_api_key: SecretStr | None = None
    rerank_candidates: int = Field(default=50, ge=2, le=200)
    rerank_timeout_s: float = Field(default=5.0, gt=0.0, le=120.0)
    pool_min_size: int = 1
    pool_max_size: int = 10
    # The connection budget (docs/scale.md#connection-budget-and-back-pressure): how long a
    # request waits for a pooled connection before a 503, how long one statement may run,
    # how many requests one process serves at once (503 past it) and one Context (429).
    pool_timeout_s: float = Field(default=3.0, gt=0.0)
    statement_timeout_s: float = Field(default=30.0, ge=0.0)
    max_in_flight: int = Field(default=64, ge=0)
    context_max_in_flight: int = Field(default=16, ge=0)
    # The size budgets of one Context (docs/scale.md#connection-budget-and-back-pressure):
    # request-body bytes in flight in one process (429 past it; 64 MiB: two of the largest
    # uploads, 25 MiB, at once), and the originals of its documents still waiting for a
    # worker (429 at upload past it; 100 MiB: four of the largest uploads). 0: no budget.
    context_max_bytes_in_flight: int = Field(default=64 * 2**20, ge=0)
    context_max_pending_document_bytes: int = Field(default=100 * 2**20, ge=0)
    # Embedded records past which a Context gets its own vector indexes (docs/scale.md#a-
    # context-that-was-just-filled): its first /query past it queues their build.
    vector_index_threshold: int = Field(default=5000, ge=1)
    # Webhook delivery (docs/webhooks.md): per-attempt timeout, the retry schedule, the
    # consecutive failed attempts that pause a subscription, and the hosts it may reach
    # (comma-separated names or `*.suffix`; empty: any host).
    webhook_timeout_s: float = Field(default=10.0, gt=0.0, le=120.0)
    webhook_max_attempts: int = Field(default=8, ge=1, le=50)
    webhook_backoff_s: float = Field(default=60.0, gt=0.0)
    webhook_backoff_max_s: float = Field(default=8 * 3600.0, gt=0.0)
    webhook_pause_after: int = Field(default=50, ge=1)
    webhook_allowed_hosts: str = ""
    log_level: str = "INFO"
    log_json: bool = True

    def model_for(self, stage: str) -> str | None:
        """The deployment default `provider:model` for a stage, or None."""
        return getattr(self, f"model_{stage}")

    @property
    def pgdata_dir(self) -> Path:
        return self.data_dir / "pgdata"

    @property
    def files_dir(self) -> Path:
        return self.data_dir / "files"


def inactive_settings(settings: Settings) -> list[dict[str, str]]:
    """Each inactive setting given a value other than its default, by variable name."""
    return [
        {"setting": f"MEMWARDEN_{name.upper()}", "reason": reason}
        for name, reason in INACTIVE_SETTINGS.items()
        if getattr(settings, name)
        != Settings.model_fields[name].get_default(call_default_factory=True)
    ]


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """MEMWARDEN_* variables nothing reads (a typo, or a stage that does not exist).

    `Settings` ignores unknown names so that one environment can serve several versions;
    `memwarden doctor` names them, so an ignored choice is not a silent one.
    """
    known = {f"MEMWARDEN_{name.upper()}" for name in Settings.model_fields}
    known.update(OTHER_VARIABLES)
    return sorted(
        name
        for name in environ
        if name.upper().startswith("MEMWARDEN_") and name.upper() not in known
    )


def _toml_values(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        raw = tomllib.load(fh)
    section = raw.get("memwarden", raw)
    return {str(k).lower(): v for k, v in section.items()}


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Environment wins over the TOML file named by MEMWARDEN_CONFIG_FILE."""
    file_values: dict[str, Any] = {}
    config_file = os.environ.get("MEMWARDEN_CONFIG_FILE")
    if config_file:
        file_values = _toml_values(Path(config_file))
    env_set = {
        k.removeprefix("MEMWARDEN_").lower() for k in os.environ if k.startswith("MEMWARDEN_")
    }
    merged = {k: v for k, v in file_values.items() if k not in env_set}
    return Settings(**merged)
