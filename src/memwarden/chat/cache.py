"""The chat response cache: an in-process LRU with a time-to-live.

An answer depends on who asks (subject, read prefixes after the request's scope), what is
asked (the normalised question and limit) and what is remembered (the Context's change-feed
position). All of it is in the key, so a memory change, or a different caller who can see
different private memories, never reads someone else's answer. Contexts with a chat addendum
never use the cache: an answer made under other guidance must not be served.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any

from memwarden.services import Services
from memwarden.ttl_cache import TtlCache

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


# The chat answers of one Services (one process), keyed by everything an answer depends on.
ResponseCache = TtlCache[CacheKey, CachedAnswer]


def cache_for(services: Services) -> ResponseCache:
    """The process's cache (one per Services, so tests never share one)."""
    cache: ResponseCache = services.chat_cache
    return cache
