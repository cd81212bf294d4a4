"""Stage contracts: the JSON each structured stage asks a model for.

The pydantic models are the source of truth. The JSON schema sent to a model is
derived from them with every array capped (`maxItems`) and every string capped
(`maxLength`), because a small model without caps lists names until the token
limit and the JSON comes back truncated. Validation is lenient where leniency
cannot corrupt memory (cut long strings and lists, bucket unknown categories as
`context`) and strict where it could (verdict values, required fields).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import AliasGenerator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

# Re-exported: the stage contracts are where model-facing code looks for them.
from memwarden.domain.verdicts import REASON_CODES as REASON_CODES
from memwarden.domain.verdicts import VERDICTS as VERDICTS
from memwarden.domain.verdicts import ReasonCode as ReasonCode
from memwarden.domain.verdicts import Verdict as Verdict
from memwarden.models.base import ModelOutputError, SchemaLike

MAX_ITEMS = 50
MAX_ROWS = 200
SHORT_CHARS = 200
LONG_CHARS = 2000

MemoryCategory = Literal["identity", "knowledge", "context"]
PairVerdict = Literal["duplicate", "supersedes", "contradiction", "complementary", "unrelated"]

MEMORY_CATEGORIES: tuple[str, ...] = get_args(MemoryCategory)
PAIR_VERDICTS: tuple[str, ...] = get_args(PairVerdict)


def _text(limit: int) -> Callable[[Any], Any]:
    def cut(value: Any) -> Any:
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, int | float):
            value = str(value)
        if isinstance(value, str):
            return value.strip()[:limit]
        return value

    return cut


def _capped(limit: int) -> Callable[[Any], Any]:
    def cap(value: Any) -> Any:
        if value is None:
            return []
        if isinstance(value, list):
            return value[:limit]
        return value

    return cap


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _category(value: Any) -> str:
    """Labels outside the set (emotion, group, ...) become `context`, per spec 4."""
    label = _lower(value)
    return label if label in MEMORY_CATEGORIES else "context"


def _reasons(value: Any) -> Any:
    """Unknown reason labels become `policy` so an odd label never discards a verdict."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return value
    out: list[str] = []
    for item in value[:MAX_ITEMS]:
        code = _lower(item)
        code = code if code in REASON_CODES else "policy"
        if code not in out:
            out.append(code)
    return out


def _superseding(value: Any) -> Any:
    label = _lower(value)
    if label in ("", "none", "null", "neither"):
        return None
    return label


def _clamp01(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return min(1.0, max(0.0, float(value)))
    return value


Short = Annotated[str, BeforeValidator(_text(SHORT_CHARS)), Field(max_length=SHORT_CHARS)]
Long = Annotated[str, BeforeValidator(_text(LONG_CHARS)), Field(max_length=LONG_CHARS)]
Category = Annotated[MemoryCategory, BeforeValidator(_category)]
Reasons = Annotated[list[ReasonCode], BeforeValidator(_reasons), Field(max_length=MAX_ITEMS)]
VerdictField = Annotated[Verdict, BeforeValidator(_lower)]


Capped = BeforeValidator(_capped(MAX_ITEMS))
Items: Any = Field(default_factory=list, max_length=MAX_ITEMS)


class Contract(BaseModel):
    """Wire names are camelCase; extra fields a model adds are allowed and kept."""

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
        alias_generator=AliasGenerator(validation_alias=to_camel, serialization_alias=to_camel),
    )


class JudgeOutput(Contract):
    verdict: VerdictField
    reasons: Reasons = Field(default_factory=list)


class RowVerdict(Contract):
    id: Short
    verdict: VerdictField
    reasons: Reasons = Field(default_factory=list)


class RowJudgeOutput(Contract):
    rows: Annotated[
        list[RowVerdict],
        BeforeValidator(_capped(MAX_ROWS)),
        Field(default_factory=list, max_length=MAX_ROWS),
    ]


class Entity(Contract):
    name: Short
    entity_type: Short
    memory_category: Category = "context"


class Attribute(Contract):
    entity: Short
    key: Short
    value: Long
    memory_category: Category = "context"


class Relation(Contract):
    subject: Short
    label: Short
    object: Short
    memory_category: Category = "context"


class Action(Contract):
    actor: Short
    label: Short
    object: Short
    memory_category: Category = "context"


class Instruction(Contract):
    label: Short
    description: Long


class Uncertainty(Contract):
    about: Short
    reason: Long


class Correction(Contract):
    entity: Short
    key: Short
    old_value: Long | None = None
    new_value: Long


