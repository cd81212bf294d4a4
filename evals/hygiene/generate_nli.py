"""Build `nli.jsonl`: duplicate, contradiction and unrelated pairs drawn from SICK.

SICK (Marelli et al., LREC 2014), as copied in `../shared/data/nli/sick/SICK.txt`
(GitHub `kkalouli/SICK-processing` at 0848f4ae; see that folder's README). SICK is
distributed under CC BY-NC-SA 3.0, so the pairs this script writes are too.

Mapping (strict, so a label is what a memory service would call it):
- duplicate: entailment in both directions (A entails B and B entails A: a paraphrase),
  relatedness >= 4.5;
- contradiction: contradiction in both directions, relatedness >= 3.5 (same scene);
- unrelated: neutral in both directions, relatedness <= 2.0.

SICK's TRAIN pairs make our `train` split and its TEST pairs our `test` split, so nothing
tuned on train has seen a test sentence pair. Times are a day apart in a random order
(the verdicts here do not depend on time); projects are unknown (null).

    python evals/hygiene/generate_nli.py ../shared/data/nli/sick/SICK.txt > evals/hygiene/nli.jsonl
"""

from __future__ import annotations

import csv
import json
import random
import sys
from datetime import UTC, datetime, timedelta

PER_CLASS = {"train": 60, "test": 60}
SPLITS = {"TRAIN": "train", "TEST": "test"}
BASE = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


def label_of(row: dict[str, str]) -> str | None:
    ab, ba, rel = row["entailment_AB"], row["entailment_BA"], float(row["relatedness_score"])
    if ab == "A_entails_B" and ba == "B_entails_A" and rel >= 4.5:
        return "duplicate"
    if ab == "A_contradicts_B" and ba == "B_contradicts_A" and rel >= 3.5:
        return "contradiction"
    if ab == "A_neutral_B" and ba == "B_neutral_A" and rel <= 2.0:
        return "unrelated"
    return None


def main(path: str) -> None:
    rng = random.Random(11)
    buckets: dict[tuple[str, str], list[dict[str, str]]] = {}
    with open(path, encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            split = SPLITS.get(row["SemEval_set"].strip())
            label = label_of(row)
            if split and label and row["sentence_A"].strip() != row["sentence_B"].strip():
                buckets.setdefault((split, label), []).append(row)
    for (split, label), rows in sorted(buckets.items()):
        for row in sorted(rng.sample(rows, PER_CLASS[split]), key=lambda r: int(r["pair_ID"])):
            day = timedelta(days=rng.randrange(0, 300))
            a_time, b_time = BASE + day, BASE + day + timedelta(days=1)
            if rng.random() < 0.5:
                a_time, b_time = b_time, a_time
            print(
                json.dumps(
                    {
                        "id": f"sick-{row['pair_ID']}",
                        "a": row["sentence_A"],
                        "b": row["sentence_B"],
                        "a_time": a_time.isoformat(),
                        "b_time": b_time.isoformat(),
                        "a_project": None,
                        "b_project": None,
                        "label": label,
                        "superseding": None,
                        "split": split,
                        "source": "SICK (CC BY-NC-SA 3.0)",
                    }
                )
            )


if __name__ == "__main__":
    main(sys.argv[1])
