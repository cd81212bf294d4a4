"""The answers of the Context, key, audit and usage routes: `contexts`, `keys`,
`audit.list_audit` and `usage.usage_breakdown` return them. A Context's configuration is
answered as the model that validates it, `config.ContextConfig`."""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer


class KeyInfo(Answer):
    """A key's metadata; never its secret."""

    id: str
    subject: str
    grants: list[str]
    scope: str | None = Field(description="The scope prefix it is bound to, if any.")
    expires_at: str | None
    revoked_at: str | None
    last_used_at: str | None
    created_at: str | None


class IssuedKey(KeyInfo):
    """A new key: its metadata and, this once, its secret."""

    context_id: str
    key: str = Field(description="The bearer secret (`mwk_...`); shown only in this answer.")


class ContextInfo(Answer):
    id: str
    name: str
    created_at: str


class CreatedContext(ContextInfo):
    owner_key: IssuedKey | None = Field(
        default=None, description="Only with `owner_subject`: the first key, with every grant."
    )


class ContextList(Answer):
    contexts: list[ContextInfo]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class KeyList(Answer):
    keys: list[KeyInfo]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class RevokedKey(Answer):
    id: str
    revoked_at: str


class AuditEvent(Answer):
    """Who did what to which id; never content (`audit._event`)."""

    id: str
    actor: str = Field(description="A key's subject, `admin`, or a job such as `hygiene`.")
    key_id: str | None = Field(description="The key used; null for the admin token.")
    action: str = Field(description="Dotted, e.g. `config.update`, `hygiene.resolve`.")
    target_kind: str
    target_id: str | None
    at: str


class AuditPage(Answer):
    """GET /{context_id}/audit: newest first."""

    events: list[AuditEvent]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class UsageCounts(Answer):
    calls: int
    prompt_tokens: int
    completion_tokens: int


class StageUsage(UsageCounts):
    """One stage's model calls and tokens, in all and per `provider:model`."""

    models: dict[str, UsageCounts]


class ExtractionCounts(Answer):
    windows_run: int
    windows_failed: int
    dropped_chars: int = Field(description="Characters past the extraction window limit.")
    dropped_bytes: int = Field(description="UTF-8 bytes past the extraction window limit.")


class ExtractionUsage(ExtractionCounts):
    """Extraction in all and per source kind (`turn`, `document`)."""

    by_source: dict[str, ExtractionCounts]


class UsageAnswer(Answer):
    """GET /{context_id}/usage (`usage.usage_breakdown`)."""

    since: str = Field(description="The first day counted (ISO date, UTC).")
    stages: dict[str, StageUsage] = Field(description="By stage: `chat`, `extraction`, ...")
    total_tokens: int = Field(description="Prompt and completion tokens of every stage.")
    extraction: ExtractionUsage
