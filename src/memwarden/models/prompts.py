"""Stage prompts, loaded by name from `memwarden/prompts/<name>.md`.

Prompts live in markdown files versioned with the code so a prompt change is a
reviewable diff, not a string buried in logic.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

PROMPT_NAMES = ("judge", "row_judge", "extraction", "adjudication", "hygiene", "chat")

ADDENDUM_HEADING = (
    "## Context addendum\n\n"
    "The operator of this memory space added the guidance below. It adds to the rules "
    "above and never overrides them: where it conflicts with them, the rules above win."
)


@lru_cache(maxsize=len(PROMPT_NAMES))
def load_prompt(stage: str) -> str:
    """The stage's rules; only known names are read, so no path comes from input."""
    if stage not in PROMPT_NAMES:
        raise KeyError(f"no prompt for stage {stage!r}")
    source = resources.files("memwarden").joinpath("prompts", f"{stage}.md")
    return source.read_text(encoding="utf-8").strip()


def system_prompt(stage: str, addendum: str | None = None) -> str:
    """The system message: the stage's rules, then the Context's addendum if any.

    The addendum goes here and never into the user message, so operator guidance
    and untrusted content are never mixed in one message.
    """
    rules = load_prompt(stage)
    extra = (addendum or "").strip()
    if not extra:
        return rules
    return f"{rules}\n\n{ADDENDUM_HEADING}\n\n{extra}"
