"""elaboration (placeholder until built)."""

from __future__ import annotations

from memwarden.passes.unit import PassRun


async def run_elaboration(run: PassRun) -> None:
    return None
