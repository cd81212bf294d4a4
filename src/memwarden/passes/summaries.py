"""What rollup and gist share: a summary from the stage's model, or offline the text's
highest-ranked sentences (`extractive.py`)."""

from __future__ import annotations

from memwarden.models.contracts import SummaryOutput
from memwarden.passes import extractive
from memwarden.passes.unit import PassRun, summary_text
from memwarden.usage import Bookings


async def summarise(run: PassRun, text: str, sink: Bookings) -> str:
    """The summary to store ('' when there is none: nothing is written)."""
    if run.provider is None:
        return summary_text(extractive.summarise(text))
    out = await run.ask(text, SummaryOutput, sink)
    return summary_text(out.summary) if out is not None else ""
