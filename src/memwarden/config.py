"""Context configuration: one pydantic schema, partial updates by deep merge.

A Context's configuration is stored as JSON. Reading it back must never fall back to
defaults silently: an unreadable configuration refuses writes (`ConfigUnreadable`).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

ADDENDUM_MAX_CHARS = 4000
ADDENDUM_STAGES = (
    "judge",
    "extraction",
    "adjudication",
    "hygiene",
    "consolidation",
    "elaboration",
    "gist",
    "rollup",
    "chat",
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class _Strict(BaseModel):
    # Every field is in a dumped configuration, so the answer's schema (GET and PATCH
    # .../config in /openapi.json) marks every field required.
    model_config = ConfigDict(
        extra="forbid", validate_assignment=True, json_schema_serialization_defaults_required=True
    )


class JudgeConfig(_Strict):
    enabled: bool = False
    input: bool = True
    rows: bool = True
    on_error: Literal["fail", "allow"] = "fail"
    on_warn: Literal["write", "hold"] = "write"
    record_pass: bool = True
    retention_days: int = Field(default=30, ge=0, le=3650)
    retain_inputs: bool = False


class ModelChoice(_Strict):
    provider: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9_\-]+$")
    model: str = Field(min_length=1, max_length=200)


class ModelsConfig(_Strict):
    """Models for background stages; None means the deployment default."""

    judge: ModelChoice | None = None
    extraction: ModelChoice | None = None
    adjudication: ModelChoice | None = None
    hygiene: ModelChoice | None = None
    chat: ModelChoice | None = None
    consolidation: ModelChoice | None = None
    elaboration: ModelChoice | None = None
    gist: ModelChoice | None = None
    rollup: ModelChoice | None = None


def check_addendum(value: str) -> str:
    """Addendums go into system prompts: bounded and free of control characters."""
    if len(value) > ADDENDUM_MAX_CHARS:
        raise ValueError(f"at most {ADDENDUM_MAX_CHARS} characters")
    if _CONTROL.search(value):
        raise ValueError("control characters other than newline and tab are not allowed")
    return value


class PromptAddendums(_Strict):
    judge: str | None = None
    extraction: str | None = None
    consolidation: str | None = None
    elaboration: str | None = None
    gist: str | None = None
    rollup: str | None = None
    chat: str | None = None
    adjudication: str | None = None
    hygiene: str | None = None

    @field_validator("*")
    @classmethod
    def _valid(cls, value: str | None) -> str | None:
        if value is None:
            return None
        check_addendum(value)
        return value or None


class TokenBudget(_Strict):
    """Tokens a Context may spend on model calls per period; None is unlimited."""

    limit: int | None = Field(default=None, ge=0)
    period: Literal["day", "month"] = "month"


class HygieneConfig(_Strict):
    """Memory hygiene (docs/hygiene.md). The band is cosine similarity of the embedder's
    vectors; the old names `review_band_low`/`review_band_high` are still read."""

    enabled: bool = True
    band_low: float = Field(default=0.70, ge=0.0, le=1.0)
    band_high: float = Field(default=1.00, ge=0.0, le=1.0)
    auto_resolve_min_confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    link_confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    neighbours: int = Field(default=5, ge=1, le=50)
    reexamine_min_recalls: int = Field(default=10, ge=1)
    reexamine_window_days: int = Field(default=90, ge=1, le=3650)
    max_subjects_per_run: int = Field(default=200, ge=1, le=100_000)
    max_queue_rows_per_run: int = Field(default=20, ge=1, le=10_000)
    nightly: bool = True

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        """`review_band_*` (accepted before hygiene was built) read as `band_*`."""
        if isinstance(data, dict):
            data = dict(data)
            for old, new in (("review_band_low", "band_low"), ("review_band_high", "band_high")):
                if old in data:
                    value = data.pop(old)
                    data.setdefault(new, value)
        return data

    @model_validator(mode="after")
    def _band(self) -> HygieneConfig:
        if self.band_low > self.band_high:
            raise ValueError("band_low must not exceed band_high")
        return self


class PassStage(_Strict):
    """One background pass: on or off, and which triggers start it on its own."""

    enabled: bool = True
    after_writes: bool = True  # a run once the Context's writes have settled
    scheduled: bool = True  # a run on the periodic schedule


class PassesConfig(_Strict):
    """The background passes (docs/passes.md); elaboration is off unless switched on."""

    consolidation: PassStage = Field(default_factory=PassStage)
    elaboration: PassStage = Field(default_factory=lambda: PassStage(enabled=False))
    rollup: PassStage = Field(default_factory=PassStage)
    gist: PassStage = Field(default_factory=PassStage)
    rollup_idle_minutes: int = Field(default=30, ge=0, le=10080)
    settle_minutes: int = Field(default=5, ge=1, le=1440)

    def stage(self, name: str) -> PassStage:
        found: PassStage = getattr(self, name)
        return found


class ContextConfig(_Strict):
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    prompt_addendums: PromptAddendums = Field(default_factory=PromptAddendums)
    pii_redaction_enabled: bool = False
    token_budget: TokenBudget = Field(default_factory=TokenBudget)
    hygiene: HygieneConfig = Field(default_factory=HygieneConfig)
    passes: PassesConfig = Field(default_factory=PassesConfig)


# Fields the schema accepts (so stored configurations stay valid) that nothing reads yet.
# The one list of them: `memwarden doctor` names each one a Context has set, the docs test
# checks docs/configuration.md marks each "not yet active", and the change that builds a
# feature deletes its entries here.
INACTIVE_CONFIG_FIELDS: dict[str, str] = {}


def _at(document: dict[str, Any], path: str) -> Any:
    value: Any = document
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def inactive_fields_set(config: ContextConfig) -> dict[str, str]:
    """Inactive fields this configuration sets to something other than the default.

    Those are choices someone made that have no effect yet; left at their defaults they
    change nothing either way, so they are not reported.
    """
    current = config.model_dump(mode="json")
    default = ContextConfig().model_dump(mode="json")
    return {
        path: reason
        for path, reason in INACTIVE_CONFIG_FIELDS.items()
        if _at(current, path) != _at(default, path)
    }


class ConfigUnreadable(Exception):
    """The stored configuration does not validate; writes must be refused."""


class ConfigInvalid(Exception):
    """A requested change does not validate; carries the first failing field path."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def merge_patch(current: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Objects merge key by key; any other value (including null) replaces."""
    merged = dict(current)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_patch(merged[key], value)
        else:
            merged[key] = value
    return merged


