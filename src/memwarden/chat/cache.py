"""The chat response cache: an in-process LRU with a time-to-live.

An answer depends on who asks (subject, read prefixes after the request's scope), what is
asked (the normalised question and limit) and what is remembered (the Context's change-feed
position). All of it is in the key, so a memory change, or a different caller who can see
different private memories, never reads someone else's answer. Contexts with a chat addendum
never use the cache: an answer made under other guidance must not be served.
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memwarden.bootstrap import Services

MAX_ENTRIES = 1024
TTL_S = 600.0
_SPACE = re.compile(r"\s+")


def normalise_question(text: str) -> str:
    """Case, Unicode form and whitespace do not make a different question."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


@dataclass(frozen=True)
class CacheKey:
    context_id: uuid.UUID
    model: str  # the Context's chat model choice ("" for the deployment's)
    subject: str
    prefixes: tuple[str, ...]
    question: str
    limit: int
    version: int


@dataclass(frozen=True)
class CachedAnswer:
    answer: str
    model: str
    memories: tuple[dict[str, Any], ...]


class ResponseCache:
    """Thread-safe LRU; entries expire `ttl_s` after they were stored."""

    def __init__(
        self,
        max_entries: int = MAX_ENTRIES,
        ttl_s: float = TTL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_entries = max_entries
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._items: OrderedDict[CacheKey, tuple[float, CachedAnswer]] = OrderedDict()

    def get(self, key: CacheKey) -> CachedAnswer | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            stored, value = found
            if self._clock() - stored > self.ttl_s:
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return value

    def put(self, key: CacheKey, value: CachedAnswer) -> None:
        with self._lock:
            self._items[key] = (self._clock(), value)
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


def cache_for(services: Services) -> ResponseCache:
    """The process's cache (one per Services, so tests never share one)."""
    return services.extras.setdefault("chat_cache", ResponseCache())
