"""Sessions and turns of the write path: who may append to which session."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.scope import Scope
from memwarden.errors import NotFound
from memwarden.store import ingest as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope


@dataclass(frozen=True)
class Session:
    id: uuid.UUID
    new: bool  # not stored yet: the write transaction creates it


async def check_session(
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    scope: Scope,
    session_id: uuid.UUID | None,
) -> Session:
    """A new session, or a given one the caller may append to: only its own. A session belongs
    to the subject that opened it (one principal per subject in a Context), so another
    subject gets 404 as for an unknown id, whatever the scope: sharing a scope does not let
    one subject add turns to another's (possibly private) conversation (issue 15, item 9)."""
    if session_id is None:
        return Session(new_id(), new=True)
    row = await store.get_session(conn, context_id, session_id)
    if row is None or row["principal_id"] != caller.principal_id:
        raise NotFound("session not found", field="sessionId")
    return Session(session_id, new=False)


async def store_turn(
    conn: Conn,
    caller: Caller,
    where: WriteScope,
    session: Session,
    turn_id: uuid.UUID,
    text: str,
    chunks: Sequence[str],
    vectors: Sequence[list[float] | None],
    hold: uuid.UUID | None,
    speaker: str | None = None,
) -> Session:
    """The turn and its chunks; held with the write when the input gate holds it."""
    cid = where.context_id
    if session.new:
        await store.insert_session(
            conn,
            context_id=cid,
            id=session.id,
            principal_id=caller.principal_id,
            scope_path=where.scope_path,
        )
    serving = "held" if hold is not None else "live"
    common = {
        "context_id": cid,
        "scope_path": where.scope_path,
        "visibility": where.visibility,
        "owner_subject": where.subject,
        "serving": serving,
        "hold_judgement_id": hold,
    }
    await store.insert_turn(
        conn,
        **common,
        id=turn_id,
        session_id=session.id,
        principal_id=caller.principal_id,
        text=text,
        speaker=speaker,
    )
    await store.insert_chunks(
        conn,
        [
            {**common, "id": new_id(), "turn_id": turn_id, "ordinal": n, "text": c, "embedding": v}
            for n, (c, v) in enumerate(zip(chunks, vectors, strict=True))
        ],
    )
    return Session(session.id, new=False)