def _first_error(exc: ValidationError) -> ConfigInvalid:
    err = exc.errors()[0]
    path = ".".join(str(p) for p in err["loc"]) or None
    msg = err["msg"].removeprefix("Value error, ")
    return ConfigInvalid(f"{path}: {msg}" if path else msg, path)


def apply_patch(current: ContextConfig | dict[str, Any], patch: Any) -> ContextConfig:
    """Validate a partial update merged onto the current (stored) configuration.

    Merging onto the stored JSON rather than onto defaults means a patch can repair an
    unreadable configuration without discarding its other settings.
    """
    if not isinstance(patch, dict):
        raise ConfigInvalid("configuration patch must be a JSON object", None)
    base = current.model_dump(mode="json") if isinstance(current, ContextConfig) else current
    try:
        return ContextConfig.model_validate(merge_patch(base, patch))
    except ValidationError as exc:
        raise _first_error(exc) from None


def load_config(raw: Any) -> ContextConfig:
    """Read a stored configuration; never substitutes defaults for a broken one."""
    if not isinstance(raw, dict):
        raise ConfigUnreadable("stored configuration is not an object")
    try:
        return ContextConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigUnreadable(str(_first_error(exc))) from None


def dump_config(config: ContextConfig) -> dict[str, Any]:
    return config.model_dump(mode="json")
