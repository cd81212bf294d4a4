"""A deterministic, offline fallback for the extraction stage: patterns, not a model.

Used when no extraction model is configured, so a deployment with no model still
remembers plain conversational English: introductions ("Hi, I am Maria Lopez. I work as
a nurse at St. Mary Hospital in Boston"), family and colleagues ("My sister Ana lives in
Madrid and works as a lawyer"), work, places, pets and possessions, health ("I am allergic
to penicillin"), preferences, plans, past events ("I went to a support group") and
corrections ("Actually I moved to Chicago, I no longer live in Boston"), in first and third
person. First person is always the entity `user`, which reconciliation binds to the write's
speaker (domain/speaker.py); "he"/"she" resolve to the last person named in the same text.
Each clause is read by its subject, then by the first predicate pattern that matches; a
clause no pattern reads yields nothing, so small talk stays out of memory. It reads no
context beyond the text given; a real model replaces it wherever one is configured. Why
rules and not an NLP package: docs/benchmarks.md, "Extraction without a model".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from memwarden.models.base import JsonResult, SchemaLike, Usage, UsageSink
from memwarden.models.contracts import ExtractionOutput, validate_output
from memwarden.models.rule_lexicon import (
    ABBREVIATIONS,
    CONDITIONS,
    DIETS,
    IRREGULAR_PAST,
    NOT_EVENT_VERBS,
    NOT_NAMES,
    NOT_ONGOING,
    NOT_PLANS,
    NOT_ROLES,
    PETS,
    POSSESSIONS,
    PRESENT_ACTIVITIES,
    RELATIVES,
    SPOUSES,
)
from memwarden.models.sanitize import unframe

MODEL_NAME = "rules"
_MAX_OBJECT_WORDS = 8
USER = "user"  # first person: reconciliation resolves it to the write's speaker
_DOT = "\u2024"  # stands in for an abbreviation's full stop while sentences are split

_NAME_WORD = r"[A-Z][\w'-]*"
_NAME = rf"({_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}})"
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")
# A new clause starts at a conjunction or comma followed by a first-person subject, or at
# "and"/"but" followed by a verb that continues the previous clause's subject.
_CLAUSE_SPLIT = re.compile(
    r"(?:,\s*(?:(?:and|but|so|because)\s+)?|\s+(?:and|but|so|because)\s+|\s+[-\u2013\u2014]+\s+)"
    r"(?=(?:i|my|he|she|we)\s)"
    r"|(?:,\s*|\s+)(?:and|but)\s+(?=(?:also\s+)?(?:works?|lives?|is|has|moved|loves?|likes?|"
    r"enjoys?|hates?|plays?|started|wants?|plans?|" + "|".join(IRREGULAR_PAST) + r"|[a-z]{3,}ed)\b)"
    r"|\s+[-\u2013\u2014]+\s+",
    re.IGNORECASE,
)
# Time said before the subject ("Last year I took a trip"): dropped, the clause is read on.
_LEADING_TIME = re.compile(
    r"^(?:(?:just\s+)?(?:last|this|next)\s+(?:week|weekend|month|year|night|summer|winter|"
    r"spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|yesterday|today|recently|lately|finally|earlier|tonight|this morning|the other day"
    r"|a (?:few|couple of) (?:days|weeks|months|years) ago)\b[\s,]*",
    re.IGNORECASE,
)
_PREFIX = re.compile(r"^\s*(?:\[[^\]\n]{1,60}\]\s*)?(?:[A-Z][\w .'-]{0,40}:\s+)?")
_TRAILING = re.compile(r"[\s,.;:!?\"')\]]+$")
_LEADING_FILLER = re.compile(
    r"^(?:(?:hi|hello|hey|well|oh|ok|okay|so|btw|yeah|yes|wow|anyway|also|and|but|um|"
    r"haha|lol)\b[\s,!.]*)+",
    re.I,
)
_CORRECTION = re.compile(r"^(?:actually|correction|to be clear|sorry|in fact)\b[\s,:-]*", re.I)
_INSTRUCTION = re.compile(
    r"^(?:(?:please\s+)?(?:always|never)\b|from now on\b|going forward\b|in (?:the )?future\b"
    r"|please\s+(?:respond|reply|answer|write|use|keep|format|address|avoid|stop|don't|do not)\b"
    r"|don't ever\b|do not ever\b)",
    re.IGNORECASE,
)
_CONTRACTIONS = [
    (re.compile(r"\bI'm\b", re.I), "I am"),
    (re.compile(r"\bI've\b", re.I), "I have"),
    (re.compile(r"\bI'll\b", re.I), "I will"),
    (re.compile(r"\bI'd\b", re.I), "I would"),
    (re.compile(r"\b(he|she)'s\b", re.I), r"\1 is"),
]
# Where an object stops: the next clause-like part, a time phrase, a reason.
_OBJECT_END = re.compile(
    r"\s*(?:,|\band\b|\bbut\b|\bbecause\b|\bwhich\b|\bwho\b|\bwhere\b|\bwhen\b|\bso\b|\bsince\b"
    r"|\bthough\b|\bto see\b|\blast (?:week|month|year|night|weekend|summer|time"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|fri)\b"
    r"|\b(?:yesterday|today|tonight|recently|lately|now|ago)\b"
    r"|\bthis (?:week|month|year|weekend|morning)\b|\b(?:a|two|few) (?:days?|weeks?|months?)\b"
    r"|\bfor (?:a|the) (?:while|first time)\b|!|\?|\.|;|:|\(|\s(?=I\s)|\s[-\u2013\u2014]\s)",
    re.IGNORECASE,
)
_OF_PLACE = re.compile(r"^(.+?)\s+in\s+(" + _NAME_WORD + r"(?:[\s,]+" + _NAME_WORD + r"){0,2})$")

_CALL_ME = re.compile(r"^(?:please\s+)?call me\s+" + _NAME, re.IGNORECASE)
_MY_NAME = re.compile(r"^my name(?:'s| is)\s+([\w'-]+(?:\s+[\w'-]+){0,2})", re.IGNORECASE)
_THIS_IS = re.compile(r"^this is\s+" + _NAME + r"(?:\s*,\s*(.*))?$")
_FAVOURITE = re.compile(r"^my\s+fav(?:ou?)rite\s+([\w\s-]{1,40}?)\s+(?:is|are)\s+(.+)$", re.I)
_MY_RELATIVE = re.compile(
    r"^my\s+(?:(?:older|younger|little|big|best|old|new|twin|step)\s+)?("
    + "|".join(sorted(RELATIVES, key=len, reverse=True))
    + r")\b,?\s*(?-i:("
    + _NAME_WORD
    + r"(?:\s+"
    + _NAME_WORD
    + r")?))?,?\s*(.*)$",
    re.IGNORECASE,
)
_MY_THING = re.compile(r"^my\s+([a-z][a-z\s-]{0,30}?)\s+(?:is|are)\s+(.+)$", re.IGNORECASE)
_SUBJECT_I = re.compile(
    r"^(?:i|we|(?:(?:my|our)\s+\w+|" + _NAME_WORD + r")\s+and\s+i)\s+(.+)$", re.IGNORECASE
)
# No subject at all, as people write in chat ("Just got back from a road trip").
_SUBJECTLESS = re.compile(
    r"^(?:just\s+|finally\s+|recently\s+)?(?=(?:" + "|".join(IRREGULAR_PAST) + r"|[a-z]{3,}ed)\s)",
    re.IGNORECASE,
)
_SUBJECT_PRONOUN = re.compile(r"^(he|she)\s+(.+)$", re.IGNORECASE)
_SUBJECT_NAME = re.compile(r"^" + _NAME + r"\s+(.+)$")
# A capitalised word then a bare verb is no third-person statement ("Moments like this").
_BARE_VERB = re.compile(r"^(?:like|love|enjoy|hate|prefer|want|need|make|go|are|were)\b", re.I)

_IM_NAME = re.compile(r"^(?:am|'m)\s+" + _NAME + r"(?:\s*,\s*(.*))?$")
_NO_LONGER = re.compile(
    r"^(?:no longer|do not|don't|does not|doesn't|do not)\s+(work|live)s?\s+(?:anymore\s+)?"
    r"(?:at|for|in)\s+(.+?)(?:\s+any\s*more)?$",
    re.IGNORECASE,
)
_MOVED = re.compile(
    r"^(?:have\s+|has\s+)?(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+"
    r"(?:back\s+)?(?:to|into)\s+(.+)$",
    re.IGNORECASE,
)
_WORK_AS = re.compile(
    r"^(?:currently\s+|still\s+|now\s+)?works?\s+as\s+(?:a|an|the)?\s*(.+)$", re.IGNORECASE
)
_WORK_AT = re.compile(
    r"^(?:currently\s+|still\s+|now\s+)?works?\s+(?:at|for|with)\s+(.+)$", re.IGNORECASE
)
_ROLE = re.compile(r"^(?:am|is)\s+(?:now\s+)?(?:a|an)\s+(.+)$", re.IGNORECASE)
_LIVE = re.compile(r"^(?:currently\s+|still\s+|now\s+)?lives?\s+in\s+(.+)$", re.IGNORECASE)
_FROM = re.compile(
    r"^(?:am|is|come|comes)\s+(?:originally\s+)?from\s+(.+)$|^grew up in\s+(.+)$", re.I
)
_ALLERGIC = re.compile(
    r"^(?:am|is)\s+(?:very\s+|severely\s+|really\s+)?allergic\s+to\s+(.+)$"
    r"|^(?:have|has)\s+(?:an?\s+)?(?:\w+\s+)?allerg(?:y|ies)\s+to\s+(.+)$",
    re.IGNORECASE,
)
_INTOLERANT = re.compile(r"^(?:am|is)\s+(lactose|gluten)[\s-]intolerant\b", re.I)
_DIAGNOSED = re.compile(
    r"^(?:have\s+been\s+|has\s+been\s+|was\s+|got\s+|just\s+got\s+)diagnosed\s+with\s+(.+)$",
    re.I,
)
_HAVE = re.compile(r"^(?:have|has)\s+(?:got\s+)?(.+)$", re.IGNORECASE)
_DIET = re.compile(r"^(?:am|is)\s+(?:a\s+)?(" + "|".join(DIETS) + r")\b", re.IGNORECASE)
_FAN = re.compile(r"^(?:am|is)\s+(?:a\s+)?(?:big\s+|huge\s+)?fan of\s+(.+)$", re.IGNORECASE)
_LIKE = re.compile(
    r"^(?:really\s+|absolutely\s+|just\s+|also\s+)?(likes?|loves?|enjoys?|prefers?|adores?|"
    r"hates?|dislikes?|can't stand|cannot stand|can not stand|don't like|do not like|"
    r"doesn't like|does not like)\s+(.+)$",
    re.IGNORECASE,
)
_PLAN = re.compile(
    r"^(?:am|is)\s+(?:going|planning|hoping|about|gonna)\s+(?:to\s+)?(.+)$"
    r"|^(?:plan|plans|intend|intends)\s+to\s+(.+)$|^will\s+(.+)$"
    r"|^(?:plan|plans|are planning|is planning)\s+((?:a|an|our|my|the)\s+.+)$",
    re.IGNORECASE,
)
_WANT = re.compile(
    r"^(?:really\s+)?(?:want|wants|hope|hopes|would (?:love|like))\s+to\s+(.+)$", re.I
)
_LOOKING_FORWARD = re.compile(r"^(?:am|is)\s+(?:really\s+)?looking forward to\s+(.+)$", re.I)
_ONGOING = re.compile(
    r"^(?:am|is|are|was|were|have been|has been)\s+(?:really\s+|still\s+|also\s+|now\s+|"
    r"currently\s+|actually\s+|just\s+)?([a-z]{2,}ing)\s+(.+)$",
    re.IGNORECASE,
)
_EVENT = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+|also\s+|actually\s+|once\s+|even\s+)?"
    r"(?:have\s+|has\s+)?([a-z]{3,}ed|" + "|".join(IRREGULAR_PAST) + r")\s+(.+)$",
    re.IGNORECASE,
)
_ACTIVITY = re.compile(
    r"^(?:also\s+|usually\s+|often\s+|still\s+)?(" + "|".join(PRESENT_ACTIVITIES) + r")s?\s+(.+)$",
    re.IGNORECASE,
)
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
    "can not stand": "dislikes",
    "don't like": "dislikes",
    "do not like": "dislikes",
    "doesn't like": "dislikes",
    "does not like": "dislikes",
}
_NUMBER = re.compile(
    r"^(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|some|several|a few|"
    r"a couple of|many)\s+",
    re.IGNORECASE,
)


def _restore(value: str) -> str:
    return value.replace(_DOT, ".")


def _clean_object(value: str) -> str:
    value = _TRAILING.sub("", _restore(value).strip())
    words = value.split()
    return " ".join(words[:_MAX_OBJECT_WORDS])


def _head(value: str) -> str:
    """The object up to where the clause moves on (a comma, "and", a time phrase)."""
    match = _OBJECT_END.search(value)
    return _clean_object(value[: match.start()] if match else value)


def _snake(value: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", value.lower()))


def _label(sentence: str) -> str:
    words = _TRAILING.sub("", sentence).split()
    label = " ".join(words[:6])
    return label[:1].upper() + label[1:]


def _protect(text: str) -> str:
    """Quotes straightened, contractions spelt out, abbreviation dots kept from splitting."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return ABBREVIATIONS.sub(lambda m: m.group(1) + _DOT, text)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(_protect(text)) if s and s.strip()]


