"""LangGraph's long-term store on memwarden's memory contract: `MemwardenStore(BaseStore)`.

    store = MemwardenStore(Memwarden(url, key, context_id=cid))
    graph = builder.compile(store=store)

Each item is one memory-contract note (docs/clients/langgraph.md):

- the namespace is the scope: ("users", "alice") is the project id `users/alice`, the
  scope path `project/users/alice`; a search or listing under ("users",) reads every
  namespace below it;
- `put` creates or updates the note at its expected revision (a concurrent change is
  read again and the put retried), `delete` deletes it (its history stays), `ttl`
  minutes become the note's `expires_at` (memwarden stops serving it then);
- the value dict is kept whole (as JSON in the note's text) and `get` returns it as it
  was put; the item's key is found again by a word derived from namespace and key;
- `search` is the contract's search within the namespace prefix: `query` by its words,
  plus vectors when the store has an `index` with an `embed` function (hybrid), `filter`
  applied to the values.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

from memwarden_client.errors import Conflict, NotFound
from memwarden_client.integrations import _items
from memwarden_client.integrations._items import NamespaceError, StoredItem
from memwarden_client.integrations._plans import Plan, Request, arun, run

NOTES = {"kinds": ["note"]}
ATTEMPTS = 4  # a put or delete read again after this many concurrent changes gives up
DIMENSIONS = 384  # the memory contract's vector width


class MemwardenStore(BaseStore):
    """A LangGraph `BaseStore` whose items are memwarden memory-contract notes.

    `client` is a `Memwarden`, `async_client` an `AsyncMemwarden` (without one, `abatch`
    runs the sync client in a thread). `visibility="private"` keeps every item readable
    by the key's subject only. `index={"embed": ..., "fields": [...]}` attaches a
    384-dimension vector to each put's revision and makes `search(query=...)` hybrid.
    """

    supports_ttl = True
    listing_limit = _items.MAX_SEARCH  # a listing search this full reads the feed instead

    def __init__(
        self,
        client: Any = None,
        *,
        async_client: Any = None,
        visibility: str = "shared",
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> None:
        if client is None and async_client is None:
            raise ValueError("MemwardenStore needs a Memwarden client, an AsyncMemwarden, or both")
        if visibility not in ("shared", "private"):
            raise ValueError("visibility is 'shared' or 'private'")
        self.client = client
        self.async_client = async_client
        self.visibility = visibility
        self.ttl_config = ttl
        self.index_config = index
        self.embeddings = ensure_embeddings(index["embed"]) if index and "embed" in index else None
        if index and index.get("dims", DIMENSIONS) != DIMENSIONS:
            raise ValueError(f"the memory contract's vectors have {DIMENSIONS} dimensions")
        fields = (index or {}).get("fields") or ["$"]
        self._fields = [(path, tokenize_path(path)) for path in fields]

    # BaseStore ----------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self.client is None:
            raise TypeError("this MemwardenStore has only an async client: use abatch")
        local: dict[str, Any] = {"changes": self._changes}
        if self.embeddings is not None:
            local["embed"] = self._embed
        return [run(self.client.memory, self._plan(op), local) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self.async_client is None:
            return await asyncio.to_thread(self.batch, list(ops))
        local: dict[str, Any] = {"changes": self._achanges}
        if self.embeddings is not None:
            local["embed"] = self._aembed
        return [await arun(self.async_client.memory, self._plan(op), local) for op in ops]

    # Plans --------------------------------------------------------------------------

    def _plan(self, op: Op) -> Plan[Result]:
        """The op's plan, its namespace checked first (a scope path's segment rules)."""
        try:
            if isinstance(op, GetOp | PutOp):
                _items.check_namespace(op.namespace)
            elif isinstance(op, SearchOp):
                _items.check_namespace(op.namespace_prefix, allow_empty=True)
            for condition in getattr(op, "match_conditions", None) or ():
                _items.check_namespace([p for p in condition.path if p != "*"], allow_empty=True)
        except NamespaceError as exc:
            raise InvalidNamespaceError(str(exc)) from exc
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            return self._put(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list(op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    def _scope(self, namespace: Sequence[str]) -> dict[str, Any]:
        return _items.scope_for(namespace, self.visibility)

    def _find(self, namespace: tuple[str, ...], key: str) -> Plan[StoredItem | None]:
        """The served note of one item (the newest, should a race have made two)."""
        answer = yield Request(
            "search",
            {
                "scope": self._scope(namespace),
                "query": _items.token(namespace, key),
                "filter": NOTES,
                "limit": 10,
            },
        )
        found = [_items.decode(hit.record.model_dump()) for hit in answer.hits]
        mine = [i for i in found if i and i.namespace == namespace and i.key == key]
        return max(mine, key=lambda i: i.updated_at) if mine else None

    def _get(self, op: GetOp) -> Plan[Item | None]:
        namespace = _items.check_namespace(op.namespace)
        item = yield from self._find(namespace, op.key)
        if item is None:
            return None
        if op.refresh_ttl:
            item = yield from self._refresh(item)
        return _item(item)

    def _put(self, op: PutOp) -> Plan[None]:
        namespace = _items.check_namespace(op.namespace)
        scope = self._scope(namespace)
        current = yield from self._find(namespace, op.key)
        if op.value is None:
            yield from self._delete(namespace, op.key, current)
            return None
        text = _items.encode(namespace, op.key, op.value, op.ttl)
        expires = _items.expires_at(op.ttl)
        first_id_taken = False
        for _ in range(ATTEMPTS):
            try:
                if current is None:
                    command: dict[str, Any] = {"op": "create", "content": text}
                    if not first_id_taken:
                        command["record_id"] = _items.first_record_id(namespace, op.key)
                    if expires is not None:
                        command["expires_at"] = expires
                else:
                    command = {
                        "op": "update",
                        "record_id": current.record_id,
                        "expected_revision": current.revision,
                        "content": text,
                        "expires_at": expires,
                    }
                result = yield Request("commands", {"command": command, "scope": scope})
            except Conflict as exc:
                first_id_taken = first_id_taken or exc.code == "record_exists"
            except NotFound:
                pass  # expired or deleted since it was read: create it anew
            else:
                # A held note is hidden until a reviewer approves it: no vector attaches.
                if op.index is not False and self.embeddings is not None and not result.held:
                    text_to_embed = self._text(op.value, op.index)
                    yield from self._attach(scope, result.record_id, result.revision, text_to_embed)
                return None
            current = yield from self._find(namespace, op.key)
        raise RuntimeError(f"the item {op.key!r} kept changing while it was put")

    def _delete(
        self, namespace: tuple[str, ...], key: str, current: StoredItem | None
    ) -> Plan[None]:
        for _ in range(ATTEMPTS):
            if current is None:
                return None
            command = {
                "op": "delete",
                "record_id": current.record_id,
                "expected_revision": current.revision,
            }
            try:
                yield Request("commands", {"command": command, "scope": self._scope(namespace)})
                return None
            except (Conflict, NotFound):
                current = yield from self._find(namespace, key)
        raise RuntimeError(f"the item {key!r} kept changing while it was deleted")

    def _refresh(self, item: StoredItem) -> Plan[StoredItem]:
        """A TTL counts from the last access: an expiry-only update (it keeps a review
        decision, and costs a revision, so the vector is attached again)."""
        if item.ttl_minutes is None:
            return item
        command = {
            "op": "update",
            "record_id": item.record_id,
            "expected_revision": item.revision,
            "expires_at": _items.expires_at(item.ttl_minutes),
        }
        scope = self._scope(item.namespace)
        try:
            result = yield Request("commands", {"command": command, "scope": scope})
        except (Conflict, NotFound):
            return item  # changed or gone meanwhile: that change decides
        if self.embeddings is not None:
            yield from self._attach(scope, item.record_id, result.revision, self._text(item.value))
        return item

    def _search(self, op: SearchOp) -> Plan[list[SearchItem]]:
        prefix = _items.check_namespace(op.namespace_prefix, allow_empty=True)
        words = _items.any_word_query(op.query) if op.query else None
        vector = None
        if op.query and self.embeddings is not None:
            (vector,) = yield Request("embed", {"texts": [op.query], "query": True})
        wanted = op.offset + op.limit
        limit = _items.MAX_SEARCH if op.filter else max(1, min(_items.MAX_SEARCH, wanted))
        request = {"scope": self._scope(prefix), "filter": NOTES, "limit": limit}
        if words:
            request["query"] = words
        if vector is not None:
            request["vector"] = vector
        if op.query and not words and vector is None:
            return []
        answer = yield Request("search", request)
        found: list[StoredItem] = []
        for hit in answer.hits:
            item = _items.decode(hit.record.model_dump(), hit.score)
            inside = item is not None and item.namespace[: len(prefix)] == prefix
            if item is not None and inside and _items.matches(item.value, op.filter):
                found.append(item)
        page = found[op.offset : op.offset + op.limit]
        if op.refresh_ttl:
            for item in page:
                yield from self._refresh(item)
        return [_search_item(item) for item in page]

    def _list(self, op: ListNamespacesOp) -> Plan[list[tuple[str, ...]]]:
        """The namespaces of the newest notes under the fixed part of the prefix; when
        that search is full, every note the change feed names is read instead."""
        conditions = [(c.match_type, tuple(c.path)) for c in op.match_conditions or ()]
        base = _items.fixed_prefix(conditions)
        limit = self.listing_limit
        request = {"scope": self._scope(base), "filter": NOTES, "limit": limit}
        answer = yield Request("search", request)
        records = [hit.record for hit in answer.hits]
        if len(records) >= limit:
            records = yield from self._every_note(base)
        namespaces: set[tuple[str, ...]] = set()
        for record in records:
            item = _items.decode(record.model_dump())
            if item and _items.namespace_matches(item.namespace, conditions):
                depth = op.max_depth
                namespaces.add(item.namespace[:depth] if depth is not None else item.namespace)
        return sorted(namespaces)[op.offset : op.offset + op.limit]

    def _every_note(self, base: tuple[str, ...]) -> Plan[list[Any]]:
        """Every served note under `base`: the feed's note ids (in the key's read scope),
        each read once. Costs a request per note, so only a full search comes here."""
        live: dict[str, None] = {}
        for entry in (yield Request("changes", {})):
            if entry.kind != "note" or not entry.record_id:
                continue
            if entry.entry_type == "deleted":
                live.pop(entry.record_id, None)
            else:
                live[entry.record_id] = None
        records = []
        for record_id in live:
            try:
                answer = yield Request("read", {"record_id": record_id, "scope": self._scope(base)})
            except NotFound:
                continue  # expired, deleted, another subject's, or outside `base`
            records.append(answer.record)
        return records

    # Vectors ------------------------------------------------------------------------

    def _text(self, value: Mapping[str, Any], fields: Sequence[str] | None = None) -> str:
        paths = [(p, tokenize_path(p)) for p in fields] if fields else self._fields
        parts: list[str] = []
        for path, tokens in paths:
            if path == "$":
                parts.append(json.dumps(value, ensure_ascii=False))
            else:
                parts.extend(str(t) for t in get_text_at_path(value, tokens))
        return "\n".join(parts)

    def _attach(
        self, scope: dict[str, Any], record_id: str, revision: int, text: str
    ) -> Plan[None]:
        if not text:
            return None
        (vector,) = yield Request("embed", {"texts": [text], "query": False})
        yield Request(
            "embeddings",
            {
                "record_id": record_id,
                "revision": revision,
                "vector": vector,
                "scope": scope,
                "model_name": "langgraph-store",
            },
        )
        return None

    def _changes(self) -> list[Any]:
        return list(self.client.changes(limit=1000))

    async def _achanges(self) -> list[Any]:
        return [entry async for entry in self.async_client.changes(limit=1000)]

    def _embed(self, texts: list[str], query: bool) -> list[list[float]]:
        assert self.embeddings is not None
        if query:
            return [self.embeddings.embed_query(t) for t in texts]
        return self.embeddings.embed_documents(texts)

    async def _aembed(self, texts: list[str], query: bool) -> list[list[float]]:
        assert self.embeddings is not None
        if query:
            return [await self.embeddings.aembed_query(t) for t in texts]
        return await self.embeddings.aembed_documents(texts)


def _item(item: StoredItem) -> Item:
    return Item(
        value=item.value,
        key=item.key,
        namespace=item.namespace,
        created_at=item.created_at,
        updated_at=item.updated_at,
    )


def _search_item(item: StoredItem) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value=item.value,
        created_at=item.created_at,
        updated_at=item.updated_at,
        score=item.score,
    )


__all__ = ["MemwardenStore"]
