"""CrewAI's memory storage on memwarden's memory contract: `MemwardenStorage`.

    from crewai import Memory
    memory = Memory(storage=MemwardenStorage(Memwarden(url, key)), embedder=embed_384)

CrewAI (1.x) keeps its unified `Memory` in a pluggable `StorageBackend`
(`crewai.memory.storage.backend`): it analyses what to remember (scope, categories,
importance) and embeds it itself, then hands the storage finished `MemoryRecord`s and, to
search, a query vector. Each record is one memory-contract note (docs/clients/crewai.md):

- the record's scope path is the note's scope: `/crew/research` is the project id
  `crew/research` (the scope path `project/crew/research`); a search, listing, count or
  reset under `/crew` covers every scope below it;
- the record's id is the note's id (a UUID; another id is mapped to a UUID derived from
  it), and its content, categories, metadata, importance, source and `private` flag are
  kept whole in the note's text;
- its embedding is attached to the note's revision: the memory contract's vectors have
  384 dimensions, so the `Memory` needs an embedder of that width;
- `search` is the contract's vector search, narrowed to the prefix, the categories and the
  metadata asked for; `update` writes a new revision at the expected one; `delete` and
  `reset` delete notes (their history stays).

memwarden's own judgement applies to every save: a note the judge refuses raises
`JudgeRefused` (reason codes, never the content) and a held one is kept back until a
reviewer approves it (it is not searchable until then, and gets no vector).

This module imports nothing from crewai: it implements the protocol's methods, so it runs
wherever `memwarden-client[crewai]` is installed.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from memwarden_client.client import Memwarden
from memwarden_client.errors import Conflict, NotFound
from memwarden_client.integrations import _items

MARKER = "memwarden-crewai-record"
DIMENSIONS = 384  # the memory contract's vector width
NOTES = {"kinds": ["note"]}
MODEL_NAME = "crewai-memory"
_ID_SPACE = uuid.UUID("0c5f7a8e-2b6d-5e41-9c3a-637265776169")


def _record_type() -> Any:
    """crewai's `MemoryRecord`, imported when a record is built (crewai is optional)."""
    from crewai.memory.types import MemoryRecord

    return MemoryRecord


def _scope_info_type() -> Any:
    from crewai.memory.types import ScopeInfo

    return ScopeInfo


def labels(scope: str | None) -> tuple[str, ...]:
    """A CrewAI scope path as scope labels: `/crew/research` is ("crew", "research")."""
    parts = tuple(p for p in (scope or "").split("/") if p)
    try:
        return _items.check_namespace(parts, allow_empty=True)
    except _items.NamespaceError as exc:
        raise ValueError(f"CrewAI scope {scope!r} cannot be a memwarden scope: {exc}") from exc


def crew_path(parts: Sequence[str]) -> str:
    return "/" + "/".join(parts)


def under(path: str, prefix: str | None) -> bool:
    """Whether the scope `path` is `prefix` or below it (None and "/" cover everything)."""
    base = crew_path(labels(prefix))
    return base == "/" or path == base or path.startswith(base + "/")


def note_id(record_id: str) -> str:
    """The note's id: the record's own when it is a UUID, else one derived from it."""
    try:
        return str(uuid.UUID(str(record_id)))
    except ValueError:
        return str(uuid.uuid5(_ID_SPACE, str(record_id)))


def naive_utc(value: datetime) -> datetime:
    """CrewAI's times are naive UTC (`datetime.utcnow()`); an aware one is converted."""
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value


def _iso(value: datetime) -> str:
    return naive_utc(value).isoformat()


def encode(record: Any) -> str:
    """The note's text: a marker line with the record's id, then the record as JSON."""
    body = {
        "id": record.id,
        "content": record.content,
        "scope": crew_path(labels(record.scope)),
        "categories": list(record.categories),
        "metadata": dict(record.metadata),
        "importance": record.importance,
        "created_at": _iso(record.created_at),
        "last_accessed": _iso(record.last_accessed),
        "source": record.source,
        "private": record.private,
    }
    text = f"{MARKER} {record.id}\n{json.dumps(body, ensure_ascii=False, default=str)}"
    if len(text) > _items.MAX_CONTENT:
        raise ValueError(
            f"the memory is {len(text)} characters as a note; a memory-contract note holds"
            f" at most {_items.MAX_CONTENT}"
        )
    return text