def _clauses(sentence: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip()]


def _is_name(value: str) -> bool:
    """Capitalised words that can name someone: not a function word, not a gerund."""
    words = value.split()
    return (
        bool(words)
        and re.sub(r"'\w+$", "", words[0]) not in NOT_NAMES
        and words[0].casefold() not in {"i", "my"}
        and not any(w.endswith("ing") for w in words)
    )


@dataclass
class _Facts:
    """What one text states. `user` is the speaker; other subjects are named entities."""

    entities: dict[str, tuple[str, str]] = field(default_factory=dict)
    attributes: list[tuple[str, str, str, str]] = field(default_factory=list)
    relations: list[tuple[str, str, str, str]] = field(default_factory=list)
    actions: list[tuple[str, str, str, str]] = field(default_factory=list)
    instructions: list[dict[str, str]] = field(default_factory=list)
    corrections: list[tuple[str, str, str | None, str]] = field(default_factory=list)
    last_person: str | None = None

    def entity(self, name: str, entity_type: str) -> None:
        """A named thing the text mentions (the speaker is `user`, never listed here)."""
        if name and name != USER and name.casefold() not in self.entities:
            self.entities[name.casefold()] = (name, entity_type)

    def person(self, name: str) -> None:
        self.entity(name, "person")
        self.last_person = name

    def attr(self, subject: str, key: str, value: str, category: str) -> None:
        if value:
            self.attributes.append((subject, key, value, category))

    def rel(self, subject: str, label: str, obj: str, obj_type: str, category: str) -> None:
        if obj:
            self.entity(obj, obj_type)
            self.relations.append((subject, label, obj, category))

    def act(self, subject: str, label: str, obj: str, category: str = "context") -> None:
        if obj and label:
            self.actions.append((subject, label, obj, category))