class ExtractionOutput(Contract):
    entities: Annotated[list[Entity], Capped, Items]
    attributes: Annotated[list[Attribute], Capped, Items]
    relations: Annotated[list[Relation], Capped, Items]
    actions: Annotated[list[Action], Capped, Items]
    instructions: Annotated[list[Instruction], Capped, Items]
    uncertainties: Annotated[list[Uncertainty], Capped, Items]
    corrections: Annotated[list[Correction], Capped, Items]


class AdjudicationOutput(Contract):
    verdict: Annotated[PairVerdict, BeforeValidator(_lower)]
    superseding: Annotated[Literal["a", "b"] | None, BeforeValidator(_superseding)] = None
    confidence: Annotated[float, Field(ge=0.0, le=1.0), BeforeValidator(_clamp01)]


class SummaryOutput(Contract):
    """rollup and gist: one call per session, entity, document or long turn."""

    summary: Long


class ConsolidationOutput(Contract):
    """Is the candidate pair a/b one thing under two names or shapes, and which survives."""

    same: bool
    survivor: Annotated[Literal["a", "b"] | None, BeforeValidator(_superseding)] = None
    confidence: Annotated[float, Field(ge=0.0, le=1.0), BeforeValidator(_clamp01)]


SourceIds = Annotated[list[Short], Capped, Field(default_factory=list, max_length=MAX_ITEMS)]


class DerivedAttribute(Attribute):
    derived_from: SourceIds


class DerivedRelation(Relation):
    derived_from: SourceIds


class ElaborationOutput(ExtractionOutput):
    """The extraction contract, each fact row naming the stored records it follows from."""

    attributes: Annotated[list[DerivedAttribute], Capped, Items]  # type: ignore[assignment]
    relations: Annotated[list[DerivedRelation], Capped, Items]  # type: ignore[assignment]


CONTRACTS: dict[str, type[Contract]] = {
    "judge": JudgeOutput,
    "row_judge": RowJudgeOutput,
    "extraction": ExtractionOutput,
    "adjudication": AdjudicationOutput,
    "summary": SummaryOutput,
    "consolidation": ConsolidationOutput,
    "elaboration": ElaborationOutput,
}


def contract_name(model: type[BaseModel]) -> str:
    """The name sent as `json_schema.name` (OpenAI allows [a-zA-Z0-9_-], 64 chars)."""
    for name, contract in CONTRACTS.items():
        if contract is model:
            return name
    return re.sub(r"[^A-Za-z0-9_-]", "_", model.__name__)[:64]


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A self-contained schema: refs inlined, titles dropped, all declared fields required."""
    raw = model.model_json_schema(by_alias=True, mode="validation")
    defs = raw.pop("$defs", {})
    return _tidy(_inline(raw, defs))


def schema_for(name: str) -> dict[str, Any]:
    """The JSON schema of a named contract (`judge`, `row_judge`, ...)."""
    return json_schema(CONTRACTS[name])


def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(copy.deepcopy(defs[ref.removeprefix("#/$defs/")]), defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _tidy(node: Any) -> Any:
    if isinstance(node, list):
        return [_tidy(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _tidy(v) for k, v in node.items() if k not in ("title", "default")}
    if out.get("type") == "object" and isinstance(out.get("properties"), dict):
        out["required"] = list(out["properties"])
    return out


def validate_output(schema: SchemaLike, data: Any) -> dict[str, Any]:
    """Validate a parsed reply; return the normalised object or raise ModelOutputError."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            parsed = schema.model_validate(data)
        except ValidationError as exc:
            fields = sorted({".".join(str(p) for p in e["loc"]) for e in exc.errors()})
            raise ModelOutputError(f"reply does not match the contract at: {fields[:5]}") from exc
        return parsed.model_dump(by_alias=True, mode="json")
    if not isinstance(data, dict):
        raise ModelOutputError("reply is not a JSON object")
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - jsonschema arrives with the mcp SDK
        return data
    try:
        jsonschema.validate(data, dict(schema))
    except jsonschema.ValidationError as exc:
        raise ModelOutputError(f"reply does not match the schema: {exc.message[:200]}") from exc
    return data


def first_json_object(text: str) -> Any:
    """The first JSON object in a reply, tolerating prose or code fences around it.

    Servers in `prompt_json` mode (and some in schema modes) wrap the object; the
    first `{` that starts a complete object wins.
    """
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except RecursionError:
            raise ModelOutputError("reply is nested too deeply") from None
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    raise ModelOutputError("reply holds no JSON object")
