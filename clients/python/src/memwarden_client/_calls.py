"""Every route a Context key can use, described once as a Call builder.

Bodies use the server's field names (camelCase where the server's are); answers are read
into the generated models. Arguments left as None are not sent, so the server's own
defaults apply and its 400s name the field as it knows it.
"""

from __future__ import annotations

import mimetypes
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal, TypeVar

from pydantic import BaseModel

from memwarden_client import models as m
from memwarden_client._core import Call, Ctx, Paged, params, seg, with_cursor

M = TypeVar("M", bound=BaseModel)

Scope = str | Sequence[str] | None
Visibility = Literal["shared", "private"]
ContractScope = m.ScopeIn | Mapping[str, Any]
FileInput = str | os.PathLike[str] | bytes | IO[bytes]

API = "/api/v1"


def model(cls: type[M]) -> Callable[[Any], M]:
    return cls.model_validate


def scopes(scope: Scope) -> list[str] | None:
    """A scope path, or several: `"user/alice"` and `["user/alice"]` are the same."""
    if scope is None:
        return None
    return [scope] if isinstance(scope, str) else [str(s) for s in scope]


def moment(value: datetime | str | None) -> str | None:
    """An `as_of` as the server reads it: ISO-8601 text (a naive datetime is sent as it
    is, and the server refuses it naming `as_of`)."""
    return value.isoformat() if isinstance(value, datetime) else value


