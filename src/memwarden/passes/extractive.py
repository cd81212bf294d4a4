"""The offline summary: the highest-ranked sentences of a text, in their original order.

A sentence's rank is the mean frequency (in the whole text) of its content words, so
sentences about what the text keeps returning to rank first. No model, no randomness: the
same text always gives the same summary. Pure.
"""

from __future__ import annotations

import re
from collections import Counter

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "your",
        "with",
        "this",
        "that",
        "from",
        "have",
        "has",
        "had",
        "was",
        "were",
        "will",
        "would",
        "can",
        "could",
        "should",
        "they",
        "them",
        "their",
        "there",
        "then",
        "than",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "how",
        "all",
        "any",
        "each",
        "our",
        "out",
        "about",
        "into",
        "over",
        "also",
        "its",
        "it's",
        "just",
        "very",
        "been",
        "being",
        "some",
        "such",
        "only",
        "own",
        "same",
        "too",
        "more",
        "most",
        "other",
    ]
)
MAX_SENTENCES = 3
MAX_CHARS = 600


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def _words(sentence: str) -> list[str]:
    return [w for w in (m.casefold() for m in _WORD.findall(sentence)) if w not in _STOP]


def summarise(text: str, max_sentences: int = MAX_SENTENCES, max_chars: int = MAX_CHARS) -> str:
    """Up to `max_sentences` of the text's best sentences, at most `max_chars` in all."""
    found = list(dict.fromkeys(sentences(text)))
    if not found:
        return ""
    freq = Counter(w for s in found for w in _words(s))

    def rank(item: tuple[int, str]) -> tuple[float, int]:
        n, sentence = item
        words = _words(sentence)
        score = sum(freq[w] for w in words) / len(words) if words else 0.0
        return (-score, n)

    best = sorted(sorted(enumerate(found), key=rank)[:max_sentences])
    out = ""
    for _n, sentence in best:
        candidate = f"{out} {sentence}".strip()
        if len(candidate) > max_chars:
            break
        out = candidate
    return out or found[0][:max_chars].strip()
