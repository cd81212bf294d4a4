"""Turn text into a structured extraction diff: one structured call per window (spec 4).

A window whose reply cannot be parsed or validated contributes nothing and the
others are kept; if every window fails the diff is empty and flagged chunk-only so
the turn is still stored as a searchable chunk. Transport and budget errors
propagate: they are the deployment's problem, not the content's.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

import structlog
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from memwarden.models.base import JsonProvider, ModelOutputError, Usage, UsageSink
from memwarden.models.contracts import (
    LONG_CHARS,
    SHORT_CHARS,
    Action,
    Attribute,
    Correction,
    Entity,
    ExtractionOutput,
    Instruction,
    Relation,
    Uncertainty,
)
from memwarden.models.prompts import system_prompt
from memwarden.models.sanitize import clean_line, frame_untrusted
from memwarden.pipeline.windowing import (
    EXTRACTION_MAX_WINDOWS,
    EXTRACTION_OVERLAP,
    EXTRACTION_WINDOW,
    windows,
)

log = structlog.get_logger(__name__)

STAGE = "extraction"
DEFAULT_MAX_TOKENS = 2048

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")
# What runs before each window's model call (a use case's budget check).
BeforeCall = Callable[[], Awaitable[None]]


class ExtractionDiff(BaseModel):
    """The sanitised, merged extraction of one turn or document (camelCase on the wire)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    entities: list[Entity] = Field(default_factory=list)
    attributes: list[Attribute] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    instructions: list[Instruction] = Field(default_factory=list)
    uncertainties: list[Uncertainty] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)
    chunk_only: bool = False

    def is_empty(self) -> bool:
        return not any(
            (
                self.entities,
                self.attributes,
                self.relations,
                self.actions,
                self.instructions,
                self.uncertainties,
                self.corrections,
            )
        )


@dataclass(frozen=True, slots=True)
class ExtractionResult:
    diff: ExtractionDiff
    windows_run: int
    windows_failed: int
    dropped_bytes: int
    dropped_chars: int = 0
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    # (start, end) offsets, in the text given, of each window whose reply was unusable:
    # what a reprocess sends again (`extract_spans`).
    failed_spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class FailedWindow:
    """A window whose extraction failed, by position: `part` is the document part
    (`documents.chunking.extraction_parts`; always 0 for a turn), `start`/`end` offsets in
    it. Positions, not text, so the stored (redacted) item stays the only copy."""

    part: int
    start: int
    end: int

    def as_json(self) -> dict[str, int]:
        return {"part": self.part, "start": self.start, "end": self.end}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> FailedWindow:
        return cls(int(data["part"]), int(data["start"]), int(data["end"]))


@dataclass(frozen=True, slots=True)
class ExtractionReport:
    """What one write's extraction did: kept on the item (so a failed one can be
    reprocessed) and added to the Context's per-day extraction counters."""

    windows: int  # the item's windows, all parts (a reprocess keeps the item's count)
    run: int  # windows sent to the model by this write
    failed: tuple[FailedWindow, ...] = ()  # windows whose reply could not be used
    dropped_bytes: int = 0  # text past the window limit, never extracted
    dropped_chars: int = 0

    @property
    def chunk_only(self) -> bool:
        """Every window this write ran failed: the content is stored as chunks only."""
        return self.run > 0 and len(self.failed) >= self.run

    @classmethod
    def of(cls, results: Sequence[ExtractionResult]) -> ExtractionReport:
        """One report over the results of consecutive parts (a turn has one part)."""
        return cls(
            windows=sum(r.windows_run for r in results),
            run=sum(r.windows_run for r in results),
            failed=tuple(
                FailedWindow(part, start, end)
                for part, r in enumerate(results)
                for start, end in r.failed_spans
            ),
            dropped_bytes=sum(r.dropped_bytes for r in results),
            dropped_chars=sum(r.dropped_chars for r in results),
        )