_PLACE = re.compile(
    rf"^(?:the\s+)?({_NAME_WORD}(?:\s+(?:of\s+|de\s+)?{_NAME_WORD})*"
    rf"(?:,\s*{_NAME_WORD}(?:\s+{_NAME_WORD})*)?)"
)


def _place(facts: _Facts, subject: str, label: str, raw: str) -> None:
    """A place is a run of capitalised words, a region after a comma ("Porto, Portugal")."""
    match = _PLACE.match(raw.strip())
    if match and match.group(1).split()[0] not in NOT_NAMES:
        facts.rel(subject, label, _clean_object(match.group(1)), "place", "identity")


def _organisation(facts: _Facts, subject: str, raw: str) -> None:
    """`St. Mary Hospital in Boston as a nurse`: employer, its city, a role after `as`."""
    head = _head(raw)
    role = re.search(r"\s+as\s+(?:a|an|the)?\s*(.+)$", head, re.I)
    if role:
        facts.attr(subject, "role", _clean_object(role.group(1)), "identity")
        head = head[: role.start()]
    city = _OF_PLACE.match(head)
    org = _clean_object(city.group(1) if city else head)
    if org:
        facts.rel(subject, "works_at", org, "organisation", "identity")
        if city:
            facts.rel(org, "based_in", _clean_object(city.group(2)), "place", "identity")


