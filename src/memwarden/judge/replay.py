"""The bridge from an approved override to the write path's facts use case.

The write path's facts use case has no "skip the judge" switch, so the replay runs it on
a copy of the Services whose gatekeeper is `PassThrough`: the content is not judged
again (no input gate, no row gate, no new entries), and everything else (grants, scope,
budget, extraction, reconciliation, declared supersedes, audit) is the ordinary write.
The request is the one that was sent: its session, supersedes and speaker with it.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.scope import from_paths
from memwarden.errors import NotFound
from memwarden.gatekeeper import PassThrough
from memwarden.pipeline.ingest import FactsInput, PreparedFacts, WriteSource, prepare_facts
from memwarden.pipeline.session import Session, check_session
from memwarden.services import Services

# Where the replayed turn went: the session the request named (`stored`), a new one
# because it named none (`new`), or a new one because the one it named is gone or no
# longer the original principal's (`not_found`).
SessionReplay = Literal["stored", "new", "not_found"]


@dataclass
class Replay:
    prepared: PreparedFacts
    session: SessionReplay


def retained_item(payload: dict[str, Any]) -> FactsInput:
    """The kept request body as the facts input it was (keys the write did not send are
    absent from requests kept before they were retained)."""
    session = payload.get("sessionId")
    return FactsInput(
        text=str(payload["text"]),
        infer=payload.get("infer", "full"),
        scope=payload.get("scope") or None,
        visibility=payload.get("visibility", "shared"),
        session_id=uuid.UUID(session) if session else None,
        supersedes=tuple(uuid.UUID(i) for i in payload.get("supersedes") or ()),
        speaker=payload.get("speaker"),
    )


async def prepare_retained(
    services: Services, caller: Caller, context_id: uuid.UUID, route: str, payload: dict[str, Any]
) -> Replay:
    """The kept request as `caller`'s write, unjudged, with its model calls done; the
    override commits it in its own transaction, with the consuming of the kept request."""
    item = retained_item(payload)
    session, state = await _session(services, caller, context_id, item)
    unjudged = dataclasses.replace(services, gatekeeper=PassThrough())
    source: WriteSource = "facts_batch" if route == "facts_batch" else "facts"
    prepared = await prepare_facts(unjudged, caller, context_id, item, source, session)
    return Replay(prepared, state)


async def _session(
    services: Services, caller: Caller, context_id: uuid.UUID, item: FactsInput
) -> tuple[Session | None, SessionReplay]:
    """The stored session while it exists and is the principal's (the write's own check);
    otherwise a new one, said so, rather than a request that can never be replayed."""
    if item.session_id is None:
        return None, "new"
    scope = from_paths(list(item.scope) if item.scope else None, item.visibility)
    async with services.db.connection() as conn:
        try:
            return await check_session(conn, caller, context_id, scope, item.session_id), "stored"
        except NotFound:
            return Session(new_id(), new=True), "not_found"
