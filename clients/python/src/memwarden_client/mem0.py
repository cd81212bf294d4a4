"""A mem0-shaped facade over memwarden: `Memory(client)` and `AsyncMemory(client)`.

Code written against mem0's `Memory` verbs keeps working, with memwarden's judge,
reconciliation and review underneath. How mem0's ids map (docs/clients/mem0-migration.md):

- `user_id="alice"` is the scope `user/alice`: first person in her messages is her own
  entity, and what she says is hers, not a shared "user".
- `agent_id="bot"` adds the segment `agent/bot` (`user/alice/agent/bot`, or `agent/bot`
  without a user).
- `run_id="r1"` is a session: the first `add` of a run starts one and later adds of the
  same run continue it (kept by this `Memory` object). Reads are not narrowed by run.
- `add(messages)` writes one turn of the user's messages to `/facts`. Assistant and
  system messages are left out: memwarden resolves "I" to the speaker, so an assistant's
  "I am a robot" would become a fact about the user (and a line starting `assistant:`
  reads as a forged role header to the injection scanner). `infer=False` stores the turn
  without extraction (`infer: none`): searchable as text, not as records.
- `metadata` is not stored (memwarden keeps provenance itself); passing it warns.
- `get`, `update`, `delete` and `history` work on record ids through the memory contract:
  `update` of a note is a revision-checked command; of an extracted record it is a new
  write of the text in the record's scope, after which the old record leaves serving
  (superseded by reconciliation when it sees the replacement, else deleted at its
  revision; its history stays either way). `history` reads the change feed.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from memwarden_client import models as m
from memwarden_client.client import AsyncMemwarden, Memwarden
from memwarden_client.errors import NotFound

Messages = str | Mapping[str, Any] | Sequence[Mapping[str, Any]]

FACT_KINDS = ["attribute", "relation", "action", "instruction", "uncertainty", "note"]
RECORD_LISTS = ("attributes", "relations", "actions", "instructions", "uncertainties")
EVENTS = {
    "created": "ADD",
    "updated": "UPDATE",
    "superseded": "UPDATE",
    "deleted": "DELETE",
}
SHARED: dict[str, Any] = {"visibility": "shared"}
PRIVATE: dict[str, Any] = {"visibility": "private"}


def scope_path(user_id: str | None, agent_id: str | None) -> str | None:
    """`user/<user_id>` and/or `agent/<agent_id>`; None is the Context root."""
    parts: list[str] = []
    if user_id:
        parts += ["user", str(user_id)]
    if agent_id:
        parts += ["agent", str(agent_id)]
    return "/".join(parts) or None


def require_ids(user_id: str | None, agent_id: str | None, run_id: str | None) -> None:
    if not (user_id or agent_id or run_id):
        raise ValueError("at least one of user_id, agent_id or run_id must be given")


def user_text(messages: Messages) -> str:
    """The user's messages as one turn's text (a plain string is one user message)."""
    if isinstance(messages, str):
        return messages
    items = [messages] if isinstance(messages, Mapping) else list(messages)
    said = [
        str(item.get("content") or "").strip()
        for item in items
        if str(item.get("role", "user")) == "user"
    ]
    return "\n".join(s for s in said if s)


def _warn_metadata(metadata: Mapping[str, Any] | None) -> None:
    if metadata:
        warnings.warn(
            "memwarden does not store mem0 metadata; it was dropped", UserWarning, stacklevel=3
        )


def _kinds(filters: Mapping[str, Any] | None) -> tuple[list[str], list[str] | None]:
    """mem0 `filters` that memwarden can apply: `kinds` and `categories`, nothing else."""
    filters = dict(filters or {})
    kinds = list(filters.pop("kinds", FACT_KINDS))
    categories = filters.pop("categories", None)
    if filters:
        raise ValueError(
            f"memwarden cannot filter on {sorted(filters)}: only kinds and categories "
            "(mem0 metadata is not stored)"
        )
    return kinds, list(categories) if categories is not None else None


def _ids(path: str | None) -> dict[str, Any]:
    """user_id and agent_id read back from a scope path."""
    segments = (path or "").split("/")
    pairs = dict(zip(segments[::2], segments[1::2], strict=False))
    return {"user_id": pairs.get("user"), "agent_id": pairs.get("agent")}


def hit_item(hit: m.MemoryHit) -> dict[str, Any]:
    return {
        "id": hit.id,
        "memory": hit.text or "",
        "score": hit.score,
        "kind": hit.kind,
        "created_at": hit.valid_from,
        "updated_at": None,
        "metadata": {"scope": hit.scope.path, "source": hit.source.kind},
        **_ids(hit.scope.path),
    }


def record_item(record: m.ContractRecord) -> dict[str, Any]:
    path = record.scope.path
    return {
        "id": record.id,
        "memory": record.body or "",
        "kind": record.kind,
        "revision": record.revision,
        "created_at": record.created_at,
        "updated_at": record.modified_at,
        "metadata": {"scope": path, "visibility": record.scope.visibility},
        **_ids(path),
    }


def wanted(kinds: list[str], categories: list[str] | None) -> dict[str, Any]:
    return {"kinds": kinds, **({"categories": categories} if categories else {})}


def kept(found: m.SearchAnswer, prefix: str | None, limit: int) -> list[dict[str, Any]]:
    """The hits under `prefix`, as mem0 items (the contract's scope object cannot name a
    user, so the search runs over the Context and is narrowed here)."""
    items = [record_item(h.record) for h in found.hits if under(h.record.scope.path, prefix)]
    return items[:limit]


def under(path: str | None, prefix: str | None) -> bool:
    if not prefix:
        return True
    return path == prefix or (path or "").startswith(prefix + "/")


def added(written: m.FactsResponse, text: str, infer: bool) -> list[dict[str, Any]]:
    """mem0's `results` of an add: the new records (or, without inference, the turn)."""
    if not infer:
        return [{"id": written.turn_id, "memory": text, "event": "ADD", "kind": "turn"}]
    if written.held:
        return [{"id": written.turn_id, "memory": text, "event": "HELD", "kind": "turn"}]
    extraction = written.extraction.model_dump(by_alias=True)
    names = {e.get("id"): e.get("name") for e in extraction.get("entities") or []}
    out: list[dict[str, Any]] = []
    for name in RECORD_LISTS:
        for entry in extraction.get(name) or []:
            if isinstance(entry, dict) and entry.get("id"):
                event = "ADD" if entry.get("isNew", True) else "NONE"
                text = _entry_text(entry, names.get(entry.get("entityId")))
                out.append({"id": entry["id"], "memory": text, "event": event})
    return out


