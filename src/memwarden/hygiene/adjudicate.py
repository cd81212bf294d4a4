"""Pair adjudication: how two similar memories relate, by a model or by offline rules.

Two judging paths share one contract (DESIGN.md, `AdjudicationOutput`): pairs whose sides
are both authoritative go to the adjudication model (`models.adjudication`,
`MEMWARDEN_MODEL_ADJUDICATION`); the high-volume provisional stream goes to the cheap
hygiene model (`models.hygiene`, `MEMWARDEN_MODEL_HYGIENE`). The two are chosen
independently and neither falls back to the other. With no model on a path the offline
adjudicator decides from the structured rows, and leaves alone (None) what it cannot
decide, so hygiene without a model is loss-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from memwarden.config import ContextConfig
from memwarden.domain.provenance import Rank, is_authoritative
from memwarden.domain.reconcile_rules import (
    SINGLE_VALUED_LABELS,
    is_multi_valued,
    normalise_key,
    normalise_name,
    normalise_value,
)
from memwarden.domain.speaker import is_speaker_norm
from memwarden.hygiene.projects import ProjectRef
from memwarden.hygiene.textrules import structure_text, text_verdict
from memwarden.models.base import JsonProvider, ModelError, ModelSpec, Usage, UsageSink
from memwarden.models.contracts import AdjudicationOutput, PairVerdict
from memwarden.models.prompts import system_prompt
from memwarden.models.registry import Models
from memwarden.models.sanitize import clean_block, frame_untrusted

JudgingPath = Literal["adjudication", "hygiene"]
Side = Literal["a", "b"]

OFFLINE_MODEL: Final = "offline"
ADJUDICATION_MAX_TOKENS: Final = 80
TEXT_MAX_CHARS: Final = 2000

# Offline confidences: a rule that matched is as sure as its premises (the rows).
DUPLICATE_CONFIDENCE: Final = 0.95
SUPERSEDE_CONFIDENCE: Final = 0.9
COMPLEMENTARY_CONFIDENCE: Final = 0.85
UNRELATED_CONFIDENCE: Final = 0.9
TEXT_CONFIDENCE: Final = 0.8  # under the default auto-resolve bar (0.9)
TEXT_COMPLEMENTARY_CONFIDENCE: Final = 0.6  # under the link bar (0.8): no edge from words


@dataclass(frozen=True, slots=True)
class PairSide:
    """One memory of a pair, as the adjudicator sees it.

    `entity` is the normalised subject name (None when the row has no subject), `key` the
    attribute key or relation label, `value` the attribute value or relation object;
    `owner` the principal who wrote it (None: not known, as for evaluation texts).
    """

    id: str
    kind: str
    text: str
    entity: str | None
    key: str | None
    value: str | None
    at: datetime
    project: ProjectRef | None
    rank: Rank
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class Adjudication:
    verdict: PairVerdict
    superseding: Side | None
    confidence: float
    judge_model: str

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError("confidence must lie in 0..1")
        if (self.verdict == "supersedes") != (self.superseding is not None):
            raise ValueError("superseding is set for supersedes verdicts, and only for them")


@dataclass(frozen=True, slots=True)
class ModelAdjudication:
    """A model's verdict and the tokens it cost (already booked when a sink was given)."""

    adjudication: Adjudication
    usage: Usage


class AdjudicationError(Exception):
    """The model gave no usable verdict; the pair is left alone. Never carries content."""


def judging_path(rank_a: Rank, rank_b: Rank) -> JudgingPath:
    """Authoritative pairs (both sides) take the adjudication model; the rest the cheap path."""
    return "adjudication" if is_authoritative(rank_a) and is_authoritative(rank_b) else "hygiene"


# --- offline -------------------------------------------------------------------------

# The bare first person a rule extractor or a model wrote as a subject ("I", "the user"):
# it names whoever wrote the fact, so two principals' `user` (written before speakers
# existed) are two people. A speaker's own entity carries its speaker in its normalised
# name (`speaker:<key>`, domain/speaker.py): two of those that differ are two people too.
FIRST_PERSON_NAMES: Final = frozenset({"user", "the user", "me", "myself", "i", "speaker"})


def different_speakers(a: PairSide, b: PairSide) -> bool:
    """Facts about two different people's own selves: two speakers' own entities, or the
    bare first person written by two different principals. Never one another's duplicate
    or replacement, whatever a judge says, so such a pair is never formed."""
    ea, eb = a.entity or "", b.entity or ""
    if is_speaker_norm(ea) and is_speaker_norm(eb):
        return ea != eb
    names = {normalise_name(ea), normalise_name(eb)}
    return (
        names <= FIRST_PERSON_NAMES
        and a.owner is not None
        and b.owner is not None
        and a.owner != b.owner
    )


def _multi_valued(kind: str, key: str) -> bool:
    if kind == "relation":
        return key not in SINGLE_VALUED_LABELS
    return is_multi_valued(key)


def _offline(
    verdict: PairVerdict, confidence: float, superseding: Side | None = None
) -> Adjudication:
    return Adjudication(verdict, superseding, confidence, OFFLINE_MODEL)


