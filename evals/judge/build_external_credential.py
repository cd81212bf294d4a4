"""Build `external_credential.jsonl` from secret scanners' own test suites.

The extracts under `external_sources/` copy, with their licences and commits, the literal
positives and negatives of gitleaks (MIT), detect-secrets (Apache-2.0), Nosey Parker
(Apache-2.0), secretlint (MIT), CredSweeper (MIT) and whispers (Apache-2.0); SOURCES.md says
what was taken and what was left out. This script only expands them into rows of our
evaluation format: it writes no carrier of its own (gitleaks' sample carriers are gitleaks'
templates, listed in `gitleaks_samples.yml`).

Split by source file: every row of one upstream file lands in the same split (the first byte
of the SHA-256 of `<repo>@<path>`, even = train), so a rule tuned on a train file is never
scored on its own rows.

    python evals/judge/build_external_credential.py
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "external_sources"
OUT = HERE / "external_credential.jsonl"
# A bare value: one token with no assignment, quoting or markup around it.
_RAW = re.compile(r"""^[^\s=:<>"'`,;(){}]+$""")


def split_of(source: str) -> str:
    return "train" if hashlib.sha256(source.encode()).digest()[0] % 2 == 0 else "test"


def _row(text: str, positive: bool, source: str, form: str | None = None) -> dict[str, Any]:
    return {
        "text": text,
        "label": "credential" if positive else "none",
        "class": "credential",
        "split": split_of(source),
        "source": source,
        "form": form or ("raw" if _RAW.match(text.strip()) else "carrier"),
    }


def _file_rows(doc: dict[str, Any], value: str = "") -> list[dict[str, Any]]:
    rows = []
    for entry in doc["files"]:
        source = f"{doc['repo']}@{entry['path']}"
        for item in entry["rows"]:
            ((kind, text),) = item.items()
            rows.append(_row(str(text).replace("{V}", value), kind == "c", source))
    return rows


def _sample_rows(doc: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for entry in doc["samples"]:
        source = f"{doc['repo']}@{entry['path']}"
        for identifier, secret in entry["values"]:
            rows.append(_row(secret, True, source, "raw"))
            for template in doc["templates"]:
                text = template.replace("{i}", identifier).replace("{s}", secret)
                rows.append(_row(text, True, source, "carrier"))
    return rows


def build() -> list[dict[str, Any]]:
    def load(name: str) -> dict[str, Any]:
        return yaml.safe_load((SOURCES / name).read_text(encoding="utf-8"))

    ds = load("detect_secrets.yml")
    candidates = [
        *_sample_rows(load("gitleaks_samples.yml")),
        *_file_rows(load("gitleaks_rules.yml")),
        *_file_rows(ds, ds["value"]),
        *_file_rows(load("noseyparker.yml")),
        *_file_rows(load("secretlint.yml")),
        *_file_rows(load("credsweeper.yml")),
        *_file_rows(load("whispers.yml")),
    ]
    # One row per text; a text the suites label both ways is dropped rather than guessed.
    labels: dict[str, set[str]] = {}
    for row in candidates:
        labels.setdefault(row["text"], set()).add(row["label"])
    rows, seen = [], set()
    for row in candidates:
        if row["text"] in seen or len(labels[row["text"]]) > 1:
            continue
        seen.add(row["text"])
        rows.append(row)
    return rows


def main() -> None:
    rows = build()
    with OUT.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = Counter((r["split"], r["label"], r["form"]) for r in rows)
    print(f"{len(rows)} rows -> {OUT.name}")
    for key in sorted(counts):
        print(" ", *key, counts[key])


if __name__ == "__main__":
    main()