def _entry_text(entry: Mapping[str, Any], entity: str | None) -> str:
    if "key" in entry:
        return f"{entity or ''} — {entry['key']}: {entry.get('value', '')}".strip(" —")
    if "label" in entry:
        label = str(entry["label"]).replace("_", " ")
        return " ".join(str(p) for p in (entry.get("subject"), label, entry.get("object")) if p)
    return str(entry.get("text") or entry.get("about") or entry.get("description") or "")


def visibility_of(record: m.ContractRecord) -> dict[str, Any]:
    return PRIVATE if record.scope.visibility == "private" else SHARED


def note_update(record: m.ContractRecord, data: str) -> dict[str, Any]:
    return {
        "op": "update",
        "record_id": record.id,
        "expected_revision": record.revision,
        "content": data,
    }


def note_delete(memory_id: str, revision: int) -> dict[str, Any]:
    return {"op": "delete", "record_id": memory_id, "expected_revision": revision}


def updated(written: m.FactsResponse, memory_id: str, data: str) -> dict[str, Any]:
    """mem0's answer to an update made as a new write in the record's scope."""
    new = [item["id"] for item in added(written, data, True)]
    return {"message": "Memory updated successfully!", "id": memory_id, "replaced_by": new}


def history_item(change: m.ChangeEntry) -> dict[str, Any]:
    return {
        "id": str(change.seq),
        "memory_id": change.record_id,
        "event": EVENTS.get(change.entry_type, change.entry_type.upper()),
        "revision": change.revision,
        "created_at": change.at,
    }


