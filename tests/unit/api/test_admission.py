"""The admission budgets (memwarden/admission.py) as pure counters, and their place in the
OpenAPI document: every keyed operation can answer 429 and 503 with Retry-After, and the
429 of an operation that takes a body names the byte budgets it can meet."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memwarden.admission import BODY_BYTES_KEY, Admission, body_bytes
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


def test_a_contexts_bodies_are_admitted_up_to_the_byte_budget_and_not_one_byte_more() -> None:
    budget = Admission(context_max_bytes_in_flight=100)
    assert budget.enter_bytes(A, 60)
    assert budget.enter_bytes(A, 40)  # exactly at the budget
    assert not budget.enter_bytes(A, 1)
    assert budget.bytes_per_context[A] == 100  # a refusal counts nothing
    assert budget.enter_bytes(B, 100)  # another Context has its own budget
    budget.leave_bytes(A, 40)
    assert budget.enter_bytes(A, 40) and not budget.enter_bytes(A, 1)


def test_a_body_alone_is_admitted_however_far_past_the_budget() -> None:
    budget = Admission(context_max_bytes_in_flight=100)
    assert budget.enter_bytes(A, 1_000)  # nothing else in flight: a legal request passes
    assert not budget.enter_bytes(A, 1)
    budget.leave_bytes(A, 1_000)
    assert A not in budget.bytes_per_context and budget.enter_bytes(A, 100)


def test_a_byte_budget_of_zero_admits_everything() -> None:
    budget = Admission()
    assert all(budget.enter_bytes(A, 10**9) for _ in range(100))


@given(st.lists(st.tuples(st.sampled_from([A, B]), st.integers(0, 80)), max_size=60))
def test_bytes_held_are_the_sum_of_the_bodies_admitted_and_never_past_the_budget(
    steps: list[tuple[uuid.UUID, int]],
) -> None:
    budget = Admission(context_max_bytes_in_flight=100)
    held: list[tuple[uuid.UUID, int]] = []
    for i, (ctx, size) in enumerate(steps):
        if i % 3 == 2 and held:
            gone = held.pop(0)
            budget.leave_bytes(*gone)
        elif budget.enter_bytes(ctx, size):
            held.append((ctx, size))
        sums = {c: sum(n for d, n in held if d == c) for c, _ in held}
        assert budget.bytes_per_context == {c: n for c, n in sums.items() if n}
        # past the budget only while one body holds it alone
        assert all(
            n <= 100 or [d for d, m in held if d == c and m] == [c]
            for c, n in budget.bytes_per_context.items()
        )


def test_a_bodys_size_is_its_declared_length_or_what_was_read_of_a_chunked_one() -> None:
    assert body_bytes({"headers": [(b"content-length", b"1234")]}) == 1234
    assert body_bytes({"headers": [(b"Content-Length", b"7")], BODY_BYTES_KEY: 99}) == 7
    assert body_bytes({"headers": [], BODY_BYTES_KEY: 99}) == 99  # chunked: the bytes read
    assert body_bytes({"headers": []}) == 0
    assert body_bytes({"headers": [(b"content-length", b"x")]}) == 0


def test_the_429_of_an_operation_with_a_body_names_the_byte_budgets_it_can_meet() -> None:
    paths = create_app().openapi()["paths"]
    upload = paths["/api/v1/{context_id}/documents"]["post"]["responses"]["429"]["description"]
    assert "context_bytes_busy" in upload and "document_queue_full" in upload
    facts = paths["/api/v1/{context_id}/facts"]["post"]["responses"]["429"]["description"]
    assert "context_bytes_busy" in facts and "document_queue_full" not in facts
    listing = paths["/api/v1/{context_id}/documents"]["get"]["responses"]["429"]["description"]
    assert "context_bytes_busy" not in listing and "context_busy" in listing
