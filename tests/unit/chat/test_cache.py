"""The response cache's LRU, time-to-live and question normalisation (no I/O)."""

from __future__ import annotations

import uuid

from memwarden.chat.cache import CachedAnswer, CacheKey, ResponseCache, normalise_question

CID = uuid.UUID(int=1)


def key(question: str = "q", version: int = 1, subject: str = "alice") -> CacheKey:
    return CacheKey(CID, "", subject, ("",), question, 8, version)


def value(text: str = "a") -> CachedAnswer:
    return CachedAnswer(text, "m", ())


def test_questions_differing_only_in_case_and_spacing_are_the_same_question() -> None:
    assert normalise_question("  What is\tMY  food? ") == normalise_question("what is my food?")
    assert normalise_question("ｆｏｏｄ") == "food"  # NFKC folds full-width forms


def test_an_entry_expires_after_its_time_to_live() -> None:
    now = [0.0]
    cache = ResponseCache(ttl_s=10, clock=lambda: now[0])
    cache.put(key(), value())
    now[0] = 9.9
    assert cache.get(key()) == value()
    now[0] = 10.1
    assert cache.get(key()) is None and len(cache) == 0


def test_the_least_recently_used_entry_goes_first() -> None:
    cache = ResponseCache(max_entries=2)
    cache.put(key("a"), value("a"))
    cache.put(key("b"), value("b"))
    assert cache.get(key("a")) is not None  # "a" is now the most recent
    cache.put(key("c"), value("c"))
    assert cache.get(key("b")) is None
    assert cache.get(key("a")) == value("a") and cache.get(key("c")) == value("c")


def test_a_new_memory_version_or_another_subject_is_another_key() -> None:
    cache = ResponseCache()
    cache.put(key(), value())
    assert cache.get(key(version=2)) is None
    assert cache.get(key(subject="bob")) is None
