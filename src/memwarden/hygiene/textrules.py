"""Offline reading of free text for the evaluation's offline adjudicator (pure).

Scans adjudicate structured rows; labelled pairs are text. `structure_text` finds a text's
first fact with the rule extractor (first-person facts), else with two third-person shapes
("Falcon's status is beta", "the owner of Heron is Ivo"). `text_verdict` says what word
overlap alone supports for texts with no structure: a near-identical restatement, the same
statement negated, or two statements with nothing in common. Tuned on the train split of
`evals/hygiene` (see docs/hygiene.md for the test-split numbers); it never says
`supersedes`, because text alone cannot tell which of two facts replaces the other.
"""

from __future__ import annotations

import re
from typing import Final

from memwarden.models.rule_extractor import extract_facts

Structured = tuple[str, str | None, str | None, str | None]

_POSSESSIVE = re.compile(
    r"^(?:the\s+)?(?P<entity>[\w][\w .&/-]{0,60}?)'s\s+(?P<key>[a-z][\w -]{0,40}?)\s+"
    r"(?:is|are|was|were)\s+(?:now\s+)?(?P<value>.+)$",
    re.IGNORECASE,
)
_OF = re.compile(
    r"^the\s+(?P<key>[a-z][\w -]{0,40}?)\s+of\s+(?:the\s+)?(?P<entity>[\w][\w .&/-]{0,60}?)\s+"
    r"(?:is|are|was|were)\s+(?:now\s+)?(?P<value>.+)$",
    re.IGNORECASE,
)
_ABBREVIATION: Final = re.compile(r"\b(Dr|Mr|Mrs|Ms|Mx|Prof|St|Jr|Sr|Inc|Ltd|vs)\.", re.I)
_FIRST_PERSON: Final = frozenset({"i", "i'm", "i've", "i'd", "i'll", "my", "me", "mine", "myself"})
_TRAILING: Final = re.compile(r"[\s,.;:!?\"')\]]+$")
_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
NEGATIONS: Final = frozenset(
    {"no", "not", "nobody", "none", "never", "nothing", "nowhere", "neither", "nor", "n't"}
)
STOPWORDS: Final = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "by",
        "and",
        "or",
        "from",
        "as",
        "into",
        "onto",
        "its",
        "it",
        "this",
        "that",
        "there",
        "their",
        "his",
        "her",
        "some",
        "one",
        "two",
        "three",
        "other",
        "another",
    }
)
# Word-overlap bars (Jaccard of content words), chosen on the train split.
DUPLICATE_OVERLAP: Final = 0.5
CONTRADICTION_OVERLAP: Final = 0.5
UNRELATED_OVERLAP: Final = 0.15


def _third_person(text: str) -> Structured | None:
    sentence = _TRAILING.sub("", text.strip().split("\n")[0])
    for pattern in (_POSSESSIVE, _OF):
        if m := pattern.match(sentence):
            key = "_".join(_WORD.findall(m["key"].casefold()))
            return "attribute", m["entity"].strip(), key, m["value"].strip()
    return None


def structure_text(text: str) -> Structured:
    """(kind, entity, key, value) of a text's first fact, or ("note", None, None, None)."""
    text = _ABBREVIATION.sub(r"\1", text)  # "Dr. Okafor" is not two sentences
    facts = extract_facts(text)
    for correction in facts["corrections"]:
        if correction.get("newValue") not in (None, "", "none"):
            return "attribute", correction["entity"], correction["key"], correction["newValue"]
    for attribute in facts["attributes"]:
        return "attribute", attribute["entity"], attribute["key"], attribute["value"]
    for relation in facts["relations"]:
        return "relation", relation["subject"], relation["label"], relation["object"]
    return _third_person(text) or ("note", None, None, None)


def _words(text: str) -> list[str]:
    words: list[str] = []
    for word in _WORD.findall(text.casefold().replace("\u2019", "'")):
        if word.endswith("n't"):
            words.extend([word[:-3], "n't"])
        else:
            words.append(word)
    return words


def _content(words: list[str]) -> set[str]:
    return {w for w in words if w not in STOPWORDS and w not in NEGATIONS}


def overlap(a: str, b: str) -> float:
    """Jaccard similarity of the two texts' content words (0 when either has none)."""
    wa, wb = _content(_words(a)), _content(_words(b))
    return len(wa & wb) / len(wa | wb) if wa and wb else 0.0


def _numbers_differ(words_a: list[str], words_b: list[str]) -> bool:
    """Each side has a number-bearing word the other lacks: two values, not one restated."""
    only_a = {w for w in set(words_a) - set(words_b) if any(c.isdigit() for c in w)}
    only_b = {w for w in set(words_b) - set(words_a) if any(c.isdigit() for c in w)}
    return bool(only_a and only_b)


def first_person(text: str) -> bool:
    """Whether the text speaks about its speaker (an agent capture's usual subject)."""
    return bool(_FIRST_PERSON.intersection(_WORD.findall(text.casefold().replace("\u2019", "'"))))


def text_verdict(a: str, b: str) -> str | None:
    """duplicate, contradiction, complementary or unrelated from the words alone, or None.

    Two first-person texts are about one subject, the speaker, so where they are neither
    the same statement nor its negation they are complementary, not unrelated.
    """
    words_a, words_b = _words(a), _words(b)
    if words_a == words_b:
        return "duplicate"
    shared = overlap(a, b)
    negated = bool(NEGATIONS.intersection(words_a)) != bool(NEGATIONS.intersection(words_b))
    if negated and shared >= CONTRADICTION_OVERLAP:
        return "contradiction"
    if not negated and shared >= DUPLICATE_OVERLAP and not _numbers_differ(words_a, words_b):
        return "duplicate"
    if first_person(a) and first_person(b):
        return "complementary" if not _numbers_differ(words_a, words_b) else None
    if shared <= UNRELATED_OVERLAP:
        return "unrelated"
    return None
