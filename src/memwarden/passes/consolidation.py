"""consolidation (placeholder until built)."""

from __future__ import annotations

from memwarden.passes.unit import PassRun


async def run_consolidation(run: PassRun) -> None:
    return None