def adjudicate_offline(a: PairSide, b: PairSide) -> Adjudication | None:
    """The issue's rules on the structured rows; None where they cannot decide.

    Same subject and key: the same normalised value is a duplicate; a different value of a
    single-valued key is superseded by the newer side (equal times: undecided), while a
    multi-valued key (likes, skills, ...) holds both, so they are complementary. Same
    subject, another key: complementary. Different subjects (two principals' bare first
    person too): unrelated. No subject on a side, or an entity against a fact about it (the
    fact belongs to the entity; it neither complements nor repeats it): undecided.
    """
    if not a.entity or not b.entity:
        return None
    if different_speakers(a, b) or normalise_name(a.entity) != normalise_name(b.entity):
        return _offline("unrelated", UNRELATED_CONFIDENCE)
    if (a.kind == "entity") != (b.kind == "entity"):
        return None
    key_a = normalise_key(a.key) if a.key else None
    key_b = normalise_key(b.key) if b.key else None
    if key_a is None and key_b is None:
        return _offline("duplicate", DUPLICATE_CONFIDENCE)  # the same entity twice
    if key_a != key_b:
        return _offline("complementary", COMPLEMENTARY_CONFIDENCE)
    assert key_a is not None
    value_a = normalise_value(a.value or "")
    value_b = normalise_value(b.value or "")
    if value_a == value_b:
        return _offline("duplicate", DUPLICATE_CONFIDENCE)
    if _multi_valued("relation" if "relation" in (a.kind, b.kind) else a.kind, key_a):
        return _offline("complementary", COMPLEMENTARY_CONFIDENCE)
    if a.at == b.at:
        return None
    return _offline("supersedes", SUPERSEDE_CONFIDENCE, "a" if a.at > b.at else "b")


def side_from_text(
    id: str, text: str, at: datetime, project: ProjectRef | None, rank: Rank
) -> PairSide:
    """A side built from free text (evaluation data), structured by `textrules.structure_text`."""
    kind, entity, key, value = structure_text(text)
    entity = normalise_name(entity) if entity else None
    return PairSide(id, kind, text, entity, key, value, at, project, rank)


def _text_rules(a: PairSide, b: PairSide) -> Adjudication | None:
    """What the words alone support (`textrules.text_verdict`), never a supersede.

    A duplicate or contradiction found this way stays under the default auto-resolve bar,
    so a person confirms it; an unrelated one changes nothing anyway.
    """
    verdict = text_verdict(a.text, b.text)
    if verdict == "duplicate":
        return _offline("duplicate", TEXT_CONFIDENCE)
    if verdict == "contradiction":
        return _offline("contradiction", TEXT_CONFIDENCE)
    if verdict == "unrelated":
        return _offline("unrelated", TEXT_CONFIDENCE)
    if verdict == "complementary":
        return _offline("complementary", TEXT_COMPLEMENTARY_CONFIDENCE)
    return None


def adjudicate_offline_text(a: PairSide, b: PairSide) -> Adjudication | None:
    """The offline adjudicator for sides built from free text: the row rules, then what the
    text alone supports (`_text_rules`)."""
    return adjudicate_offline(a, b) or _text_rules(a, b)


# --- model path ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Adjudicator:
    """The model serving one judging path; `name` is what guard rows and the queue record."""

    path: JudgingPath
    provider: JsonProvider
    name: str


def choose_adjudicator(
    models: Models, config: ContextConfig, path: JudgingPath
) -> Adjudicator | None:
    """The Context's choice for the path, else the deployment's; None means offline."""
    choice = getattr(config.models, path)
    if choice is not None:
        spec = ModelSpec(choice.provider, choice.model)
        try:
            return Adjudicator(path, models.chat_provider(spec, path), str(spec))
        except ValueError as exc:
            raise AdjudicationError(f"the Context's {path} model cannot be used") from exc
    provider = getattr(models, path)
    default = models.specs.get(path)
    if provider is None or default is None:
        return None
    return Adjudicator(path, provider, str(default))


def _describe(label: str, side: PairSide) -> str:
    header = f"Memory {label}: kind {side.kind}, recorded {side.at.isoformat()}"
    # Every frame marker in a text is defused, not only its own: a memory must not be able
    # to close its frame nor open the other one.
    text = clean_block(side.text, TEXT_MAX_CHARS).replace("<<<", "< < <").replace(">>>", "> > >")
    body = frame_untrusted(text, f"MEMORY_{label.upper()}")
    return f"{header}\n{body}"


def user_message(a: PairSide, b: PairSide) -> str:
    """Both memories framed as data; no scope or project labels (spec 2: they mislead)."""
    lead = "Adjudicate how memory a and memory b relate."
    return f"{lead}\n\n{_describe('a', a)}\n\n{_describe('b', b)}"


def _adjudication(data: dict[str, Any], model: str) -> Adjudication:
    verdict = data["verdict"]
    superseding = data.get("superseding")
    if verdict == "supersedes" and superseding not in ("a", "b"):
        raise AdjudicationError("a supersedes verdict without a direction")
    return Adjudication(
        verdict,
        superseding if verdict == "supersedes" else None,
        float(data["confidence"]),
        model,
    )


async def adjudicate_with_model(
    adjudicator: Adjudicator,
    a: PairSide,
    b: PairSide,
    *,
    addendum: str | None = None,
    usage_sink: UsageSink | None = None,
) -> ModelAdjudication:
    """One call on the path's prompt; any model failure is an AdjudicationError.

    Usage is booked to `usage_sink` under the path's stage (`adjudication` or `hygiene`)
    by the provider, before the reply is read, because the tokens were spent either way.
    The verdict records `adjudicator.name`, the configured model string, so guard rows
    compare judges exactly as configured.
    """
    system = system_prompt(adjudicator.path, addendum)
    try:
        result = await adjudicator.provider.complete_json(
            adjudicator.path,
            system,
            user_message(a, b),
            AdjudicationOutput,
            ADJUDICATION_MAX_TOKENS,
            usage_sink=usage_sink,
        )
    except (ModelError, TimeoutError) as exc:
        raise AdjudicationError(
            f"the {adjudicator.path} call failed: {type(exc).__name__}"
        ) from None
    return ModelAdjudication(_adjudication(result.data, adjudicator.name), result.usage)
