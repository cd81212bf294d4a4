"""/profile: what is currently known about one entity, and optionally how it changed.

The entity is named by id or by name (normalised as reconciliation does); every visible
entity of that name contributes, so the same person in two scopes reads as one profile. A
speaker's own entity (domain/speaker.py) is found by the names it carries too. With no
entity, or `me`, it is the caller's own: the speaker the request names (`speaker`, or a
`user/<id>` pair of its scope), else the key's principal, as a write would resolve "I".
"""

from __future__ import annotations

import uuid
from datetime import datetime

from memwarden.domain.grants import Caller
from memwarden.domain.reconcile_rules import normalise_name, normalise_value
from memwarden.domain.speaker import NAME_KEYS, SpeakerError, check_speaker, speaker_for
from memwarden.errors import InvalidInput, NotFound
from memwarden.retrieval import traffic
from memwarden.retrieval.as_of import parse_moment
from memwarden.retrieval.reader import reader_for, render_record
from memwarden.retrieval.responses import HitScope, MemoryHit, ProfileEntity, ProfileResponse
from memwarden.services import Services
from memwarden.store import recall as store
from memwarden.store.recall import RecordRow
from memwarden.text import require_storable

MAX_FACTS = 500
ME = frozenset({"me", "i", "myself", "user"})  # `entity` values that ask for the caller's own


def _as_uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def _own(caller: Caller, scope: list[str] | None, speaker: str | None) -> str:
    """The caller's own speaker entity's normalised name."""
    if speaker is not None:
        try:
            speaker = check_speaker(speaker)
        except SpeakerError as exc:
            raise InvalidInput(str(exc), field="speaker") from None
    paths = [p.strip("/") for p in scope or []]
    return speaker_for(paths[0] if len(paths) == 1 else "", speaker, caller.subject).norm


def _fact(row: RecordRow, ids: set[uuid.UUID]) -> MemoryHit:
    out = render_record(row)
    if row.kind != "attribute":
        out.direction = "out" if row.entity_id in ids else "in"
    return out


async def get_profile(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    entity: str | None = None,
    history: bool = False,
    scope: list[str] | None = None,
    speaker: str | None = None,
    as_of: datetime | str | None = None,
) -> ProfileResponse:
    """With `as_of`: the profile as it would have been served then (not counted as traffic)."""
    who = reader_for(caller, context_id, scope)
    at = parse_moment(as_of)
    name = require_storable(entity or "", "entity").strip()
    entity_id = _as_uuid(name)
    names: list[str] = []
    if not name or name.casefold() in ME:
        norm = _own(caller, scope, speaker)
    elif entity_id is not None:
        norm = None
    else:
        norm = normalise_name(name)
        names = sorted({norm, normalise_value(name)} - {""})
        if not names:
            raise InvalidInput("entity must name an entity or give its id", field="entity")
    async with services.db.connection() as conn:
        found = await store.entities(conn, who, entity_id, norm, names, sorted(NAME_KEYS), at)
        if not found:
            raise NotFound("entity not found", field="entity")
        ids = {r.id for r in found}
        facts = await store.profile_facts(conn, who, list(ids), history, MAX_FACTS, at)
        if at is None:
            served = [*ids, *(f.id for f in facts if f.serving == "live")]
            await traffic.count(conn, context_id, served)
    current = [f for f in facts if f.serving == "live"]
    main = found[0]
    return ProfileResponse(
        entity=ProfileEntity(
            id=str(main.id),
            name=main.content.get("name"),
            entityType=main.content.get("entityType"),
            memoryCategory=main.memory_category,
            scope=HitScope(path=main.scope_path, visibility=main.visibility),
        ),
        entityIds=[str(r.id) for r in found],
        attributes=[_fact(f, ids) for f in current if f.kind == "attribute"],
        relations=[_fact(f, ids) for f in current if f.kind == "relation"],
        actions=[_fact(f, ids) for f in current if f.kind == "action"],
        history=[_fact(f, ids) for f in facts if f.serving != "live"] if history else [],
    )
