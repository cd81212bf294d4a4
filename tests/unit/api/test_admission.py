"""The admission budgets (memwarden/admission.py) as pure counters, and their place in the
OpenAPI document: every keyed operation can answer 429 and 503 with Retry-After."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memwarden.admission import Admission
from memwarden.api.app import create_app

A, B = uuid.uuid4(), uuid.uuid4()


def test_a_process_admits_up_to_its_budget_and_again_after_one_leaves() -> None:
    budget = Admission(max_in_flight=2)
    assert budget.enter() and budget.enter()
    assert not budget.enter() and budget.in_flight == 2  # a refusal counts nothing
    budget.leave()
    assert budget.enter()


def test_one_context_at_its_budget_does_not_stop_another() -> None:
    budget = Admission(context_max_in_flight=1)
    assert budget.enter_context(A)
    assert not budget.enter_context(A)
    assert budget.enter_context(B)
    budget.leave_context(A)
    assert budget.enter_context(A)


def test_zero_means_no_budget() -> None:
    budget = Admission()
    assert all(budget.enter() and budget.enter_context(A) for _ in range(1000))


@given(st.lists(st.tuples(st.booleans(), st.sampled_from([A, B])), max_size=60))
def test_counts_never_exceed_the_budget_and_idle_contexts_are_forgotten(
    steps: list[tuple[bool, uuid.UUID]],
) -> None:
    budget = Admission(context_max_in_flight=3)
    held: list[uuid.UUID] = []
    for enter, ctx in steps:
        if enter:
            if budget.enter_context(ctx):
                held.append(ctx)
        elif ctx in held:
            held.remove(ctx)
            budget.leave_context(ctx)
        assert all(0 < n <= 3 for n in budget.per_context.values())
        assert budget.per_context == {c: held.count(c) for c in set(held)}


def test_every_keyed_operation_documents_429_and_503() -> None:
    spec = create_app().openapi()
    missing = [
        (method, path)
        for path, item in spec["paths"].items()
        if path not in {"/health", "/metrics", "/openapi.json"}
        for method, op in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
        and not {"429", "503"} <= set(op["responses"])
    ]
    assert not missing
