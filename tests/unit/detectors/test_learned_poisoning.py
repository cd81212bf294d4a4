"""The learned memory-poisoning baseline (`evals/judge/learned_poisoning.py`): its regression and
its threshold do what the comparison in docs/judge.md relies on."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

_SCRIPT = Path(__file__).resolve().parents[3] / "evals" / "judge" / "learned_poisoning.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("learned_poisoning", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lp = _load()


def test_the_regression_separates_two_clouds_it_was_fitted_on() -> None:
    rng = np.random.default_rng(1)
    x = np.vstack([rng.normal(-1, 0.3, (50, 4)), rng.normal(1, 0.3, (50, 4))])
    y = np.asarray([0] * 50 + [1] * 50)
    scores = lp.score(lp.fit(x, y), x)
    assert (scores[y == 1] > 0.5).all() and (scores[y == 0] < 0.5).all()


def test_a_stronger_penalty_gives_smaller_weights() -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(0, 1, (80, 3))
    y = (x[:, 0] + rng.normal(0, 0.5, 80) > 0).astype(int)
    weak, strong = lp.fit(x, y, l2=0.01), lp.fit(x, y, l2=100.0)
    assert np.abs(strong[:-1]).sum() < np.abs(weak[:-1]).sum()


@settings(max_examples=50)
@given(
    st.lists(st.floats(0, 1), min_size=1, max_size=60),
    st.lists(st.floats(0, 1), min_size=1, max_size=60),
    st.sampled_from([0.0, 0.02, 0.1, 0.5]),
)
def test_the_threshold_keeps_the_negatives_false_positive_rate_under_the_cap(
    negatives: list[float], positives: list[float], cap: float
) -> None:
    scores = np.asarray(negatives + positives)
    y = np.asarray([0] * len(negatives) + [1] * len(positives))
    cut = lp.threshold_for(scores, y, cap)
    assert (scores[y == 0] >= cut).mean() <= cap


def test_rates_count_recall_on_positives_and_false_positives_on_negatives() -> None:
    flags = np.asarray([True, False, True, False])
    y = np.asarray([1, 1, 0, 0])
    assert lp.rates(flags, y) == {
        "positives": 2,
        "negatives": 2,
        "recall": 0.5,
        "false_positive_rate": 0.5,
    }
