"""Write LoCoMo's conversation turns as memory-poisoning look-alikes, for `memwarden eval judge`.

    python evals/judge/lookalikes_locomo.py OUT.jsonl
    memwarden eval judge --data OUT.jsonl

Every turn of the ten LoCoMo conversations (5,882 turns, `../shared/data/locomo`) becomes a
`none` row of class `memory_poisoning`, source `locomo`, split `test`: people telling each
other about their lives, plans, preferences and changes of mind, written by others and never
read while the rules were written. LoCoMo is CC BY-NC 4.0, so the rows are written outside the
repository at measurement time and never committed (see SOURCES_poisoning.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "locomo" / "locomo10.json"


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out = Path(sys.argv[1])
    rows = 0
    with out.open("w", encoding="utf-8") as fh:
        for sample in json.loads(DATA.read_text(encoding="utf-8")):
            conversation = sample["conversation"]
            for key, turns in conversation.items():
                if not (key.startswith("session_") and isinstance(turns, list)):
                    continue
                for turn in turns:
                    row = {
                        "text": turn["text"],
                        "label": "none",
                        "class": "memory_poisoning",
                        "split": "test",
                        "source": "locomo",
                    }
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    rows += 1
    print(f"{rows} rows written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
