"""LoCoMo as the benchmarks read it: the file under ../shared from the repository root,
its sessions in order, and a turn as the text written through /facts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo" / "locomo10.json"


def sessions(conversation: dict[str, Any]) -> list[tuple[int, str, list[dict[str, Any]]]]:
    """(number, date, turns) for every session that holds turns (conv-26 lists empty ones)."""
    out = []
    for key, turns in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(turns, list) and turns:
            n = int(match[1])
            out.append((n, str(conversation.get(f"session_{n}_date_time", "")), turns))
    return sorted(out)


def turn_text(date: str, turn: dict[str, Any]) -> str:
    text = f"[{date}] {turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" (shared a photo: {turn['blip_caption']})"
    return text