def _role(facts: _Facts, subject: str, raw: str) -> bool:
    """`nurse at St. Mary Hospital in Boston`: a role, then an employer where one is named."""
    head = raw
    at = re.search(r"\s+(?:at|for|with)\s+", head, re.I)
    role = _head(head[: at.start()] if at else head)
    if not role or role.split()[0].casefold() in NOT_ROLES:
        return False
    facts.attr(subject, "role", role, "identity")
    if at:
        _organisation(facts, subject, head[at.end() :])
    return True


def _possession(facts: _Facts, subject: str, raw: str) -> bool:
    obj = _head(raw)
    counted = _NUMBER.match(obj)
    noun = obj[counted.end() :] if counted else obj
    words = noun.casefold().split()
    if not words:
        return False
    head = words[0].rstrip("s") if words[0] not in ("guinea",) else "guinea pig"
    named = re.search(r"\b(?:named|called)\s+(" + _NAME_WORD + ")", _restore(raw))
    value = obj + (f" named {named.group(1)}" if named and named.group(1) not in obj else "")
    if head in PETS:
        facts.attr(subject, "pets", value, "identity")
    elif head in ("kid", "child", "children", "son", "daughter", "boy", "girl", "grandchild"):
        facts.attr(subject, "children", value, "identity")
    elif head in CONDITIONS:
        facts.act(subject, "has_condition", noun, "identity")
    elif counted and head in POSSESSIONS:
        facts.act(subject, "owns", obj, "knowledge")
    else:
        return False
    return True


