"""A deterministic, offline fallback for the extraction stage: patterns, not a model.

Used when no extraction model is configured, so a deployment with no model still
remembers the plainest first-person facts ("I'm Alice", "I work at Acme", "I love
jazz", "Always answer in bullet points", "Actually, my name is Sam"). It reads no
context, resolves no pronouns and misses anything phrased differently; a real
model replaces it wherever one is configured. It speaks the provider interface, so
`extract()` runs it unchanged, window by window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from memwarden.models.base import JsonResult, SchemaLike, Usage, UsageSink
from memwarden.models.contracts import ExtractionOutput, validate_output
from memwarden.models.sanitize import unframe

MODEL_NAME = "rules"
_MAX_OBJECT_WORDS = 8

_NAME = r"([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
_NOT_NAMES = {
    "Sorry",
    "Fine",
    "Not",
    "Sure",
    "Just",
    "Here",
    "Back",
    "Good",
    "Glad",
    "Happy",
    "Okay",
    "Ok",
    "So",
    "Really",
    "Very",
    "Still",
    "Also",
    "Going",
    "Trying",
    "Looking",
    "Done",
    "Ready",
    "Afraid",
    "English",
    "American",
    "British",
    "German",
    "French",
}
_CLAUSE_SPLIT = re.compile(
    r"(?<=[.!?;])\s+|\n+|[.!?;]+$|,?\s+(?:and|but)\s+(?=(?:i|my|i'm)\b)", re.IGNORECASE
)
_TRAILING = re.compile(r"[\s,.;:!?\"')\]]+$")
_LEADING_FILLER = re.compile(r"^(?:(?:hi|hello|hey|well|oh|ok|okay|so|btw)\b[\s,!.]*)+", re.I)
_CORRECTION = re.compile(r"^(?:actually|correction|to be clear|sorry)\b[\s,:-]*", re.I)
_INSTRUCTION = re.compile(
    r"^(?:(?:please\s+)?(?:always|never)\b|from now on\b|going forward\b|in (?:the )?future\b"
    r"|please\s+(?:respond|reply|answer|write|use|keep|format|address|avoid|stop|don't|do not)\b"
    r"|don't ever\b|do not ever\b)",
    re.IGNORECASE,
)
_CALL_ME = re.compile(r"^(?:please\s+)?call me\s+" + _NAME, re.IGNORECASE)
_MY_NAME = re.compile(r"^my name(?:'s| is)\s+([\w'-]+(?:\s+[\w'-]+){0,2})", re.IGNORECASE)
_IM_NAME = re.compile(r"^(?i:i'm|i am|this is)\s+" + _NAME + r"(?:\s*,\s*(.*))?$")
_ROLE_AT = re.compile(
    r"^(?:(?:a|an|the)\s+)?([\w][\w\s/&+-]{0,60}?)\s+(?:at|for|with|in)\s+(.+)$", re.I
)
_IM_ROLE = re.compile(r"^(?:i'm|i am)\s+(?:a|an|the)\s+(.+)$", re.IGNORECASE)
_WORK = re.compile(r"^i\s+(?:currently\s+)?work\s+(?:at|for|with)\s+(.+)$", re.IGNORECASE)
_WORK_AS = re.compile(r"^i\s+work\s+as\s+(?:a|an|the)?\s*(.+)$", re.IGNORECASE)
_NO_LONGER = re.compile(
    r"^i\s+(?:no longer|don't|do not)\s+(work|live)\s+(?:anymore\s+)?(?:at|for|in)\s+(.+?)"
    r"(?:\s+any\s*more)?$",
    re.IGNORECASE,
)
_LIVE = re.compile(r"^i\s+(?:currently\s+)?live\s+in\s+(.+)$", re.IGNORECASE)
_FROM = re.compile(r"^(?:i'm|i am|i come)\s+(?:originally\s+)?from\s+(.+)$", re.IGNORECASE)
_FAN = re.compile(r"^(?:i'm|i am)\s+(?:a\s+)?(?:big\s+|huge\s+)?fan of\s+(.+)$", re.IGNORECASE)
_LIKE = re.compile(
    r"^i\s+(?:really\s+|absolutely\s+|just\s+)?(like|love|enjoy|prefer|adore|hate|dislike|"
    r"can't stand|cannot stand|don't like|do not like)\s+(.+)$",
    re.IGNORECASE,
)
_FAVOURITE = re.compile(r"^my\s+fav(?:ou?)rite\s+([\w\s-]{1,40}?)\s+(?:is|are)\s+(.+)$", re.I)
_MY_THING = re.compile(r"^my\s+([a-z][a-z\s-]{0,30}?)\s+(?:is|are)\s+(.+)$", re.IGNORECASE)

_PREFERENCE_KEYS = {
    "like": "likes",
    "love": "loves",
    "enjoy": "enjoys",
    "adore": "loves",
    "prefer": "prefers",
    "hate": "dislikes",
    "dislike": "dislikes",
    "can't stand": "dislikes",
    "cannot stand": "dislikes",
    "don't like": "dislikes",
    "do not like": "dislikes",
}


def _clean_object(value: str) -> str:
    value = _TRAILING.sub("", value.strip())
    words = value.split()
    return " ".join(words[:_MAX_OBJECT_WORDS])


def _snake(value: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", value.lower()))


def _label(sentence: str) -> str:
    words = _TRAILING.sub("", sentence).split()
    label = " ".join(words[:6])
    return label[:1].upper() + label[1:]


def _clauses(text: str) -> list[str]:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    return [c.strip() for c in _CLAUSE_SPLIT.split(text) if c and c.strip()]


@dataclass
class _Facts:
    """Facts about the speaker, always named `user` (a name they give is an attribute)."""

    name: str | None = None
    attributes: list[tuple[str, str, str]] = field(default_factory=list)
    relations: list[tuple[str, str, str, str]] = field(default_factory=list)
    instructions: list[dict[str, str]] = field(default_factory=list)
    corrections: list[tuple[str, str | None, str]] = field(default_factory=list)

    def attr(self, key: str, value: str, category: str) -> None:
        if value:
            self.attributes.append((key, value, category))

    def rel(self, label: str, obj: str, obj_type: str, category: str = "identity") -> None:
        if obj:
            self.relations.append((label, obj, obj_type, category))


def _employment(facts: _Facts, rest: str) -> bool:
    match = _ROLE_AT.match(rest)
    if match:
        facts.attr("role", _clean_object(match.group(1)), "identity")
        facts.rel("works_at", _clean_object(match.group(2)), "organisation")
        return True
    return False


def _role(facts: _Facts, rest: str) -> None:
    if not _employment(facts, rest):
        facts.attr("role", _clean_object(rest), "identity")


def _preference(facts: _Facts, match: re.Match[str]) -> None:
    verb = " ".join(match.group(1).lower().split())
    facts.attr(_PREFERENCE_KEYS[verb], _clean_object(match.group(2)), "knowledge")


def _statement(facts: _Facts, clause: str) -> bool:
    """Apply the first pattern that matches one clause; True if one did."""
    name = _IM_NAME.match(clause)
    if name and name.group(1).split()[0] not in _NOT_NAMES:
        _set_name(facts, name.group(1))
        if name.group(2):
            _employment(facts, name.group(2))
        return True
    if m := _NO_LONGER.match(clause):
        _no_longer(facts, m)
    elif m := _MY_NAME.match(clause):
        _set_name(facts, _clean_object(m.group(1)))
    elif m := _FROM.match(clause):
        facts.rel("from", _clean_object(m.group(1)), "place")
    elif m := _FAN.match(clause):
        facts.attr("likes", _clean_object(m.group(1)), "knowledge")
    elif (m := _IM_ROLE.match(clause)) or (m := _WORK_AS.match(clause)):
        _role(facts, m.group(1))
    elif m := _WORK.match(clause):
        facts.rel("works_at", _clean_object(m.group(1)), "organisation")
    elif m := _LIVE.match(clause):
        facts.rel("lives_in", _clean_object(m.group(1)), "place")
    elif m := _LIKE.match(clause):
        _preference(facts, m)
    elif m := _FAVOURITE.match(clause):
        facts.attr(f"favourite_{_snake(m.group(1))}", _clean_object(m.group(2)), "knowledge")
    elif m := _MY_THING.match(clause):
        facts.attr(_snake(m.group(1)), _clean_object(m.group(2)), "knowledge")
    else:
        return False
    return True


def _set_name(facts: _Facts, name: str) -> None:
    if name:
        facts.name = name
        facts.attr("name", name, "identity")


def _no_longer(facts: _Facts, match: re.Match[str]) -> None:
    key = "works_at" if match.group(1).lower() == "work" else "lives_in"
    facts.corrections.append((key, _clean_object(match.group(2)), "none"))


def _extract(text: str) -> dict[str, Any]:
    facts = _Facts()
    for raw in _clauses(text):
        clause = _LEADING_FILLER.sub("", raw).strip()
        call_me = _CALL_ME.match(clause)
        if call_me:
            facts.attr("preferred_name", call_me.group(1), "identity")
            facts.instructions.append(
                {"label": "Preferred name", "description": _TRAILING.sub("", clause)}
            )
            continue
        if _INSTRUCTION.match(clause):
            facts.instructions.append(
                {"label": _label(clause), "description": _TRAILING.sub("", clause)}
            )
            continue
        corrected = _CORRECTION.match(clause)
        if corrected:
            before = (len(facts.attributes), len(facts.relations))
            _statement(facts, clause[corrected.end() :])
            for key, value, _ in facts.attributes[before[0] :]:
                facts.corrections.append((key, None, value))
            for label, obj, _, _ in facts.relations[before[1] :]:
                facts.corrections.append((label, None, obj))
            continue
        _statement(facts, clause)
    return _as_contract(facts)


def _as_contract(facts: _Facts) -> dict[str, Any]:
    user = "user"  # first person: reconciliation resolves it to the write's speaker
    about_user = facts.attributes or facts.relations or facts.corrections
    entities: list[dict[str, str]] = []
    if about_user:
        entities.append({"name": user, "entityType": "person", "memoryCategory": "identity"})
    for _, obj, obj_type, category in facts.relations:
        entities.append({"name": obj, "entityType": obj_type, "memoryCategory": category})
    return {
        "entities": entities,
        "attributes": [
            {"entity": user, "key": k, "value": v, "memoryCategory": c}
            for k, v, c in facts.attributes
        ],
        "relations": [
            {"subject": user, "label": label, "object": obj, "memoryCategory": category}
            for label, obj, _, category in facts.relations
        ],
        "actions": [],
        "instructions": facts.instructions,
        "uncertainties": [],
        "corrections": [
            {"entity": user, "key": k, "oldValue": old, "newValue": new}
            for k, old, new in facts.corrections
        ],
    }


class RuleExtractor:
    """The extraction stage's provider when no model is configured (see module docstring)."""

    @property
    def description(self) -> str:
        return "rules: built-in pattern extractor (no model)"

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        schema: SchemaLike,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> JsonResult:
        """Read the framed window back out of the user message; the system prompt is unused."""
        if stage != "extraction":
            raise ValueError(f"the rule extractor serves only the extraction stage, not {stage!r}")
        data = _extract(unframe(user))
        return JsonResult(
            data=validate_output(ExtractionOutput, data), usage=Usage(), model=MODEL_NAME
        )


def extract_facts(text: str) -> dict[str, Any]:
    """The rule extractor's output for plain text, as the extraction contract's JSON."""
    return validate_output(ExtractionOutput, _extract(text))
