"""Measure a learned memory-poisoning classifier against the rules (issue 26).

Logistic regression over the local MiniLM embeddings (the embedder memwarden ships, int8 ONNX
on CPU), trained on the `train` split of `memory_poisoning.jsonl` only and scored on its `test`
split, alone and combined with the rules (`scan()` reporting `prompt_injection`). The decision
threshold is chosen on out-of-fold train scores, as the lowest that keeps the false-positive rate
on train look-alikes at or under `--max-fpr`, so no test row picks it. The shared injection set
(`../shared/data/injection/eval.jsonl`, other people's texts) is a second check: its benign rows
for false positives and its injections for recall (they are injections, not poisoning, so a
poisoning classifier is not expected to find them all).

    PYTHONPATH=src python evals/judge/learned_poisoning.py [--shared PATH] [--json]
        [--external evals/judge/external_poisoning.jsonl LOCOMO.jsonl ...]

`--external` adds rows written by others in the same format: their `train` rows join the
training set (and pick the penalty and threshold with it), their `test` rows are scored per
source, so a held-out source is never seen before it is scored.

The regression is a few lines of numpy (Newton's method with an L2 penalty) so the experiment
needs nothing the service does not install; embeddings are computed once per run.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memwarden.detectors.findings import PROMPT_INJECTION
from memwarden.detectors.injection import scan_injection
from memwarden.detectors.scan import scan
from memwarden.models.local_embedder import LocalEmbedder

HERE = Path(__file__).resolve().parent
DATA = HERE / "memory_poisoning.jsonl"
SHARED = HERE.parent.parent.parent / "shared" / "data" / "injection" / "eval.jsonl"
FOLDS = 5
SEED = 20261203


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 25) -> np.ndarray:
    """Weights (bias last) of an L2-penalised logistic regression, by Newton's method."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    penalty = np.full(xb.shape[1], l2)
    penalty[-1] = 0.0  # the bias is not penalised
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        gradient = xb.T @ (p - y) + penalty * w
        hessian = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def score(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ w[:-1] + w[-1])))