def _preference(facts: _Facts, subject: str, match: re.Match[str]) -> None:
    verb = " ".join(match.group(1).lower().split())
    key = _PREFERENCE_KEYS.get(verb) or _PREFERENCE_KEYS.get(verb.removesuffix("s"), "likes")
    if verb.endswith("es") and verb.removesuffix("es") in ("prefer", "hat", "ador"):
        key = _PREFERENCE_KEYS.get(verb[:-1], key)
    value = _head(match.group(2))
    if _vague(value) or value.casefold() in ("to", "the"):
        return
    facts.attr(subject, key, value, "knowledge")


_PARTICLE = re.compile(
    r"^(back from|back to|back|to|on|for|with|into|up|out|in|at|off|from)\s+(.+)$", re.I
)
# "I had ...": objects that report a mood, not something that happened.
NOT_HAD = ("a blast", "fun", "a great", "a good time", "a lot of fun", "no ", "a feeling", "to ")


_DEICTIC = frozenset({"this", "that", "these", "those", "it", "them", "something", "one"})
_EMPTY = frozenset(
    {"it", "out", "through", "up", "so", "you", "myself", "a", "lot", "there", "here", "again"}
)


def _vague(obj: str) -> bool:
    """An object that means nothing without the conversation: "this pic", "them myself",
    "it", "through", "something"; or one that starts with a verb ("is so expressive")."""
    words = [w.strip(".,!?\"'").casefold() for w in obj.split()]
    if not words or words[0] in ("is", "are", "was", "were", "so", "really", "you"):
        return True
    content = [w for w in words if w not in _EMPTY and w not in _DEICTIC]
    if not content:
        return True
    return words[0] in _DEICTIC and len(content) < 2


