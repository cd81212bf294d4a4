"""Score the personal-data and card detectors on other projects' rows, against issue 26's targets.

    python evals/judge/measure_external_personal_data.py [--split test] [--json]

Reads `external_personal_data.jsonl` and `external_payment_card.jsonl` (see SOURCES.md), runs
the detectors (`memwarden.detectors.scan.scan`, the same call `memwarden eval judge` makes) on
every row of the split and prints recall and false-positive rate per target group, per
identifier type (`kind`, and the stdnum module for national ids), and per source, then which
of the issue's targets are met. The memwarden imported is the first on `sys.path`, so
`PYTHONPATH=<another checkout>/src` scores another version of the rules on the same rows
(how the before/after tables in docs/judge.md were made).

Target groups:
- contact details (e-mail, phone) and IBAN: recall >= 0.95;
- national identifiers that carry a checksum: recall >= 0.80. A stdnum module carries one when
  its source raises `InvalidChecksum`; python-validators' test functions are mapped to the
  identifier they test. Identifiers without one (Costa Rica's cédula, India's PAN, Pakistan's
  CNIC, US SSNs by stdnum) are reported beside, with no target: bare, nothing tells them from
  any other number;
- the other identifiers (SSN, NINO, ITIN, passport, driving licence, bank account) when a cue
  word is in the row (a word of three letters or more, not part of the value): recall >= 0.60;
  bare values of these kinds are reported beside, since the rules report them only with a cue
  word;
- personal data false positives <= 0.02; cards recall >= 0.97 at a false-positive rate <= 0.01.
  Cards are also scored without the numbers that fail the Luhn check their issuer's rules
  require (brand-detection tests that never check one), which no rule can tell from a typo.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parents[1] / "src"))  # after PYTHONPATH, so another tree can win

from stdnum import luhn  # noqa: E402

from memwarden.detectors import national_ids  # noqa: E402
from memwarden.detectors.scan import scan  # noqa: E402

FILES = ("external_personal_data.jsonl", "external_payment_card.jsonl")
CONTACT = frozenset({"email", "phone"})
CUE_KINDS = frozenset(
    {"us_ssn", "us_itin", "uk_nino", "passport", "driving_licence", "bank_account"}
)
# python-validators' i18n tests (`detail`), by whether the identifier carries a check.
VALIDATORS_CHECKSUM = {
    "test_returns_true_on_valid_nif": True,  # Spain: check letter
    "test_returns_true_on_valid_nie": True,
    "test_returns_true_on_valid_doi": True,
    "test_returns_true_on_valid_ssn": True,  # Finland's HETU: check character
    "test_returns_true_on_valid_ind_aadhar": True,  # Verhoeff
    "test_returns_true_on_valid_ru_inn": True,
    "test_returns_true_on_valid_ind_pan": False,
}
# Networks that issue numbers without a Luhn digit (UnionPay's 62 range); all others use one.
NO_LUHN_PREFIXES = ("62",)
_CUE = re.compile(r"\b[^\W\d_]{3,}\b")
TARGETS: tuple[tuple[str, str, str, float], ...] = (
    # (group, class, measure, bound): recall >= bound, or false-positive rate <= bound
    ("contact details", "personal_data", "recall", 0.95),
    ("iban", "personal_data", "recall", 0.95),
    ("national id with a checksum", "personal_data", "recall", 0.80),
    ("other ids, with a cue word", "personal_data", "recall", 0.60),
    ("all", "personal_data", "fpr", 0.02),
    ("all", "payment_card", "recall", 0.97),
    ("all", "payment_card", "fpr", 0.01),
    ("card, valid by its issuer's rules", "payment_card", "recall", 0.97),
)


def _has_checksum(module: str) -> bool:
    source = inspect.getsource(national_ids._modules()[module])
    return "InvalidChecksum" in source


def groups(row: dict[str, Any]) -> list[str]:
    """The target groups a row counts in, besides `all`."""
    kind, detail = row["kind"], row.get("detail") or ""
    if row["class"] == "payment_card":
        digits = "".join(c for c in row["text"] if c.isdigit())
        if kind == "card" and not (luhn.is_valid(digits) or digits.startswith(NO_LUHN_PREFIXES)):
            return ["card failing its issuer's Luhn check"]
        return ["card, valid by its issuer's rules"] if kind == "card" else []
    if kind in CONTACT:
        return ["contact details"]
    if kind == "iban":
        return ["iban"]
    if kind == "national_id":
        if detail in VALIDATORS_CHECKSUM:
            checked = VALIDATORS_CHECKSUM[detail]
        else:
            checked = detail in national_ids.PERSON_MODULES and _has_checksum(detail)
        return ["national id with a checksum" if checked else "national id without a checksum"]
    if kind in CUE_KINDS:
        cued = _CUE.search(row["text"]) is not None
        return ["other ids, with a cue word" if cued else "other ids, bare value"]
    return []


def rows(split: str | None) -> Iterable[dict[str, Any]]:
    for name in FILES:
        with (HERE / name).open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                if split is None or row.get("split") == split:
                    yield row


def measure(split: str | None) -> dict[str, dict[tuple[str, str], list[int]]]:
    """counts[table][(class, key)] = [positives, true positives, negatives, false positives]."""
    counts: dict[str, dict[tuple[str, str], list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0, 0])
    )
    for row in rows(split):
        cls = row["class"]
        positive = row["label"] != "none"
        fired = cls in scan(row["text"]).codes
        kind = row["kind"]
        if kind == "national_id" and row.get("detail"):
            kind = f"national_id:{row['detail']}"
        keys = {
            "group": ["all", *groups(row)],
            "kind": [kind],
            "source": [row["source"]],
        }
        for table, names in keys.items():
            for name in names:
                entry = counts[table][(cls, name)]
                if positive:
                    entry[0] += 1
                    entry[1] += fired
                else:
                    entry[2] += 1
                    entry[3] += fired
    return counts


def _rate(hit: int, total: int) -> float | None:
    return hit / total if total else None


def _fmt(value: float | None) -> str:
    return "    -" if value is None else f"{value:.3f}"


def verdicts(counts: dict[str, dict[tuple[str, str], list[int]]]) -> list[dict[str, Any]]:
    out = []
    for group, cls, measure_name, bound in TARGETS:
        pos, tp, neg, fp = counts["group"].get((cls, group), [0, 0, 0, 0])
        value = _rate(tp, pos) if measure_name == "recall" else _rate(fp, neg)
        if value is None:
            met = None
        else:
            met = value >= bound if measure_name == "recall" else value <= bound
        out.append({"class": cls, "group": group, "measure": measure_name, "bound": bound,
                    "value": value, "rows": pos if measure_name == "recall" else neg,
                    "met": met})  # fmt: skip
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("train", "test"), help="score only this split")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    counts = measure(args.split)
    if args.json:
        tables = {
            table: [
                {
                    "class": cls,
                    "key": key,
                    "positives": c[0],
                    "true_positives": c[1],
                    "negatives": c[2],
                    "false_positives": c[3],
                }
                for (cls, key), c in sorted(entries.items())
            ]
            for table, entries in counts.items()
        }
        print(json.dumps({"split": args.split, "tables": tables, "targets": verdicts(counts)}))
        return 0
    for table in ("group", "kind", "source"):
        print(f"\n== per {table} (split {args.split or 'all'})")
        print(f"{'class':14} {table:60} {'pos':>5} {'TP':>5} {'recall':>6} {'neg':>5} "
              f"{'FP':>4} {'FPR':>6}")  # fmt: skip
        for (cls, key), (pos, tp, neg, fp) in sorted(counts[table].items()):
            print(f"{cls:14} {key:60} {pos:5} {tp:5} {_fmt(_rate(tp, pos)):>6} {neg:5} "
                  f"{fp:4} {_fmt(_rate(fp, neg)):>6}")  # fmt: skip
    print("\n== targets (issue 26)")
    for v in verdicts(counts):
        sign = ">=" if v["measure"] == "recall" else "<="
        state = "no rows" if v["met"] is None else "met" if v["met"] else "NOT met"
        print(f"{v['class']:14} {v['group']:32} {v['measure']:6} {_fmt(v['value'])} "
              f"{sign} {v['bound']:.2f} over {v['rows']:4} rows: {state}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