class Memory:
    """mem0's `Memory` verbs on a `Memwarden` client."""

    def __init__(self, client: Memwarden) -> None:
        self.client = client
        self.sessions: dict[str, str] = {}

    def add(
        self,
        messages: Messages,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
    ) -> dict[str, Any]:
        require_ids(user_id, agent_id, run_id)
        _warn_metadata(metadata)
        text = user_text(messages)
        if not text:
            return {"results": []}
        written = self.client.remember(
            text,
            scope=scope_path(user_id, agent_id),
            session_id=self.sessions.get(run_id) if run_id else None,
            infer=infer,
        )
        if run_id:
            self.sessions[run_id] = written.session_id
        return {"results": added(written, text, infer)}

    def search(
        self,
        query: str,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int = 100,
        filters: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        require_ids(user_id, agent_id, run_id)
        kinds, categories = _kinds(filters)
        found = self.client.query(
            query,
            scope=scope_path(user_id, agent_id),
            limit=min(max(limit, 1), 100),
            kinds=kinds,
            categories=categories,
        )
        return {"results": [hit_item(hit) for hit in found.hits]}

    def get_all(
        self,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        filters: Mapping[str, Any] | None = None,
        limit: int = 100,
    ) -> dict[str, Any]:
        """The newest records under the ids' scope, among the newest 100 the key reads."""
        kinds, categories = _kinds(filters)
        prefix = scope_path(user_id, agent_id)
        found = self.client.memory.search(scope=SHARED, filter=wanted(kinds, categories), limit=100)
        return {"results": kept(found, prefix, limit)}

    def _record(self, memory_id: str) -> m.ContractRecord | None:
        for scope in (SHARED, PRIVATE):
            try:
                return self.client.memory.read(memory_id, scope=scope).record
            except NotFound:
                continue
        return None

    def get(self, memory_id: str) -> dict[str, Any] | None:
        record = self._record(memory_id)
        return record_item(record) if record else None

    def update(self, memory_id: str, data: str) -> dict[str, Any]:
        record = self._record(memory_id)
        if record is None:
            raise NotFound(404, "not_found", "no such memory", "memory_id")
        scope = visibility_of(record)
        if record.kind == "note":
            self.client.memory.commands(note_update(record, data), scope=scope)
            return {"message": "Memory updated successfully!", "id": memory_id}
        written = self.client.remember(
            data, scope=record.scope.path, visibility=scope["visibility"]
        )
        if written.held:
            return {"message": "Memory update held for review", "id": memory_id}
        still = self._record(memory_id)
        if still is not None:  # reconciliation did not replace it: it leaves serving
            self.client.memory.commands(note_delete(memory_id, still.revision), scope=scope)
        return updated(written, memory_id, data)

    def delete(self, memory_id: str) -> dict[str, Any]:
        for scope in (SHARED, PRIVATE):
            try:
                state = self.client.memory.review_state(memory_id, scope=scope).state
            except NotFound:
                continue
            self.client.memory.commands(note_delete(memory_id, state.revision), scope=scope)
            return {"message": "Memory deleted successfully!"}
        raise NotFound(404, "not_found", "no such memory", "memory_id")

    def delete_all(
        self,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> dict[str, Any]:
        require_ids(user_id, agent_id, run_id)
        while True:
            batch = self.get_all(user_id=user_id, agent_id=agent_id)["results"]
            if not batch:
                return {"message": "Memories deleted successfully!"}
            for item in batch:
                self.delete(item["id"])

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        """The record's changes in commit order (ids and kinds; content of the current
        revision only, since memwarden's feed never carries content)."""
        events = [history_item(c) for c in self.client.changes() if c.record_id == memory_id]
        current = self._record(memory_id)
        if events and current is not None:
            events[-1]["new_memory"] = current.body
        return events


class AsyncMemory:
    """The same verbs on an `AsyncMemwarden` client, awaited."""

    def __init__(self, client: AsyncMemwarden) -> None:
        self.client = client
        self.sessions: dict[str, str] = {}

    async def add(
        self,
        messages: Messages,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
    ) -> dict[str, Any]:
        require_ids(user_id, agent_id, run_id)
        _warn_metadata(metadata)
        text = user_text(messages)
        if not text:
            return {"results": []}
        written = await self.client.remember(
            text,
            scope=scope_path(user_id, agent_id),
            session_id=self.sessions.get(run_id) if run_id else None,
            infer=infer,
        )
        if run_id:
            self.sessions[run_id] = written.session_id
        return {"results": added(written, text, infer)}

    async def search(
        self,
        query: str,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int = 100,
        filters: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        require_ids(user_id, agent_id, run_id)
        kinds, categories = _kinds(filters)
        found = await self.client.query(
            query,
            scope=scope_path(user_id, agent_id),
            limit=min(max(limit, 1), 100),
            kinds=kinds,
            categories=categories,
        )
        return {"results": [hit_item(hit) for hit in found.hits]}

    async def get_all(
        self,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        filters: Mapping[str, Any] | None = None,
        limit: int = 100,
    ) -> dict[str, Any]:
        """The newest records under the ids' scope, among the newest 100 the key reads."""
        kinds, categories = _kinds(filters)
        prefix = scope_path(user_id, agent_id)
        found = await self.client.memory.search(
            scope=SHARED, filter=wanted(kinds, categories), limit=100
        )
        return {"results": kept(found, prefix, limit)}

    async def _record(self, memory_id: str) -> m.ContractRecord | None:
        for scope in (SHARED, PRIVATE):
            try:
                return (await self.client.memory.read(memory_id, scope=scope)).record
            except NotFound:
                continue
        return None

    async def get(self, memory_id: str) -> dict[str, Any] | None:
        record = await self._record(memory_id)
        return record_item(record) if record else None

    async def update(self, memory_id: str, data: str) -> dict[str, Any]:
        record = await self._record(memory_id)
        if record is None:
            raise NotFound(404, "not_found", "no such memory", "memory_id")
        scope = visibility_of(record)
        if record.kind == "note":
            await self.client.memory.commands(note_update(record, data), scope=scope)
            return {"message": "Memory updated successfully!", "id": memory_id}
        written = await self.client.remember(
            data, scope=record.scope.path, visibility=scope["visibility"]
        )
        if written.held:
            return {"message": "Memory update held for review", "id": memory_id}
        still = await self._record(memory_id)
        if still is not None:  # reconciliation did not replace it: it leaves serving
            await self.client.memory.commands(note_delete(memory_id, still.revision), scope=scope)
        return updated(written, memory_id, data)

    async def delete(self, memory_id: str) -> dict[str, Any]:
        for scope in (SHARED, PRIVATE):
            try:
                state = (await self.client.memory.review_state(memory_id, scope=scope)).state
            except NotFound:
                continue
            await self.client.memory.commands(note_delete(memory_id, state.revision), scope=scope)
            return {"message": "Memory deleted successfully!"}
        raise NotFound(404, "not_found", "no such memory", "memory_id")

    async def delete_all(
        self,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> dict[str, Any]:
        require_ids(user_id, agent_id, run_id)
        while True:
            batch = (await self.get_all(user_id=user_id, agent_id=agent_id))["results"]
            if not batch:
                return {"message": "Memories deleted successfully!"}
            for item in batch:
                await self.delete(item["id"])

    async def history(self, memory_id: str) -> list[dict[str, Any]]:
        """The record's changes in commit order (ids and kinds; content of the current
        revision only, since memwarden's feed never carries content)."""
        events = [history_item(c) async for c in self.client.changes() if c.record_id == memory_id]
        current = await self._record(memory_id)
        if events and current is not None:
            events[-1]["new_memory"] = current.body
        return events