def _event(facts: _Facts, subject: str, verb: str, raw: str) -> bool:
    """A past event: `went to a support group`, `adopted a puppy`, `painted a sunrise`."""
    verb = verb.casefold()
    if verb in NOT_EVENT_VERBS or verb.endswith("eed"):
        return False
    if verb in ("got", "tried") and raw.casefold().startswith("to "):
        return False  # "I've got to share", "I tried to stay calm": no event of their own
    particle = _PARTICLE.match(raw)
    label, rest = (
        (f"{verb}_{_snake(particle.group(1))}", particle.group(2)) if particle else (verb, raw)
    )
    obj = _head(rest)
    if _vague(obj) or (verb == "had" and obj.casefold().startswith(NOT_HAD)):
        return False
    facts.act(subject, label, obj, "context")
    return True


def _predicate(facts: _Facts, subject: str, rest: str) -> bool:
    """Apply the first predicate pattern that reads `rest` (what `subject` is said to do)."""
    rest = _TRAILING.sub("", rest.strip())
    first = subject == USER
    if first and (m := _IM_NAME.match(rest)) and _is_name(m.group(1)):
        _set_name(facts, _restore(m.group(1)))
        if m.group(2):
            _role(facts, subject, re.sub(r"^(?:a|an|the)\s+", "", m.group(2), flags=re.I))
        return True
    if m := _NO_LONGER.match(rest):
        key = "works_at" if m.group(1).lower() == "work" else "lives_in"
        facts.corrections.append((subject, key, _head(m.group(2)), "none"))
    elif m := _MOVED.match(rest):
        _place(facts, subject, "lives_in", m.group(1))
    elif m := _WORK_AS.match(rest):
        return _role(facts, subject, m.group(1))
    elif m := _WORK_AT.match(rest):
        _organisation(facts, subject, m.group(1))
    elif m := _LIVE.match(rest):
        _place(facts, subject, "lives_in", m.group(1))
    elif m := _FROM.match(rest):
        _place(facts, subject, "from", m.group(1) or m.group(2))
    elif m := _ALLERGIC.match(rest):
        facts.attr(subject, "allergies", _head(m.group(1) or m.group(2)), "identity")
    elif m := _INTOLERANT.match(rest):
        facts.attr(subject, "allergies", f"{m.group(1).lower()} (intolerant)", "identity")
    elif m := _DIAGNOSED.match(rest):
        facts.act(subject, "diagnosed_with", _head(m.group(1)), "identity")
    elif m := _DIET.match(rest):
        facts.attr(subject, "diet", m.group(1).lower(), "identity")
    elif m := _FAN.match(rest):
        facts.attr(subject, "likes", _head(m.group(1)), "knowledge")
    elif m := _LOOKING_FORWARD.match(rest):
        facts.act(subject, "looking_forward_to", _head(m.group(1)), "context")
    elif m := _PLAN.match(rest):
        return _plan(facts, subject, m.group(1) or m.group(2) or m.group(3) or m.group(4))
    elif m := _WANT.match(rest):
        facts.attr(subject, "goals", _head(m.group(1)), "knowledge")
    elif (m := _HAVE.match(rest)) and _possession(facts, subject, m.group(1)):
        return True
    elif m := _ROLE.match(rest):
        return _role(facts, subject, m.group(1))
    elif m := _LIKE.match(rest):
        _preference(facts, subject, m)
    elif (m := _ACTIVITY.match(rest)) and (first or rest.split()[0].casefold().endswith("s")):
        return _event(facts, subject, m.group(1).lower().removesuffix("s") + "s", m.group(2))
    elif (m := _EVENT.match(rest)) or (
        (m := _ONGOING.match(rest)) and m.group(1).casefold() not in NOT_ONGOING
    ):
        return _event(facts, subject, m.group(1), m.group(2))
    else:
        return False
    return True


