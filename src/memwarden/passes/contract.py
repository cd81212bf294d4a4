"""What the passes' interfaces hand in and read back."""

from __future__ import annotations

from typing import Final, Literal, get_args

Stage = Literal["consolidation", "elaboration", "rollup", "gist"]
STAGES: Final[tuple[str, ...]] = get_args(Stage)
COUNTS: Final = ("inputs", "written", "dropped", "held")
TRIGGERS: Final = ("manual", "settled", "schedule")