def out_of_fold(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Each train row scored by a model fitted without its fold."""
    rng = np.random.default_rng(SEED)
    folds = rng.integers(0, FOLDS, len(x))
    scores = np.zeros(len(x))
    for k in range(FOLDS):
        held = folds == k
        scores[held] = score(fit(x[~held], y[~held], l2), x[held])
    return scores


def threshold_for(scores: np.ndarray, y: np.ndarray, max_fpr: float) -> float:
    """The lowest threshold whose false-positive rate on the negatives is <= `max_fpr`."""
    negatives = np.sort(scores[y == 0])[::-1]
    allowed = int(np.floor(max_fpr * len(negatives)))
    return float(negatives[allowed]) + 1e-9 if allowed < len(negatives) else 0.0


def rates(flags: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    pos, neg = int((y == 1).sum()), int((y == 0).sum())
    tp, fp = int((flags & (y == 1)).sum()), int((flags & (y == 0)).sum())
    return {
        "positives": pos,
        "negatives": neg,
        "recall": round(tp / pos, 3) if pos else None,
        "false_positive_rate": round(fp / neg, 3) if neg else None,
    }


def group_of(source: str) -> str:
    """Generated rows share templates across splits; hand-written ones do not."""
    return "generated" if source.startswith("generated") else "hand-written"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--max-fpr", type=float, default=0.02)
    parser.add_argument("--l2", type=float, nargs="+", default=[0.1, 1.0, 10.0])
    parser.add_argument("--cache", type=Path, help="an .npy file to keep the embeddings in")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--external", type=Path, nargs="*", default=[])
    args = parser.parse_args()

    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    for path in args.external:
        lines = path.read_text(encoding="utf-8").splitlines()
        rows += [{**json.loads(line), "external": True} for line in lines if line]
    shared = []
    if args.shared.exists():
        shared = [json.loads(line) for line in args.shared.read_text(encoding="utf-8").splitlines()]
    texts = [r["text"] for r in rows] + [r["text"] for r in shared]
    kib = sum(len(t.encode()) for t in texts) / 1024
    started = time.process_time()  # CPU of every onnxruntime thread, not wall time
    if args.cache and args.cache.exists():
        vectors = np.load(args.cache)
        embed_s = None  # read from the cache: not measured
    else:
        vectors = np.asarray(LocalEmbedder().embed(texts), dtype=np.float64)
        embed_s = time.process_time() - started
        if args.cache:
            np.save(args.cache, vectors)
    x, xs = vectors[: len(rows)], vectors[len(rows) :]
    y = np.asarray([int(r["label"] != "none") for r in rows])
    train = np.asarray([r["split"] == "train" for r in rows])

    # The penalty too is chosen on train rows only: the best out-of-fold recall at the FP cap.
    best: tuple[float, float, float, np.ndarray] | None = None
    for l2 in args.l2:
        scores = out_of_fold(x[train], y[train], l2)
        cut = threshold_for(scores, y[train], args.max_fpr)
        recall = float((scores[y[train] == 1] >= cut).mean())
        if best is None or recall > best[0]:
            best = (recall, l2, cut, scores)
    assert best is not None
    _, l2, cut, oof = best
    w = fit(x[train], y[train], l2)
    learned = score(w, x) >= cut
    rules = np.asarray([PROMPT_INJECTION in scan(r["text"]).codes for r in rows])
    # Where the rules abstain: some cue fired but the score stayed under the threshold.
    unsure = np.asarray([scan_injection(r["text"]).sub_threshold for r in rows])
    combos: dict[str, Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]] = {
        "rules": lambda r, c, u: r,
        "classifier": lambda r, c, u: c,
        "rules or classifier": lambda r, c, u: r | c,
        "rules and classifier": lambda r, c, u: r & c,
        "rules, classifier where rules abstain": lambda r, c, u: r | (u & c),
    }
    ours = np.asarray([not r.get("external") for r in rows])
    test = ~train & ours
    external_test = ~train & ~ours
    held_out = sorted({r["source"] for r, held in zip(rows, external_test, strict=True) if held})
    groups: Sequence[tuple[str, np.ndarray]] = [
        ("test, all", test),
        *(
            (f"test, {g}", test & np.asarray([group_of(r["source"]) == g for r in rows]))
            for g in ("generated", "hand-written")
        ),
        *(
            (
                f"external test, {name}",
                external_test & np.asarray([r["source"] == name for r in rows]),
            )
            for name in held_out
        ),
        ("train, out-of-fold", train),
    ]
    report: dict[str, Any] = {
        "l2": l2,
        "threshold": round(cut, 4),
        "embedding_cpu_ms_per_kib": None if embed_s is None else round(1000 * embed_s / kib, 2),
        "results": {},
    }
    oof_flags = np.zeros(len(rows), dtype=bool)
    oof_flags[train] = oof >= cut
    for name, combine in combos.items():
        for label, mask in groups:
            c = oof_flags if label.startswith("train") else learned
            flags = combine(rules, c, unsure)
            report["results"][f"{name} | {label}"] = rates(flags[mask], y[mask])
    if shared:
        ys = np.asarray([int(r["label"] != "benign") for r in shared])
        rs = np.asarray([PROMPT_INJECTION in scan(r["text"]).codes for r in shared])
        us = np.asarray([scan_injection(r["text"]).sub_threshold for r in shared])
        cs = score(w, xs) >= cut
        for name, combine in combos.items():
            report["results"][f"{name} | shared injection set"] = rates(combine(rs, cs, us), ys)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"l2 {l2}, threshold {report['threshold']} (train out-of-fold FP rate <= {args.max_fpr})")
    cost = report["embedding_cpu_ms_per_kib"]
    print(
        f"embedding cost (CPU): {'cached, not measured' if cost is None else f'{cost} ms per KiB'}"
    )
    print(f"{'detector | rows':<75} {'pos':>4} {'neg':>4} {'recall':>7} {'FP rate':>7}")
    for key, m in report["results"].items():
        print(
            f"{key:<75} {m['positives']:>4} {m['negatives']:>4} "
            f"{m['recall'] if m['recall'] is not None else '-':>7} "
            f"{m['false_positive_rate'] if m['false_positive_rate'] is not None else '-':>7}"
        )


if __name__ == "__main__":
    main()