def _plan(facts: _Facts, subject: str, raw: str) -> bool:
    obj = _head(raw)
    words = obj.casefold().split()
    if not words or words[0] in NOT_PLANS or _vague(obj) or " you" in f" {obj.casefold()} ":
        return False
    facts.act(subject, "plans_to", obj, "context")
    return True


def _set_name(facts: _Facts, name: str) -> None:
    if name:
        facts.attr(USER, "name", name, "identity")


def _relative(facts: _Facts, match: re.Match[str]) -> bool:
    """`my sister Ana lives in Madrid`: Ana is a person, the speaker's sister, who lives..."""
    kind = match.group(1).casefold()
    name = match.group(2)
    rest = match.group(3)
    if name and not _is_name(name):
        rest, name = f"{name} {rest}".strip(), None
    if name:
        name = _restore(name)
        label = "married_to" if kind in SPOUSES else _snake(kind)
        facts.person(name)
        facts.rel(USER, label, name, "person", "identity")
        if rest:
            _predicate(facts, name, rest)
        return True
    if not rest:
        return False
    before = len(facts.actions) + len(facts.attributes) + len(facts.relations)
    scratch = _Facts()
    if _predicate(scratch, "x", rest):
        said = [(k, v, c) for _, k, v, c in scratch.attributes + scratch.relations]
        said += [(k, v, c) for _, k, v, c in scratch.actions]
        for key, value, category in said:
            if len(value.split()) >= 2 or key in ("lives_in", "works_at", "role", "from"):
                facts.act(USER, f"{_snake(kind)}_{key}", value, category)
    return len(facts.actions) + len(facts.attributes) + len(facts.relations) > before


def _statement(facts: _Facts, clause: str, carried: str | None) -> str | None:
    """Read one clause; the subject it was about (for the next clause to carry), if any."""
    if (m := _THIS_IS.match(clause)) and _is_name(m.group(1)):
        _set_name(facts, _restore(m.group(1)))
        if m.group(2):
            _role(facts, USER, re.sub(r"^(?:a|an|the)\s+", "", m.group(2), flags=re.I))
        return USER
    if m := _MY_NAME.match(clause):
        _set_name(facts, _clean_object(m.group(1)))
        return USER
    if m := _FAVOURITE.match(clause):
        facts.attr(USER, f"favourite_{_snake(m.group(1))}", _head(m.group(2)), "knowledge")
        return USER
    if m := _MY_RELATIVE.match(clause):
        _relative(facts, m)
        return _restore(m.group(2)) if m.group(2) and _is_name(m.group(2)) else None
    if m := _MY_THING.match(clause):
        facts.attr(USER, _snake(m.group(1)), _head(m.group(2)), "knowledge")
        return USER
    if m := _SUBJECT_I.match(clause):
        _predicate(facts, USER, m.group(1))
        return USER
    if (m := _SUBJECT_PRONOUN.match(clause)) and facts.last_person:
        _predicate(facts, facts.last_person, m.group(2))
        return facts.last_person
    if (
        (m := _SUBJECT_NAME.match(clause))
        and _is_name(m.group(1))
        and not _BARE_VERB.match(m.group(2))
    ):
        name = _restore(m.group(1))
        scratch = _Facts(last_person=name)
        if _predicate(scratch, name, m.group(2)):
            facts.person(name)
            _merge(facts, scratch)
            return name
        return None
    if carried:
        _predicate(facts, carried, clause)
        return carried
    return None


def _merge(into: _Facts, part: _Facts) -> None:
    for key, value in part.entities.items():
        into.entities.setdefault(key, value)
    into.attributes += part.attributes
    into.relations += part.relations
    into.actions += part.actions
    into.corrections += part.corrections


