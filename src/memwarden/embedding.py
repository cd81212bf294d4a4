"""Vectors for records and chunks, tied to the revision they were computed from.

The embedder is CPU-bound and synchronous, so it runs in a worker thread and, on the write
path, before the transaction opens: a transaction never waits on a model.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import structlog

from memwarden.models.base import CountingEmbedder, ModelError, Usage, UsageSink
from memwarden.models.local_embedder import EmbedderUnavailable
from memwarden.services import Services
from memwarden.store import ingest as store
from memwarden.store.db import Conn
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)

DIMENSIONS = 384  # memory_embedding.embedding and chunk.embedding are vector(384)

Vector = list[float] | None
LENGTH_BANDS = (48, 160, 480)  # characters; roughly 12, 40 and 120 tokens
CACHE_SIZE = 2048
CACHE_MAX_CHARS = 160


def text_for(kind: str, content: Mapping[str, Any], body: str) -> str:
    """Entities embed their name alone, so name similarity can resolve them; others their body."""
    if kind == "entity":
        return str(content.get("name") or body)
    return body


def embedder_name(services: Services) -> str:
    return services.models.embedder.name


def billed(services: Services) -> bool:
    """A remote embedder reports tokens, which count towards the Context's budget."""
    return isinstance(services.models.embedder, CountingEmbedder)


def length_groups(texts: Sequence[str]) -> list[list[int]]:
    """Indexes grouped by length band: a batch is padded to its longest text, so a name
    embedded beside a 1,000-character chunk costs as much as the chunk (measured 2x)."""
    groups: dict[int, list[int]] = {}
    for n, text in enumerate(texts):
        band = next(
            (b for b, top in enumerate(LENGTH_BANDS) if len(text) <= top), len(LENGTH_BANDS)
        )
        groups.setdefault(band, []).append(n)
    return [groups[b] for b in sorted(groups)]


STAGE = "embedding"


def _embed_grouped(embedder: Any, texts: list[str]) -> tuple[list[list[float]], Usage | None]:
    """Vectors in the texts' order, and the tokens billed (None: a local, unbilled model)."""
    out: list[list[float]] = [[] for _ in texts]
    used: Usage | None = None
    for group in length_groups(texts):
        batch = [texts[i] for i in group]
        if isinstance(embedder, CountingEmbedder):
            vectors, usage = embedder.embed_counted(batch)
            used = usage if used is None else used + usage
        else:
            vectors = embedder.embed(batch)
        for n, vector in zip(group, vectors, strict=True):
            out[n] = vector
    return out, used


class _ShortTextCache:
    """Recent vectors of short texts (entity names, fact bodies), per embedder.

    Names recur in almost every turn about the same people; a vector depends only on the
    model and the text, so it is reused instead of recomputed. Touched only from the event
    loop's thread.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[str, str], list[float]] = OrderedDict()

    def get(self, model: str, text: str) -> list[float] | None:
        vector = self.entries.get((model, text))
        if vector is not None:
            self.entries.move_to_end((model, text))
        return vector

    def put(self, model: str, text: str, vector: list[float]) -> None:
        if len(text) <= CACHE_MAX_CHARS:
            self.entries[(model, text)] = vector
            if len(self.entries) > self.size:
                self.entries.popitem(last=False)


_CACHE = _ShortTextCache()


async def embed_texts(
    services: Services, texts: Sequence[str], usage: UsageSink | None = None
) -> list[Vector]:
    """One vector per text, or None each when no usable embedder is installed.

    A billed embedder's tokens go to `usage` under the "embedding" stage (a cached vector
    costs nothing); every caller that spends a Context's tokens passes its sink."""
    if not texts:
        return []
    embedder = services.models.embedder
    out: list[Vector] = [_CACHE.get(embedder.name, t) for t in texts]
    todo = [n for n, v in enumerate(out) if v is None]
    if not todo:
        return out
    try:
        vectors, used = await asyncio.to_thread(_embed_grouped, embedder, [texts[n] for n in todo])
    except EmbedderUnavailable as exc:
        log.warning("embedder_unavailable", error=str(exc))
        return [None] * len(texts)
    except ModelError as exc:
        # A remote embedder that fails, hangs past the request deadline or answers
        # something unreadable: the texts stay unembedded (recall still matches them by
        # text), never a 500. The error's type only: no content.
        log.warning("embedder_failed", error=type(exc).__name__)
        return [None] * len(texts)
    if used is not None and usage is not None:
        await usage.book(STAGE, embedder.name, used)
    if vectors and len(vectors[0]) != DIMENSIONS:
        log.warning("embedding_dimensions_mismatch", got=len(vectors[0]), want=DIMENSIONS)
        return [None] * len(texts)
    for n, vector in zip(todo, vectors, strict=True):
        out[n] = vector
        _CACHE.put(embedder.name, texts[n], vector)
    return out


async def embed_records(
    conn: Conn, services: Services, context_id: uuid.UUID, record_ids: Sequence[uuid.UUID]
) -> int:
    """Embed the current revision of each record that has no vector for it; returns how many.

    Runs on the caller's connection (and transaction): use it for background passes and
    commands, not where a request holds locks.
    """
    rows = await store.records_to_embed(conn, context_id, record_ids)
    texts = [text_for(r["kind"], r["content"], r["body"]) for r in rows]
    sink = Bookings()
    vectors = await embed_texts(services, texts, sink)
    await sink.write(conn, context_id)
    model = embedder_name(services)
    batch = [
        {
            "context_id": context_id,
            "record_id": r["id"],
            "revision": r["revision"],
            "embedding": v,
            "model": model,
        }
        for r, v in zip(rows, vectors, strict=True)
        if v is not None
    ]
    await store.insert_embeddings(conn, batch)
    return len(batch)