def body(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def dump(value: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    """A request model or a plain mapping as the JSON the server reads."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dict(value)


def infer_mode(infer: bool | str | None) -> str | None:
    if infer is None or isinstance(infer, str):
        return infer
    return "full" if infer else "none"


def ids(values: Sequence[object] | None) -> list[str] | None:
    return None if values is None else [str(v) for v in values]


def _pages(first: Call[Any], items: Callable[[Any], Any]) -> Paged[Any]:
    return Paged(lambda cursor: with_cursor(first, cursor), items)


# Writing and recall ------------------------------------------------------------------


def fact(
    text: str,
    *,
    scope: Scope = None,
    visibility: Visibility | None = None,
    session_id: str | None = None,
    speaker: str | None = None,
    infer: bool | Literal["full", "none"] | None = None,
    supersedes: Sequence[str] | None = None,
) -> dict[str, Any]:
    """One turn's body, as `/facts` and each `/facts/batch` item read it."""
    return body(
        text=text,
        scope=scopes(scope),
        visibility=visibility,
        sessionId=session_id,
        speaker=speaker,
        infer=infer_mode(infer),
        supersedes=ids(supersedes),
    )


def remember(
    c: Ctx,
    text: str,
    *,
    scope: Scope = None,
    visibility: Visibility | None = None,
    session_id: str | None = None,
    speaker: str | None = None,
    infer: bool | Literal["full", "none"] | None = None,
    supersedes: Sequence[str] | None = None,
) -> Call[m.FactsResponse]:
    """Judge, extract, reconcile and store one turn (`POST /facts`).

    The answer says what memwarden made of it: `held` (waiting for a judge's approval),
    `extraction.chunk_only`, `supersede_candidates`, and what each declared
    `supersedes` did. A judge refusal raises `JudgeRefused` with its `reasons`.
    """
    payload = fact(
        text,
        scope=scope,
        visibility=visibility,
        session_id=session_id,
        speaker=speaker,
        infer=infer,
        supersedes=supersedes,
    )
    return Call("POST", f"{API}/{c.cid()}/facts", model(m.FactsResponse), json=payload)


def remember_batch(
    c: Ctx, items: Sequence[str | m.FactsBody | Mapping[str, Any]]
) -> Call[m.BatchResponse]:
    """Many turns in one request (`POST /facts/batch`): a string is a turn with defaults;
    each answer is a `FactsResponse` or a `BatchItemError` in the items' order."""
    payload = [{"text": item} if isinstance(item, str) else dump(item) for item in items]
    return Call(
        "POST", f"{API}/{c.cid()}/facts/batch", model(m.BatchResponse), json={"items": payload}
    )


def query(
    c: Ctx,
    query: str,
    *,
    limit: int | None = None,
    scope: Scope = None,
    categories: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    include_superseded: bool | None = None,
    mode: Literal["hybrid", "lexical", "vector"] | None = None,
    as_of: datetime | str | None = None,
) -> Call[m.QueryResponse]:
    """Hybrid recall (`POST /query`): the hits, best first; `as_of` (a timezone-aware
    moment): the hits this key would have been served then."""
    payload = body(
        query=query,
        limit=limit,
        scope=scopes(scope),
        categories=list(categories) if categories is not None else None,
        kinds=list(kinds) if kinds is not None else None,
        includeSuperseded=include_superseded,
        mode=mode,
        as_of=moment(as_of),
    )
    return Call(
        "POST", f"{API}/{c.cid()}/query", model(m.QueryResponse), json=payload, idempotent=True
    )


def profile(
    c: Ctx,
    entity: str | None = None,
    *,
    history: bool = False,
    scope: Scope = None,
    speaker: str | None = None,
    as_of: datetime | str | None = None,
) -> Call[m.ProfileResponse]:
    """What is known about one entity; without `entity` (or `"me"`), the caller's own;
    `as_of`: as it would have been served then."""
    query_params = params(
        entity=entity,
        history=history or None,
        scope=scopes(scope),
        speaker=speaker,
        as_of=moment(as_of),
    )
    return Call(
        "GET",
        f"{API}/{c.cid()}/profile",
        model(m.ProfileResponse),
        params=query_params,
        idempotent=True,
    )


def state(
    c: Ctx, *, scope: Scope = None, as_of: datetime | str | None = None
) -> Call[m.StateResponse]:
    """Standing instructions, open uncertainties and recent actions (`as_of`: then)."""
    return Call(
        "GET",
        f"{API}/{c.cid()}/state",
        model(m.StateResponse),
        params=params(scope=scopes(scope), as_of=moment(as_of)),
        idempotent=True,
    )


def chat_body(
    message: str,
    *,
    scope: Scope = None,
    session_id: str | None = None,
    visibility: Visibility | None = None,
    remember: bool | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    return body(
        message=message,
        scope=scopes(scope),
        sessionId=session_id,
        visibility=visibility,
        remember=remember,
        limit=limit,
    )


def chat(
    c: Ctx,
    message: str,
    *,
    scope: Scope = None,
    session_id: str | None = None,
    visibility: Visibility | None = None,
    remember: bool | None = None,
    limit: int | None = None,
) -> Call[m.ChatResponse]:
    """An answer from recalled memory (`POST /chat`); `remember` stores the message."""
    payload = chat_body(
        message,
        scope=scope,
        session_id=session_id,
        visibility=visibility,
        remember=remember,
        limit=limit,
    )
    return Call("POST", f"{API}/{c.cid()}/chat", model(m.ChatResponse), json=payload)


def chat_stream(
    c: Ctx,
    message: str,
    *,
    scope: Scope = None,
    session_id: str | None = None,
    visibility: Visibility | None = None,
    remember: bool | None = None,
    limit: int | None = None,
) -> Call[None]:
    payload = chat_body(
        message,
        scope=scope,
        session_id=session_id,
        visibility=visibility,
        remember=remember,
        limit=limit,
    )
    return Call(
        "POST",
        f"{API}/{c.cid()}/chat/stream",
        lambda _: None,
        json=payload,
        headers={"Accept": "text/event-stream"},
    )


def reflect(c: Ctx, *, scope: Scope = None, limit: int | None = None) -> Call[m.ReflectResponse]:
    """Derive and store reflections from recalled memory (needs a chat model)."""
    payload = body(scope=scopes(scope), limit=limit)
    return Call("POST", f"{API}/{c.cid()}/reflect", model(m.ReflectResponse), json=payload)


def reprocess_turn(c: Ctx, turn_id: str) -> Call[m.ReprocessResponse]:
    """Extract again the windows of a turn whose extraction failed (409 when none did)."""
    return Call(
        "POST", f"{API}/{c.cid()}/turns/{seg(turn_id)}/reprocess", model(m.ReprocessResponse)
    )


def usage(c: Ctx, *, days: int | None = None) -> Call[m.UsageAnswer]:
    """Calls and tokens per stage and model over the last `days` (grant:manage)."""
    return Call(
        "GET",
        f"{API}/{c.cid()}/usage",
        model(m.UsageAnswer),
        params=params(days=days),
        idempotent=True,
    )


def audit(c: Ctx, *, action: str | None = None, limit: int | None = None) -> Paged[m.AuditEvent]:
    """The audit log, newest first; `action` keeps actions starting with it."""
    first = Call(
        "GET",
        f"{API}/{c.cid()}/audit",
        model(m.AuditPage),
        params=params(action=action, limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.events)


def changes(c: Ctx, *, limit: int | None = None, cursor: str | None = None) -> Paged[m.ChangeEntry]:
    """The change feed in commit order, from `cursor` (a `next_cursor` kept from before)
    or the start; ids and kinds, never content."""
    first = Call(
        "GET",
        f"{API}/memory/changes",
        model(m.ChangePage),
        params=params(limit=limit, cursor=cursor),
        idempotent=True,
    )
    return _pages(first, lambda page: page.changes)


# Documents ---------------------------------------------------------------------------


def _read_file(file: FileInput, filename: str | None) -> tuple[bytes, str]:
    if isinstance(file, bytes):
        return file, filename or "document"
    if isinstance(file, str | os.PathLike):
        path = Path(file)
        return path.read_bytes(), filename or path.name
    data = file.read()
    name = filename or Path(str(getattr(file, "name", "document"))).name
    return data, name


def multipart(
    fields: Mapping[str, str], name: str, filename: str, data: bytes, content_type: str
) -> tuple[bytes, str]:
    """A multipart/form-data body built whole, so its length is known before sending
    (the server counts a body by its declared length) and progress can be reported."""
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for key, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'.encode()
            + value.encode()
            + b"\r\n"
        )
    safe_name = filename.replace('"', "%22").replace("\r", "").replace("\n", "")
    parts.append(
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{safe_name}"\r\nContent-Type: {content_type}\r\n\r\n'
        ).encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def upload(
    c: Ctx,
    file: FileInput,
    *,
    filename: str | None = None,
    scope: str | None = None,
    visibility: Visibility | None = None,
    content_type: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Call[m.DocumentResponse]:
    """Upload a document (a path, bytes or a binary file); a worker processes it.

    `progress(sent, total)` is called as the body's bytes are handed to the connection.
    """
    data, name = _read_file(file, filename)
    kind = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    fields = body(scope=scope, visibility=visibility)
    content, header = multipart(fields, "file", name, data, kind)
    return Call(
        "POST",
        f"{API}/{c.cid()}/documents",
        model(m.DocumentResponse),
        content=content,
        headers={"Content-Type": header},
        progress=progress,
    )


# Portability: export and import ------------------------------------------------------

NDJSON = "application/x-ndjson"


def export(
    c: Ctx,
    *,
    subject: str | None = None,
    scope: str | None = None,
    sessions: bool | None = None,
    include: Sequence[Literal["keys", "judgements"]] | None = None,
) -> Call[None]:
    """The Context's memories as JSON Lines (`GET /export`), read line by line: a
    `header`, one object per record, link, session, turn, principal or judgement, an `end`
    with the counts (docs/portability.md). Only what the key may read, unless it holds
    grant:manage over the whole Context."""
    query = params(
        subject=subject, scope=scope, sessions=sessions, include=list(include or []) or None
    )
    return Call(
        "GET",
        f"{API}/{c.cid()}/export",
        lambda _: None,
        params=query,
        headers={"Accept": NDJSON},
        idempotent=True,
    )


def start_import(
    c: Ctx,
    file: FileInput,
    *,
    source_dir: str,
    format: Literal["auto", "memwarden", "mem0", "texts"] | None = None,
    scope: str | None = None,
    visibility: Visibility | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Call[m.ImportStarted]:
    """Import a file as a job (`POST /imports`, 202): a memwarden export, a mem0 export or
    JSON Lines of texts; every item passes the judge and reconciliation. `source_dir`
    names where it came from (kept on every item)."""
    data, _ = _read_file(file, None)
    query = params(source_dir=source_dir, format=format, scope=scope, visibility=visibility)
    return Call(
        "POST",
        f"{API}/{c.cid()}/imports",
        model(m.ImportStarted),
        params=query,
        content=data,
        headers={"Content-Type": NDJSON},
        progress=progress,
    )


def import_job(c: Ctx, import_id: str) -> Call[m.ImportJob]:
    """Where an import stands: `status`, `total`, `processed`, `counts` per outcome."""
    return Call(
        "GET",
        f"{API}/{c.cid()}/imports/{seg(import_id)}",
        model(m.ImportJob),
        idempotent=True,
    )


def document(c: Ctx, document_id: str) -> Call[m.DocumentResponse]:
    """One document's status, counts and failure code."""
    return Call(
        "GET",
        f"{API}/{c.cid()}/documents/{seg(document_id)}",
        model(m.DocumentResponse),
        idempotent=True,
    )


def documents(c: Ctx, *, limit: int | None = None) -> Paged[m.DocumentResponse]:
    """Every document the key can see, page after page."""
    first = Call(
        "GET",
        f"{API}/{c.cid()}/documents",
        model(m.DocumentList),
        params=params(limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.documents)


def reprocess_document(c: Ctx, document_id: str) -> Call[m.ReprocessResponse]:
    """Extract again the failed windows of a processed document."""
    return Call(
        "POST",
        f"{API}/{c.cid()}/documents/{seg(document_id)}/reprocess",
        model(m.ReprocessResponse),
    )


def delete_document(c: Ctx, document_id: str) -> Call[m.DocumentDeleted]:
    """Delete a document; what was extracted from it leaves serving."""
    return Call("DELETE", f"{API}/{c.cid()}/documents/{seg(document_id)}", model(m.DocumentDeleted))


FINAL_DOCUMENT_STATUSES = frozenset({"processed", "failed"})


# Judgements --------------------------------------------------------------------------


def judgements(
    c: Ctx,
    *,
    verdict: str | None = None,
    stage: str | None = None,
    held: bool | None = None,
    source: str | None = None,
    limit: int | None = None,
) -> Paged[m.Judgement]:
    """The judge's review log, newest first (grant:manage)."""
    first = Call(
        "GET",
        f"{API}/{c.cid()}/judgements",
        model(m.JudgementList),
        params=params(verdict=verdict, stage=stage, held=held, source=source, limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.judgements)


def judgement(c: Ctx, judgement_id: str) -> Call[m.Judgement]:
    """One review-log entry."""
    return Call(
        "GET",
        f"{API}/{c.cid()}/judgements/{seg(judgement_id)}",
        model(m.Judgement),
        idempotent=True,
    )


def override(
    c: Ctx,
    judgement_id: str,
    verdict: Literal["pass", "warn", "fail"],
    *,
    replay: bool | None = None,
) -> Call[m.OverrideResult]:
    """Record a reviewer's verdict; `replay` ingests the retained request."""
    return Call(
        "POST",
        f"{API}/{c.cid()}/judgements/{seg(judgement_id)}/override",
        model(m.OverrideResult),
        json=body(verdict=verdict, replay=replay),
    )


def approve(c: Ctx, judgement_id: str) -> Call[m.HoldDecision]:
    """Release what a held warn kept back."""
    return Call(
        "POST", f"{API}/{c.cid()}/judgements/{seg(judgement_id)}/approve", model(m.HoldDecision)
    )


def reject(c: Ctx, judgement_id: str) -> Call[m.HoldDecision]:
    """Delete what a held warn kept back."""
    return Call(
        "POST", f"{API}/{c.cid()}/judgements/{seg(judgement_id)}/reject", model(m.HoldDecision)
    )


def dry_run(
    c: Ctx,
    addendum: str,
    *,
    compare_current: bool | None = None,
    judgement_ids: Sequence[str] | None = None,
    limit: int | None = None,
    verdict: Literal["pass", "warn", "fail"] | None = None,
) -> Call[m.DryRunResult]:
    """Re-judge logged inputs under a candidate addendum; stores nothing."""
    payload = body(
        addendum=addendum,
        compareCurrent=compare_current,
        judgementIds=ids(judgement_ids),
        limit=limit,
        verdict=verdict,
    )
    return Call("POST", f"{API}/{c.cid()}/judgements/dry-run", model(m.DryRunResult), json=payload)


# Hygiene and passes ------------------------------------------------------------------


def scan(c: Ctx, *, rejudge: bool | None = None) -> Call[m.ScanStarted]:
    """Start a full hygiene cycle as a job (409 `run_in_progress` while one runs)."""
    return Call(
        "POST", f"{API}/{c.cid()}/hygiene/scan", model(m.ScanStarted), json=body(rejudge=rejudge)
    )


def hygiene_run(c: Ctx, run_id: str) -> Call[m.HygieneRun]:
    """A hygiene run's status and counts."""
    return Call(
        "GET", f"{API}/{c.cid()}/hygiene/runs/{seg(run_id)}", model(m.HygieneRun), idempotent=True
    )


def queue(
    c: Ctx,
    *,
    status: Literal["pending", "resolved", "dismissed"] | None = None,
    limit: int | None = None,
) -> Paged[m.QueueItem]:
    """The hygiene review queue, newest first."""
    first = Call(
        "GET",
        f"{API}/{c.cid()}/hygiene/queue",
        model(m.QueuePage),
        params=params(status=status, limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.items)


def resolve(
    c: Ctx, item_id: str, resolution: Literal["keep_both", "keep_a", "keep_b"]
) -> Call[m.QueueResolved]:
    """Decide a queue item (409 `already_decided`, or `replacement_refused`)."""
    return Call(
        "POST",
        f"{API}/{c.cid()}/hygiene/queue/{seg(item_id)}/resolve",
        model(m.QueueResolved),
        json={"resolution": resolution},
    )


def restore(c: Ctx, record_id: str) -> Call[m.MemoryRestored]:
    """Undo an automatic resolution of a record (409 `nothing_to_restore`)."""
    return Call(
        "POST",
        f"{API}/{c.cid()}/hygiene/memories/{seg(record_id)}/restore",
        model(m.MemoryRestored),
    )


def challenge(c: Ctx, record_id: str, reason: str) -> Call[m.QueueChallenged]:
    """Flag a memory as wrong against the world, for a person to look at."""
    return Call(
        "POST",
        f"{API}/{c.cid()}/hygiene/memories/{seg(record_id)}/challenge",
        model(m.QueueChallenged),
        json={"reason": reason},
    )


def run_pass(
    c: Ctx, stage: Literal["rollup", "gist", "consolidation", "elaboration"]
) -> Call[m.PassStarted]:
    """Queue a run of a background pass over every input with new material."""
    return Call("POST", f"{API}/{c.cid()}/passes/{seg(stage)}/run", model(m.PassStarted))


def pass_run(c: Ctx, run_id: str) -> Call[m.PassRun]:
    """A pass run: status, counts, error code."""
    return Call(
        "GET", f"{API}/{c.cid()}/passes/runs/{seg(run_id)}", model(m.PassRun), idempotent=True
    )


FINAL_RUN_STATUSES = frozenset({"done", "failed"})


# The memory contract (docs/review.md) ------------------------------------------------

CONTRACT = {"contract_version": 1}


def contract_scope(scope: ContractScope | None) -> dict[str, Any]:
    """The contract's scope object; None is the whole Context, shared records."""
    return {"visibility": "shared"} if scope is None else dump(scope)


def commands(
    c: Ctx, command: m.MemoryCommand | Mapping[str, Any], *, scope: ContractScope | None = None
) -> Call[m.CommandResult]:
    """Create, update or delete a note at an expected revision."""
    payload = {"scope": contract_scope(scope), "command": {**CONTRACT, **dump(command)}}
    return Call("POST", f"{API}/memory/commands", model(m.CommandResult), json=payload)


def read(c: Ctx, record_id: str, *, scope: ContractScope | None = None) -> Call[m.ReadAnswer]:
    """One served record."""
    payload = {**CONTRACT, "scope": contract_scope(scope), "record_id": str(record_id)}
    return Call("POST", f"{API}/memory/read", model(m.ReadAnswer), json=payload, idempotent=True)


def search(
    c: Ctx,
    *,
    scope: ContractScope | None = None,
    query: str | None = None,
    vector: Sequence[float] | None = None,
    filter: m.SearchFilterIn | Mapping[str, Any] | None = None,
    limit: int | None = None,
) -> Call[m.SearchAnswer]:
    """Search served records by text and/or vector (no query and no vector: newest)."""
    payload = {
        **CONTRACT,
        "scope": contract_scope(scope),
        **body(
            query=query,
            vector=list(vector) if vector is not None else None,
            filter=dump(filter) if filter is not None else None,
            limit=limit,
        ),
    }
    return Call(
        "POST", f"{API}/memory/search", model(m.SearchAnswer), json=payload, idempotent=True
    )


def embeddings(
    c: Ctx,
    record_id: str,
    revision: int,
    vector: Sequence[float],
    *,
    scope: ContractScope | None = None,
    model_name: str | None = None,
) -> Call[m.EmbeddingAnswer]:
    """Attach a vector to exactly one revision of a record."""
    payload = {
        **CONTRACT,
        "scope": contract_scope(scope),
        "record_id": str(record_id),
        "revision": revision,
        "vector": list(vector),
        **body(model=model_name),
    }
    return Call("POST", f"{API}/memory/embeddings", model(m.EmbeddingAnswer), json=payload)


def reviews(
    c: Ctx, command: m.ReviewCommand | Mapping[str, Any], *, scope: ContractScope | None = None
) -> Call[m.ReceiptAnswer]:
    """A revision-checked review decision; with an `idempotency_key` safe to repeat."""
    payload = {"scope": contract_scope(scope), "command": {**CONTRACT, **dump(command)}}
    return Call("POST", f"{API}/memory/reviews", model(m.ReceiptAnswer), json=payload)


def review_state(
    c: Ctx, record_id: str, *, scope: ContractScope | None = None
) -> Call[m.ReviewStateAnswer]:
    """A record's revision and current review (no content)."""
    payload = {**CONTRACT, "scope": contract_scope(scope), "record_id": str(record_id)}
    return Call(
        "POST",
        f"{API}/memory/reviews/state",
        model(m.ReviewStateAnswer),
        json=payload,
        idempotent=True,
    )


def review_read(
    c: Ctx, record_id: str, revision: int, *, scope: ContractScope | None = None
) -> Call[m.ReceiptAnswer]:
    """The receipt of the decision that produced a revision."""
    payload = {
        **CONTRACT,
        "scope": contract_scope(scope),
        "record_id": str(record_id),
        "revision": revision,
    }
    return Call(
        "POST", f"{API}/memory/reviews/read", model(m.ReceiptAnswer), json=payload, idempotent=True
    )


def eligibility(
    c: Ctx, record_id: str, *, scope: ContractScope | None = None
) -> Call[m.EligibilityAnswer]:
    """Why a record is or is not served."""
    payload = {**CONTRACT, "scope": contract_scope(scope), "record_id": str(record_id)}
    return Call(
        "POST",
        f"{API}/memory/reviews/eligibility",
        model(m.EligibilityAnswer),
        json=payload,
        idempotent=True,
    )


# Contexts, keys, configuration, health (a key with grant:manage, or the admin token) --


def whoami(c: Ctx | None = None) -> Call[m.WhoAmI]:
    """The key's Context, principal and effective grants (`GET /whoami`): how a client
    created without `context_id` learns it. The admin token gets 400."""
    return Call("GET", f"{API}/whoami", model(m.WhoAmI), idempotent=True)


def record_history(
    c: Ctx, record_id: str, *, limit: int | None = None, cursor: str | None = None
) -> Call[m.RecordHistory]:
    """A record's revisions, newest first and content-free: cause, author, validity, the
    record that replaced it (`GET /memories/{id}/history`; `next_cursor` for older ones)."""
    return Call(
        "GET",
        f"{API}/{c.cid()}/memories/{seg(record_id)}/history",
        model(m.RecordHistory),
        params=params(limit=limit, cursor=cursor),
        idempotent=True,
    )


def context(c: Ctx) -> Call[m.ContextInfo]:
    """The Context's id, name and creation time."""
    return Call("GET", f"{API}/contexts/{c.cid()}", model(m.ContextInfo), idempotent=True)


def create_context(
    c: Ctx, name: str, *, owner_subject: str | None = None
) -> Call[m.CreatedContext]:
    """A new Context with the default configuration (admin token); with `owner_subject`
    its owner's key, every grant, is in the answer (`owner_key`, shown once)."""
    return Call(
        "POST",
        f"{API}/contexts",
        model(m.CreatedContext),
        json=body(name=name, owner_subject=owner_subject),
    )


def contexts(c: Ctx, *, limit: int | None = None) -> Paged[m.ContextInfo]:
    """Every Context, oldest first (admin token)."""
    first = Call(
        "GET", f"{API}/contexts", model(m.ContextList), params=params(limit=limit), idempotent=True
    )
    return _pages(first, lambda page: page.contexts)


def issue_key(
    c: Ctx,
    subject: str,
    grants: Sequence[str],
    *,
    scope: str | None = None,
    expires_at: str | None = None,
) -> Call[m.IssuedKey]:
    """Issue a key; its secret (`key`) is in this answer only."""
    payload = body(subject=subject, grants=list(grants), scope=scope, expires_at=expires_at)
    return Call("POST", f"{API}/contexts/{c.cid()}/keys", model(m.IssuedKey), json=payload)


def keys(c: Ctx, *, limit: int | None = None) -> Paged[m.KeyInfo]:
    """The Context's keys, never their secrets."""
    first = Call(
        "GET",
        f"{API}/contexts/{c.cid()}/keys",
        model(m.KeyList),
        params=params(limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.keys)


def revoke_key(c: Ctx, key_id: str) -> Call[m.RevokedKey]:
    """Revoke a key; it is refused from its next request on."""
    return Call("DELETE", f"{API}/contexts/{c.cid()}/keys/{seg(key_id)}", model(m.RevokedKey))


def config(c: Ctx) -> Call[m.ContextConfig]:
    """The Context's configuration, whole."""
    return Call("GET", f"{API}/contexts/{c.cid()}/config", model(m.ContextConfig), idempotent=True)


def patch_config(c: Ctx, patch: Mapping[str, Any]) -> Call[m.ContextConfig]:
    """A partial update: objects merge, `""` clears an addendum; answers the whole."""
    return Call(
        "PATCH", f"{API}/contexts/{c.cid()}/config", model(m.ContextConfig), json=dict(patch)
    )


def health(c: Ctx) -> Call[m.HealthReport]:
    """The service's health; its 503 (degraded or down) is answered as a report too."""
    return Call("GET", "/health", model(m.HealthReport), also_ok=frozenset({503}))


# Webhooks and erasures (grant:manage) ------------------------------------------------


def create_webhook(
    c: Ctx,
    url: str,
    events: Sequence[str],
    *,
    include_content: bool | None = None,
    description: str | None = None,
) -> Call[m.CreatedWebhook]:
    """Subscribe an endpoint to change-feed events; its signing `secret` is shown once."""
    payload = body(
        url=url, events=list(events), include_content=include_content, description=description
    )
    return Call("POST", f"{API}/{c.cid()}/webhooks", model(m.CreatedWebhook), json=payload)


def webhooks(c: Ctx, *, limit: int | None = None) -> Paged[m.Webhook]:
    """The Context's webhook subscriptions."""
    first = Call(
        "GET",
        f"{API}/{c.cid()}/webhooks",
        model(m.WebhookList),
        params=params(limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.webhooks)


def webhook(c: Ctx, webhook_id: str) -> Call[m.Webhook]:
    return Call(
        "GET", f"{API}/{c.cid()}/webhooks/{seg(webhook_id)}", model(m.Webhook), idempotent=True
    )


def patch_webhook(
    c: Ctx,
    webhook_id: str,
    *,
    url: str | None = None,
    events: Sequence[str] | None = None,
    include_content: bool | None = None,
    description: str | None = None,
    active: bool | None = None,
) -> Call[m.Webhook]:
    """Change a subscription; `active=True` resumes a paused one, `False` pauses it."""
    payload = body(
        url=url,
        events=list(events) if events is not None else None,
        include_content=include_content,
        description=description,
        active=active,
    )
    return Call(
        "PATCH", f"{API}/{c.cid()}/webhooks/{seg(webhook_id)}", model(m.Webhook), json=payload
    )


def delete_webhook(c: Ctx, webhook_id: str) -> Call[m.DeletedWebhook]:
    return Call("DELETE", f"{API}/{c.cid()}/webhooks/{seg(webhook_id)}", model(m.DeletedWebhook))


def rotate_secret(c: Ctx, webhook_id: str) -> Call[m.RotatedSecret]:
    """A new signing secret; the old one stops at once."""
    return Call(
        "POST",
        f"{API}/{c.cid()}/webhooks/{seg(webhook_id)}/rotate-secret",
        model(m.RotatedSecret),
    )


def deliveries(c: Ctx, webhook_id: str, *, limit: int | None = None) -> Paged[m.Delivery]:
    """A subscription's delivery attempts."""
    first = Call(
        "GET",
        f"{API}/{c.cid()}/webhooks/{seg(webhook_id)}/deliveries",
        model(m.DeliveryList),
        params=params(limit=limit),
        idempotent=True,
    )
    return _pages(first, lambda page: page.deliveries)


def erase(
    c: Ctx,
    *,
    record_ids: Sequence[str] | None = None,
    subject: str | None = None,
    speaker: str | None = None,
    scope_prefix: str | None = None,
    session_id: str | None = None,
    document_id: str | None = None,
) -> Call[m.ErasureStarted]:
    """Start erasing what one target names (records, a subject, a speaker, a scope, a
    session or a document): a job that leaves content-free tombstones."""
    payload = body(
        recordIds=ids(record_ids),
        subject=subject,
        speaker=speaker,
        scopePrefix=scope_prefix,
        sessionId=session_id,
        documentId=document_id,
    )
    return Call("POST", f"{API}/{c.cid()}/erasures", model(m.ErasureStarted), json=payload)


def erasure(c: Ctx, erasure_id: str) -> Call[m.Erasure]:
    return Call(
        "GET", f"{API}/{c.cid()}/erasures/{seg(erasure_id)}", model(m.Erasure), idempotent=True
    )