def decode(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The CrewAI record's fields a note holds, or None for a note this storage did not write."""
    content = record.get("content")
    text = content.get("text") if isinstance(content, Mapping) else None
    if not isinstance(text, str) or not text.startswith(MARKER + " "):
        return None
    head, _, rest = text.partition("\n")
    try:
        body = json.loads(rest)
    except json.JSONDecodeError:
        return None
    if not isinstance(body, dict) or head != f"{MARKER} {body.get('id')}":
        return None
    body["_note_id"] = str(record.get("id"))
    body["_revision"] = int(record.get("revision") or 0)
    return body


def matches(
    body: Mapping[str, Any],
    scope_prefix: str | None,
    categories: Sequence[str] | None,
    metadata_filter: Mapping[str, Any] | None,
    older_than: datetime | None = None,
) -> bool:
    """CrewAI's filters: under the prefix, any of the categories, every metadata pair."""
    if not under(str(body.get("scope") or "/"), scope_prefix):
        return False
    if categories and not set(categories) & set(body.get("categories") or ()):
        return False
    metadata = body.get("metadata") or {}
    if metadata_filter and any(metadata.get(k) != v for k, v in metadata_filter.items()):
        return False
    if older_than is not None:
        created = naive_utc(datetime.fromisoformat(str(body["created_at"])))
        if created >= naive_utc(older_than):
            return False
    return True


class MemwardenStorage:
    """A CrewAI `StorageBackend` whose records are memwarden memory-contract notes.

    `client` is a `Memwarden` (its Context id may be left to `/whoami`);
    `visibility="private"` keeps every note readable by the key's subject only. The async
    methods run the sync ones in a thread.
    """

    def __init__(self, client: Memwarden, *, visibility: str = "shared") -> None:
        if visibility not in ("shared", "private"):
            raise ValueError("visibility is 'shared' or 'private'")
        self.client = client
        self.visibility = visibility

    def _scope(self, scope: str | None) -> dict[str, Any]:
        return _items.scope_for(labels(scope), self.visibility)

    # Writing ---------------------------------------------------------------------------

    def save(self, records: list[Any]) -> None:
        for record in records:
            self._check_vector(record.embedding)
            command = {"op": "create", "record_id": note_id(record.id), "content": encode(record)}
            result = self.client.memory.commands(command, scope=self._scope(record.scope))
            self._attach(record, result)

    def update(self, record: Any) -> None:
        """The record's new fields as the note's next revision (a racing change is read
        again, at most a few times)."""
        self._check_vector(record.embedding)
        for _ in range(4):
            current = self._read(record.id)
            if current is None:
                raise KeyError(f"no memory {record.id!r}")
            command = {
                "op": "update",
                "record_id": current["_note_id"],
                "expected_revision": current["_revision"],
                "content": encode(record),
            }
            try:
                result = self.client.memory.commands(command, scope=self._scope(record.scope))
            except Conflict:
                continue
            self._attach(record, result)
            return
        raise RuntimeError(f"the memory {record.id!r} kept changing while it was updated")

    def _check_vector(self, embedding: Sequence[float] | None) -> None:
        if embedding and len(embedding) != DIMENSIONS:
            raise ValueError(
                f"the memory contract's vectors have {DIMENSIONS} dimensions, this embedder"
                f" gave {len(embedding)}: give the CrewAI Memory an embedder of {DIMENSIONS}"
            )

    def _attach(self, record: Any, result: Any) -> None:
        """The record's vector on the revision just written; a held note gets none (it is
        not served until a reviewer approves it)."""
        if not record.embedding or result.held:
            return
        self.client.memory.embeddings(
            result.record_id,
            result.revision,
            [float(x) for x in record.embedding],
            scope=self._scope(record.scope),
            model_name=MODEL_NAME,
        )

    def delete(
        self,
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        record_ids: list[str] | None = None,
        older_than: datetime | None = None,
        metadata_filter: dict[str, Any] | None = None,
    ) -> int:
        if record_ids is not None:
            found = [body for rid in record_ids if (body := self._read(rid)) is not None]
        else:
            found = self._all(scope_prefix)
        doomed = [
            b for b in found if matches(b, scope_prefix, categories, metadata_filter, older_than)
        ]
        return sum(self._delete(body) for body in doomed)

    def _delete(self, body: Mapping[str, Any]) -> int:
        command = {
            "op": "delete",
            "record_id": body["_note_id"],
            "expected_revision": body["_revision"],
        }
        for _ in range(4):
            try:
                self.client.memory.commands(command, scope=self._scope(str(body["scope"])))
                return 1
            except NotFound:
                return 0  # gone meanwhile
            except Conflict:
                current = self._read(str(body["id"]))
                if current is None:
                    return 0
                command["expected_revision"] = current["_revision"]
        raise RuntimeError(f"the memory {body['id']!r} kept changing while it was deleted")

    def reset(self, scope_prefix: str | None = None) -> None:
        self.delete(scope_prefix=scope_prefix)

    # Reading ---------------------------------------------------------------------------

    def search(
        self,
        query_embedding: list[float],
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        metadata_filter: dict[str, Any] | None = None,
        limit: int = 10,
        min_score: float = 0.0,
    ) -> list[tuple[Any, float]]:
        """The contract's vector search under the prefix, then CrewAI's own filters."""
        if not query_embedding:
            return []
        self._check_vector(query_embedding)
        filtering = bool(categories or metadata_filter)
        answer = self.client.memory.search(
            scope=self._scope(scope_prefix),
            vector=[float(x) for x in query_embedding],
            filter=NOTES,
            limit=_items.MAX_SEARCH if filtering else max(1, min(limit, _items.MAX_SEARCH)),
        )
        out: list[tuple[Any, float]] = []
        for hit in answer.hits:
            body = decode(hit.record.model_dump())
            score = float(hit.score or 0.0)
            if body is None or score < min_score:
                continue
            if matches(body, scope_prefix, categories, metadata_filter):
                out.append((self._build(body), score))
        return out[:limit]

    def get_record(self, record_id: str) -> Any | None:
        body = self._read(record_id)
        return self._build(body) if body is not None else None

    def list_records(
        self, scope_prefix: str | None = None, limit: int = 200, offset: int = 0
    ) -> list[Any]:
        """Newest first."""
        bodies = sorted(
            self._all(scope_prefix),
            key=lambda b: naive_utc(datetime.fromisoformat(str(b["created_at"]))),
            reverse=True,
        )
        return [self._build(b) for b in bodies[offset : offset + limit]]

    def get_scope_info(self, scope: str) -> Any:
        path = crew_path(labels(scope))
        bodies = self._all(path)
        child_base = path.rstrip("/") + "/"
        children = {
            child_base + str(b["scope"])[len(child_base) :].split("/", 1)[0]
            for b in bodies
            if str(b["scope"]).startswith(child_base)
        }
        created = [naive_utc(datetime.fromisoformat(str(b["created_at"]))) for b in bodies]
        return _scope_info_type()(
            path=path,
            record_count=len(bodies),
            categories=sorted({c for b in bodies for c in b.get("categories") or ()}),
            oldest_record=min(created) if created else None,
            newest_record=max(created) if created else None,
            child_scopes=sorted(children),
        )

    def list_scopes(self, parent: str = "/") -> list[str]:
        return list(self.get_scope_info(parent).child_scopes)

    def list_categories(self, scope_prefix: str | None = None) -> dict[str, int]:
        counts: dict[str, int] = {}
        for body in self._all(scope_prefix):
            for category in body.get("categories") or ():
                counts[category] = counts.get(category, 0) + 1
        return counts

    def count(self, scope_prefix: str | None = None) -> int:
        return len(self._all(scope_prefix))

    def _read(self, record_id: str) -> dict[str, Any] | None:
        """The note of one record wherever its scope is (the scope object with no project
        reads the whole Context the key can read)."""
        try:
            answer = self.client.memory.read(
                note_id(record_id), scope={"visibility": self.visibility}
            )
        except NotFound:
            return None
        return decode(answer.record.model_dump())

    def _all(self, scope_prefix: str | None) -> list[dict[str, Any]]:
        """Every served record under the prefix: the newest notes when they fit in one
        search, else every note the change feed names, each read once."""
        answer = self.client.memory.search(
            scope=self._scope(scope_prefix), filter=NOTES, limit=_items.MAX_SEARCH
        )
        if len(answer.hits) < _items.MAX_SEARCH:
            bodies = [decode(hit.record.model_dump()) for hit in answer.hits]
        else:
            live: dict[str, None] = {}
            for entry in self.client.changes(limit=1000):
                if entry.kind != "note" or not entry.record_id:
                    continue
                if entry.entry_type == "deleted":
                    live.pop(entry.record_id, None)
                else:
                    live[entry.record_id] = None
            bodies = [self._read(record_id) for record_id in live]
        return [b for b in bodies if b is not None and under(str(b["scope"]), scope_prefix)]

    def _build(self, body: Mapping[str, Any]) -> Any:
        return _record_type()(
            id=body["id"],
            content=body["content"],
            scope=body["scope"],
            categories=body.get("categories") or [],
            metadata=body.get("metadata") or {},
            importance=body.get("importance", 0.5),
            created_at=naive_utc(datetime.fromisoformat(str(body["created_at"]))),
            last_accessed=naive_utc(datetime.fromisoformat(str(body["last_accessed"]))),
            source=body.get("source"),
            private=bool(body.get("private")),
        )

    # Async -----------------------------------------------------------------------------

    async def asave(self, records: list[Any]) -> None:
        await asyncio.to_thread(self.save, records)

    async def asearch(
        self,
        query_embedding: list[float],
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        metadata_filter: dict[str, Any] | None = None,
        limit: int = 10,
        min_score: float = 0.0,
    ) -> list[tuple[Any, float]]:
        args = (query_embedding, scope_prefix, categories, metadata_filter, limit, min_score)
        return await asyncio.to_thread(self.search, *args)

    async def adelete(
        self,
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        record_ids: list[str] | None = None,
        older_than: datetime | None = None,
        metadata_filter: dict[str, Any] | None = None,
    ) -> int:
        return await asyncio.to_thread(
            self.delete, scope_prefix, categories, record_ids, older_than, metadata_filter
        )
