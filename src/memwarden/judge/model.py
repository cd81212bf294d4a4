"""The judge's model calls: one per 16,000-character window, one per reconciliation.

Which model: the request path (facts, batch, chat, reflection) uses the deployment's
judge model so a Context cannot slow or cheapen a synchronous write; background work
(documents and the passes) uses the Context's `models.judge`, else the deployment's.
Any failure (transport, timeout, unreadable reply, unknown provider) is a `JudgeError`,
which the gate turns into the Context's `on_error` behaviour.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final

from memwarden.config import ContextConfig
from memwarden.errors import BudgetExhausted
from memwarden.gatekeeper import RowInput
from memwarden.judge.policy import normalise_reasons
from memwarden.judge.text import rows_payload, window_message
from memwarden.judge.usage import DeferredSink
from memwarden.models.base import JsonProvider, ModelError, ModelSpec
from memwarden.models.contracts import JudgeOutput, RowJudgeOutput
from memwarden.models.prompts import system_prompt
from memwarden.models.registry import Models

REQUEST_PATH_SOURCES: Final = frozenset(
    {"facts", "facts_batch", "chat", "reflection", "memory_command"}
)
JUDGE_MAX_TOKENS: Final = 200
ROW_TOKENS_EACH: Final = 40
ROW_BATCH: Final = 200  # the row-judge contract's cap on rows per reply

Signal = tuple[str, tuple[str, ...]]


class JudgeError(Exception):
    """The model could not give a usable verdict; never carries content."""


@dataclass(frozen=True)
class ModelChoice:
    provider: JsonProvider | None
    name: str | None


def choose_model(models: Models, config: ContextConfig, source: str) -> ModelChoice:
    """The judge model for this source, or none (detectors alone)."""
    choice = config.models.judge
    if source not in REQUEST_PATH_SOURCES and choice is not None:
        spec = ModelSpec(choice.provider, choice.model)
        try:
            return ModelChoice(models.chat_provider(spec, "judge"), str(spec))
        except ValueError as exc:
            raise JudgeError("the Context's judge model cannot be used") from exc
    default = models.specs.get("judge")
    provider = models.judge
    return ModelChoice(provider, str(default) if default and provider is not None else None)


async def judge_windows(
    provider: JsonProvider, addendum: str | None, windows: Sequence[str], sink: DeferredSink
) -> list[Signal]:
    """One call per window, concurrently; all must answer for the item to be judged."""
    system = system_prompt("judge", addendum)

    async def one(window: str) -> Signal:
        result = await provider.complete_json(
            "judge",
            system,
            window_message(window),
            JudgeOutput,
            JUDGE_MAX_TOKENS,
            usage_sink=sink,
        )
        return str(result.data["verdict"]), normalise_reasons(result.data.get("reasons") or [])

    outcomes = await asyncio.gather(*(one(w) for w in windows), return_exceptions=True)
    signals: list[Signal] = []
    failed = False
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            _check(outcome)
            failed = True
            continue
        signals.append(outcome)
    if failed:
        # A known deny still wins over an error elsewhere: it is final whatever the rest say.
        if any(verdict == "deny" for verdict, _ in signals):
            return [s for s in signals if s[0] == "deny"]
        raise JudgeError("a judge call failed")
    return signals


async def judge_rows(
    provider: JsonProvider,
    addendum: str | None,
    rows: Sequence[RowInput],
    config: ContextConfig,
    sink: DeferredSink,
    before_call: Callable[[], Awaitable[None]] | None = None,
) -> dict[str, Signal]:
    """Every row judged in one call (batches of 200 past that); a missing row is an error.
    `before_call` runs before each batch's call (the budget check); when it refuses after
    a batch with a denied row, that batch's usage is forgotten: a deny leaves no trace."""
    system = system_prompt("row_judge", addendum)
    found: dict[str, Signal] = {}
    for start in range(0, len(rows), ROW_BATCH):
        batch = rows[start : start + ROW_BATCH]
        if before_call is not None:
            try:
                await before_call()
            except BudgetExhausted:
                if any(v == "deny" for v, _ in found.values()):
                    sink.bookings.clear()
                raise
        max_tokens = min(8000, 100 + ROW_TOKENS_EACH * len(batch))
        try:
            result = await provider.complete_json(
                "row_judge",
                system,
                rows_payload(batch, config),
                RowJudgeOutput,
                max_tokens,
                usage_sink=sink,
            )
        except Exception as exc:
            _check(exc)
            raise JudgeError("the row judge call failed") from None
        wanted = {row.id for row in batch}
        for item in result.data.get("rows") or []:
            row_id = str(item.get("id"))
            if row_id in wanted and row_id not in found:
                found[row_id] = (str(item["verdict"]), normalise_reasons(item.get("reasons") or []))
        if wanted - found.keys():
            raise JudgeError("the row judge left rows without a verdict")
    return found


def _check(exc: BaseException) -> None:
    """Re-raise what is not a model failure (programming errors must not read as on_error)."""
    if isinstance(exc, ModelError | TimeoutError | asyncio.TimeoutError | JudgeError):
        return
    raise exc
