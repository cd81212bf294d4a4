"""Response bodies of the Context and key routes, declared for /openapi.json only
(`responses=` on `api/routes/admin.py`; `contexts._public`, `keys._public` and
`keys.issue_key` build them). Extra keys are allowed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    """A documented answer: the fields below, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


class KeyInfo(Described):
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


class ContextInfo(Described):
    id: str
    name: str
    created_at: str


class CreatedContext(ContextInfo):
    owner_key: IssuedKey | None = Field(
        None, description="Only with `owner_subject`: the first key, with every grant."
    )


class ContextList(Described):
    contexts: list[ContextInfo]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class KeyList(Described):
    keys: list[KeyInfo]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class RevokedKey(Described):
    id: str
    revoked_at: str