def _extract(text: str) -> dict[str, Any]:
    facts = _Facts()
    for sentence in _sentences(_PREFIX.sub("", text, count=1)):
        carried: str | None = None
        correcting = False  # "Actually," alone: the clause after it is the correction
        for index, raw in enumerate(_clauses(sentence)):
            clause = _LEADING_FILLER.sub("", raw).strip()
            clause = _LEADING_TIME.sub("", clause).strip()
            if not clause:
                continue
            if index == 0 and _SUBJECTLESS.match(clause) and not _CORRECTION.match(clause):
                clause = f"I {clause}"
            if correcting:
                clause, correcting = f"actually {clause}", False
            call_me = _CALL_ME.match(clause)
            if call_me:
                facts.attr(USER, "preferred_name", _restore(call_me.group(1)), "identity")
                facts.instructions.append(
                    {"label": "Preferred name", "description": _restore(_TRAILING.sub("", clause))}
                )
                continue
            if _INSTRUCTION.match(clause):
                facts.instructions.append(
                    {
                        "label": _label(_restore(clause)),
                        "description": _restore(_TRAILING.sub("", clause)),
                    }
                )
                continue
            corrected = _CORRECTION.match(clause)
            if corrected and corrected.end() == len(clause):
                correcting = True
            elif corrected:
                carried = _correction(facts, clause[corrected.end() :], carried)
                continue
            carried = _statement(facts, clause, carried)
    return _as_contract(facts)


def _correction(facts: _Facts, clause: str, carried: str | None) -> str | None:
    """`Actually, ...`: what the clause states replaces the slot's value, whatever it was."""
    before = (len(facts.attributes), len(facts.relations))
    subject = _statement(facts, clause, carried)
    for entity, key, value, _ in facts.attributes[before[0] :]:
        facts.corrections.append((entity, key, None, value))
    for entity, label, obj, _ in facts.relations[before[1] :]:
        facts.corrections.append((entity, label, None, obj))
    del facts.attributes[before[0] :]
    del facts.relations[before[1] :]
    return subject


def _fold_endings(facts: _Facts) -> None:
    """ "I moved to Chicago, I no longer live in Boston": one correction, Boston to Chicago.

    Within one write the last statement about a single-valued slot is the one it makes
    (domain/reconcile_netting.py), so an ending of Boston stated beside the new value would
    end the slot altogether; folded into one correction, it replaces Boston with Chicago.
    """
    for ending in [c for c in facts.corrections if c[3] == "none" and c[2]]:
        entity, key, old, _ = ending
        new = next(
            (c for c in facts.corrections if c[:2] == (entity, key) and c[3] != "none"), None
        )
        stated = next((r for r in facts.relations if r[:2] == (entity, key)), None)
        if new is not None:
            facts.corrections.remove(new)
            value = new[3]
        elif stated is not None:
            facts.relations.remove(stated)
            value = stated[2]
        else:
            continue
        facts.corrections[facts.corrections.index(ending)] = (entity, key, old, value)


def _as_contract(facts: _Facts) -> dict[str, Any]:
    _fold_endings(facts)
    about_user = any(
        row[0] == USER
        for rows in (facts.attributes, facts.relations, facts.actions, facts.corrections)
        for row in rows
    )
    entities: list[dict[str, str]] = []
    if about_user:
        entities.append({"name": USER, "entityType": "person", "memoryCategory": "identity"})
    for name, entity_type in facts.entities.values():
        category = "identity" if entity_type in ("person", "place", "organisation") else "context"
        entities.append({"name": name, "entityType": entity_type, "memoryCategory": category})
    return {
        "entities": entities,
        "attributes": [
            {"entity": e, "key": k, "value": v, "memoryCategory": c}
            for e, k, v, c in facts.attributes
        ],
        "relations": [
            {"subject": s, "label": label, "object": obj, "memoryCategory": c}
            for s, label, obj, c in facts.relations
        ],
        "actions": [
            {"actor": a, "label": label, "object": obj, "memoryCategory": c}
            for a, label, obj, c in facts.actions
        ],
        "instructions": facts.instructions,
        "uncertainties": [],
        "corrections": [
            {"entity": e, "key": k, "oldValue": old, "newValue": new}
            for e, k, old, new in facts.corrections
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