def user_message(window: str, index: int, total: int, speaker: str | None = None) -> str:
    """The untrusted window, framed; position noted so a cut sentence is expected. The
    speaker (an id: no spaces or markup, `domain/speaker.py`) is named outside the frame."""
    where = f" This is window {index + 1} of {total} of one text; it may start or end mid-sentence."
    lead = "Extract durable memory from the text between the markers." + (
        where if total > 1 else ""
    )
    if speaker:
        lead += (
            f" The text is spoken by the speaker `{speaker}`: write the speaker as `user`, and"
            " a name they give themselves as the attribute `name` of `user`."
        )
    return f"{lead}\n\n{frame_untrusted(window)}"


async def extract(
    text: str,
    provider: JsonProvider,
    addendum: str | None = None,
    usage_sink: UsageSink | None = None,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    window_size: int = EXTRACTION_WINDOW,
    overlap: int = EXTRACTION_OVERLAP,
    max_windows: int = EXTRACTION_MAX_WINDOWS,
    concurrency: int = 1,
    speaker: str | None = None,
    before_call: BeforeCall | None = None,
) -> ExtractionResult:
    """Extract `text` window by window with `provider` (a model or the rule extractor);
    `speaker` names who "I" is to the model; `before_call` runs before each window's call
    (the budget check: what it raises propagates)."""
    plan = windows(text, window_size, overlap, max_windows)
    if plan.dropped_chars:
        log.warning(
            "extraction_text_dropped",
            windows=len(plan.windows),
            dropped_chars=plan.dropped_chars,
            dropped_bytes=plan.dropped_bytes,
        )
    step = window_size - overlap
    spans = [(i * step, i * step + len(w)) for i, w in enumerate(plan.windows)]
    result = await extract_spans(
        text,
        spans,
        provider,
        addendum,
        usage_sink,
        max_tokens=max_tokens,
        concurrency=concurrency,
        speaker=speaker,
        before_call=before_call,
    )
    return dataclasses.replace(
        result, dropped_bytes=plan.dropped_bytes, dropped_chars=plan.dropped_chars
    )


async def extract_spans(
    text: str,
    spans: Sequence[tuple[int, int]],
    provider: JsonProvider,
    addendum: str | None = None,
    usage_sink: UsageSink | None = None,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    concurrency: int = 1,
    speaker: str | None = None,
    before_call: BeforeCall | None = None,
) -> ExtractionResult:
    """Extract the windows `text[start:end]` of `spans`, one call each: a whole text's
    windows (`extract`), or a reprocess's failed ones."""
    system = system_prompt(STAGE, addendum)
    total = len(spans)

    async def run(index: int, window: str) -> tuple[ExtractionOutput | None, Usage, str | None]:
        if before_call is not None:
            await before_call()
        try:
            result = await provider.complete_json(
                STAGE,
                system,
                user_message(window, index, total, speaker),
                ExtractionOutput,
                max_tokens,
                usage_sink=usage_sink,
            )
            output = ExtractionOutput.model_validate(result.data)
        except ModelOutputError:
            log.warning("extraction_window_failed", window=index, windows=total)
            return None, Usage(), None
        return output, result.usage, result.model

    jobs = [partial(run, i, text[start:end]) for i, (start, end) in enumerate(spans)]
    outcomes = await _run_all(jobs, concurrency)
    outputs = [o for o, _, _ in outcomes if o is not None]
    usage = sum((u for _, u, _ in outcomes), Usage())
    model = next((m for _, _, m in outcomes if m), None)
    failed = total - len(outputs)
    diff = merge([sanitise(o) for o in outputs], dedupe=total > 1)
    if total and not outputs:
        diff.chunk_only = True
    return ExtractionResult(
        diff=diff,
        windows_run=total,
        windows_failed=failed,
        dropped_bytes=0,
        usage=usage,
        model=model,
        failed_spans=tuple(s for s, (o, _, _) in zip(spans, outcomes, strict=True) if o is None),
    )


