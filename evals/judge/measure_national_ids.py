"""Measure how strongly each python-stdnum personal-identifier module rejects random strings.

    python evals/judge/measure_national_ids.py            # print the table
    python evals/judge/measure_national_ids.py --python   # as the literal in national_ids.py

For every module in `memwarden.detectors.national_ids.PERSON_MODULES`: the compact lengths it
accepts (from the examples in its own docstring, plus lengths where random digit strings ever
validate), whether its examples hold letters, and per length its rejection rate: the share of
random strings in the shape of its examples of that length (each digit replaced by a random
digit, each letter by a random letter; a run of digits where no example has the length) that
the detector's own check refuses (`national_ids._valid`: the module's `is_valid` and a birth
date in a lifetime). Per length, because one module may hold a strong and a weak number (a
12-digit Russian INN of a person has two check digits, the 10-digit one of a company one).
The detector reports a bare value only for modules
whose rejection reaches `BARE_REJECTION` (or `FORMATTED_REJECTION` when the value is laid out
as the module formats it); the others need a cue word. Seeded, so the table is reproducible.
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from memwarden.detectors.national_ids import PERSON_MODULES, _squeeze, _valid

# 40,000 draws put one standard error of a 1% acceptance at 0.05 points, so that noise does not
# decide which side of `BARE_REJECTION` a module falls (4,000 left it at 0.16).
SAMPLES = 40000
# Modules whose docstring quotes no example: a shape written from its description instead.
SHAPES_FROM_DESCRIPTION = {"mu.nid": ["A0000000000000"]}
_QUOTED = re.compile(r"'([^'\n]{5,40})'")


def examples(module: object) -> list[str]:
    """Compact forms of the quoted strings in the module's docstring that it accepts."""
    doc = getattr(module, "__doc__", "") or ""
    found: list[str] = []
    for text in _QUOTED.findall(doc):
        try:
            if valid(module, text):
                compact = module.compact(text)  # type: ignore[attr-defined]
                if compact not in found:
                    found.append(compact)
        except Exception:
            continue
    return found


def valid(module: object, value: str) -> bool:
    try:
        return bool(module.is_valid(value))  # type: ignore[attr-defined]
    except Exception:
        return False


def randomised(shape: str, rng: random.Random) -> str:
    return "".join(
        rng.choice(string.digits)
        if c.isdigit()
        else rng.choice(string.ascii_uppercase)
        if c.isalpha()
        else c
        for c in shape
    )


def letters(shapes: list[str]) -> int:
    """0: the examples are all digits, 1: all hold a letter, 2: both kinds occur."""
    kinds = {any(c.isalpha() for c in _squeeze(s)) for s in shapes}
    return 2 if len(kinds) != 1 else int(kinds.pop())


def measure(name: str, rng: random.Random) -> tuple[dict[int, float], int, int]:
    """Per compact length, the rejection of random strings of its shape; shapes; letters."""
    module = importlib.import_module(f"stdnum.{name}")
    shapes = examples(module) or SHAPES_FROM_DESCRIPTION.get(name, [])
    lengths = {len(_squeeze(s)) for s in shapes}
    for length in range(6, 21):
        if any(
            valid(module, "".join(rng.choice(string.digits) for _ in range(length)))
            for _ in range(2000)
        ):
            lengths.add(length)
    if not lengths:  # no example and no random digit string passes: nothing to measure
        return {}, 0, 2
    kind = letters(shapes) if shapes else 0
    if kind == 0 and check_letter_x(module, shapes):
        kind = 2
    rejection: dict[int, float] = {}
    for length in sorted(lengths):
        fitting = [s for s in shapes if len(_squeeze(s)) == length] or ["0" * length]
        accepted = sum(
            _valid(name, randomised(fitting[i % len(fitting)], rng)) for i in range(SAMPLES)
        )
        rejection[length] = round(1 - accepted / SAMPLES, 4)
    return rejection, len(shapes), kind


def check_letter_x(module: object, shapes: list[str]) -> bool:
    """True when a mod-11 check character `X` can end the number, though no example shows one
    (a Chinese RIC ending in X): each example's two digits before its check digit are varied
    (a serial, not a date) and `X` put last. Deterministic, and no draw from the random
    generator above, so the rejection rates do not move."""
    for shape in shapes:
        compact = _squeeze(shape)
        if len(compact) < 4 or not compact[-3:].isdigit():
            continue
        for serial in range(100):
            if valid(module, f"{compact[:-3]}{serial:02d}X"):
                return True
    return False


def union() -> int:
    """Per length, the share of random digit runs that one of the modules reported bare
    (rejection >= BARE_REJECTION at that length, digits allowed) accepts as the detector checks
    them: what the bare rule costs on numbers that are not ids, since every such module is
    tried."""
    from memwarden.detectors.national_ids import _STRENGTH, BARE_REJECTION

    rng = random.Random(20261203)
    for length in range(8, 19):
        bare = [
            name
            for name, (rejections, kind) in _STRENGTH.items()
            if rejections.get(length, 0.0) >= BARE_REJECTION and kind != 1
        ]
        if not bare:
            continue
        runs = ["".join(rng.choice(string.digits) for _ in range(length)) for _ in range(SAMPLES)]
        # The detector's own test: the module's check and a birth date in a lifetime.
        passed = sum(any(_valid(m, run) for m in bare) for run in runs)
        print(f"{length:2} digits  {len(bare):2} bare modules  {passed / SAMPLES:.4f} pass one")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="store_true", help="print as a Python literal")
    parser.add_argument(
        "--union", action="store_true", help="how often random digit runs pass any bare module"
    )
    args = parser.parse_args()
    if args.union:
        return union()
    rng = random.Random(20261203)
    rows = {name: measure(name, rng) for name in PERSON_MODULES}
    if args.python:
        print("_STRENGTH: Final[dict[str, tuple[dict[int, float], int]]] = {")
        for name, (rejection, _, kind) in rows.items():
            print(f'    "{name}": ({rejection!r}, {kind}),')
        print("}")
        return 0
    print(f"{'module':28} {'shapes':6} letters  rejection per length")
    for name, (rejection, shapes, kind) in sorted(rows.items()):
        per_length = "  ".join(f"{n}: {r:.4f}" for n, r in rejection.items())
        print(f"{name:28} {shapes:6} {kind:7}  {per_length}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
