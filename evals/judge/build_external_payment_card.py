"""Build `external_payment_card.jsonl` from other projects' own test suites.

    python evals/judge/build_external_payment_card.py [--sdists DIR]

Positives: the card numbers that validators' tests accept, and those of Presidio's,
braintree/card-validator's, creditcards-types' and creditcardnumber's tests (copied with
their provenance into `external_sources/transcribed.jsonl`; those suites ship no source
distribution with tests). Negatives: the numbers those suites reject, and the device, barcode
and register numbers python-stdnum's doctests state valid (IMEIs and MEIDs carry a Luhn digit
by design; EANs, ISBNs, SIRETs and SINs are long digit runs with check digits of their own).
Rows are split by source (file), so no file is in both train and test. See SOURCES.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from external import (
    HERE,
    SDISTS,
    capped,
    fetch_sdists,
    parametrized,
    stdnum_values,
    transcribed,
    write_rows,
)

CLASS = "payment_card"
# Digit runs that are not cards, each as its suite states them.
NOT_CARD_MODULES = frozenset(
    [
        "imei",
        "meid",
        "imsi",
        "ean",
        "isbn",
        "issn",
        "ismn",
        "fr.siret",
        "fr.siren",
        "ca.sin",
        "ca.bn",
        "il.idnr",
        "au.abn",
        "luhn",
    ]
)
NEGATIVES_PER_FILE = 15
VALIDATORS_CARD_TESTS = {
    "test_returns_true_on_valid_card_number": (CLASS, "card"),
    "test_returns_failed_on_valid_card_number": ("none", "negative:luhn_invalid"),
}


def _row(source: str, label: str, kind: str, text: str, detail: str = "") -> dict[str, Any]:
    return {"source": source, "class": CLASS, "label": label, "kind": kind, "text": text,
            "detail": detail}  # fmt: skip


def stdnum_rows(tree: Path) -> list[dict[str, Any]]:
    repo = SDISTS["stdnum"][1]
    values = (v for v in stdnum_values(tree) if v.module in NOT_CARD_MODULES and v.valid)
    return [
        _row(f"{repo}@{v.path}", "none", f"negative:{v.module}", v.value, v.module)
        for v in capped(values, NEGATIVES_PER_FILE)
    ]


def validators_rows(tree: Path) -> list[dict[str, Any]]:
    path = "tests/test_card.py"
    source = f"{SDISTS['validators'][1]}@{path}"
    rows: list[dict[str, Any]] = []
    for function, values in parametrized(tree / path).items():
        if function in VALIDATORS_CARD_TESTS:
            label, kind = VALIDATORS_CARD_TESTS[function]
            rows.extend(_row(source, label, kind, v, function) for v in values)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sdists", type=Path, help="folder holding (or to receive) the sdists")
    args = parser.parse_args()
    trees = fetch_sdists(args.sdists)
    rows = [
        *validators_rows(trees["validators"]),
        *stdnum_rows(trees["stdnum"]),
        *transcribed(CLASS),
    ]
    write_rows(rows, HERE / "external_payment_card.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