async def _run_all(jobs: Sequence[Callable[[], Awaitable[R]]], concurrency: int) -> list[R]:
    """Run in order, or up to `concurrency` at once; the first propagating error wins."""
    if concurrency <= 1:
        return [await job() for job in jobs]
    semaphore = asyncio.Semaphore(concurrency)

    async def guarded(job: Callable[[], Awaitable[R]]) -> R:
        async with semaphore:
            return await job()

    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(guarded(job)) for job in jobs]
    except BaseExceptionGroup as group_error:
        raise _first_leaf(group_error) from None
    return [task.result() for task in tasks]


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def sanitise(output: ExtractionOutput) -> ExtractionDiff:
    """Keep only contract fields, cleaned to one line and capped; drop emptied items."""

    def s(value: str | None, limit: int = SHORT_CHARS) -> str:
        return clean_line(value or "", limit)

    def v(value: str | None) -> str:
        return clean_line(value or "", LONG_CHARS)

    return ExtractionDiff(
        entities=[
            Entity(
                name=s(e.name),
                entity_type=s(e.entity_type) or "other",
                memory_category=e.memory_category,
            )
            for e in output.entities
            if s(e.name)
        ],
        attributes=[
            Attribute(
                entity=s(a.entity),
                key=s(a.key),
                value=v(a.value),
                memory_category=a.memory_category,
            )
            for a in output.attributes
            if s(a.entity) and s(a.key) and v(a.value)
        ],
        relations=[
            Relation(
                subject=s(r.subject),
                label=s(r.label),
                object=s(r.object),
                memory_category=r.memory_category,
            )
            for r in output.relations
            if s(r.subject) and s(r.label) and s(r.object)
        ],
        actions=[
            Action(
                actor=s(a.actor),
                label=s(a.label),
                object=s(a.object),
                memory_category=a.memory_category,
            )
            for a in output.actions
            if s(a.actor) and s(a.label)
        ],
        instructions=[
            Instruction(
                label=s(i.label) or _label_from(v(i.description)), description=v(i.description)
            )
            for i in output.instructions
            if v(i.description)
        ],
        uncertainties=[
            Uncertainty(about=s(u.about), reason=v(u.reason))
            for u in output.uncertainties
            if s(u.about)
        ],
        corrections=[
            Correction(
                entity=s(c.entity),
                key=s(c.key),
                old_value=v(c.old_value) if c.old_value else None,
                new_value=v(c.new_value),
            )
            for c in output.corrections
            if s(c.entity) and s(c.key) and v(c.new_value)
        ],
    )


def _label_from(description: str) -> str:
    return clean_line(description, 60)


def _norm(value: str | None) -> str:
    return " ".join((value or "").casefold().split())


def _unique(items: Iterable[T], key: Callable[[T], Hashable]) -> list[T]:
    seen: set[Hashable] = set()
    out: list[T] = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def merge(diffs: list[ExtractionDiff], *, dedupe: bool) -> ExtractionDiff:
    """Join windows in order; with `dedupe`, the first of each normalised duplicate wins."""
    joined = ExtractionDiff()
    for d in diffs:
        joined.entities += d.entities
        joined.attributes += d.attributes
        joined.relations += d.relations
        joined.actions += d.actions
        joined.instructions += d.instructions
        joined.uncertainties += d.uncertainties
        joined.corrections += d.corrections
    if not dedupe:
        return joined
    return ExtractionDiff(
        entities=_unique(joined.entities, lambda e: _norm(e.name)),
        attributes=_unique(
            joined.attributes, lambda a: (_norm(a.entity), _norm(a.key), _norm(a.value))
        ),
        relations=_unique(
            joined.relations, lambda r: (_norm(r.subject), _norm(r.label), _norm(r.object))
        ),
        actions=_unique(
            joined.actions, lambda a: (_norm(a.actor), _norm(a.label), _norm(a.object))
        ),
        instructions=_unique(joined.instructions, lambda i: _norm(i.description)),
        uncertainties=_unique(joined.uncertainties, lambda u: (_norm(u.about), _norm(u.reason))),
        corrections=_unique(
            joined.corrections,
            lambda c: (_norm(c.entity), _norm(c.key), _norm(c.old_value), _norm(c.new_value)),
        ),
    )
