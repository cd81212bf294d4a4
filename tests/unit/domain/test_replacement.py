"""The replacement rule: a record retires another only when no reader loses a fact (pure)."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memwarden.domain.eligibility import RecordScope, is_visible
from memwarden.domain.replacement import REFUSALS, Holder, may_replace, refusal

PATHS = ("", "team", "team/a", "team/a/sub", "team/b", "user/olga")
OWNERS = ("olga", "bob")


def holder(
    path: str = "team/a",
    visibility: str = "shared",
    owner: str = "olga",
    *,
    served: bool = True,
    derived: bool = False,
    sources: frozenset[uuid.UUID] = frozenset(),
) -> Holder:
    return Holder(uuid.uuid4(), served, path, visibility, owner, derived, sources)


def test_a_served_record_in_the_same_scope_may_replace_another() -> None:
    assert refusal(holder(), holder()) is None


def test_a_replacement_that_is_not_served_never_retires_anything() -> None:
    assert refusal(holder(), holder(served=False)) == "replacement_not_served"
    assert refusal(holder(), holder(served=False), by_person=True) == "replacement_not_served"


def test_a_record_never_replaces_itself() -> None:
    one = holder()
    assert refusal(one, one) == "same_record"


def test_a_replacement_above_or_beside_the_retired_scope_is_refused() -> None:
    assert refusal(holder("team/a"), holder("")) == "replacement_outside_scope"
    assert refusal(holder("team/a"), holder("team/b")) == "replacement_outside_scope"
    assert refusal(holder("team/a"), holder("team/ab")) == "replacement_outside_scope"
    assert refusal(holder(""), holder("team/a")) is None
    assert refusal(holder("team/a"), holder("team/a/sub")) is None


def test_a_shared_record_is_replaced_only_by_a_shared_one() -> None:
    assert refusal(holder(), holder(visibility="private")) == "replacement_other_visibility"
    assert refusal(holder(owner="bob"), holder(owner="olga")) is None


def test_a_private_record_is_replaced_only_by_its_owners_private_one() -> None:
    mine = holder(visibility="private", owner="olga")
    assert refusal(mine, holder(visibility="private", owner="bob")) == (
        "replacement_of_another_owner"
    )
    assert refusal(mine, holder(visibility="shared", owner="olga")) == (
        "replacement_other_visibility"
    )
    assert refusal(mine, holder(visibility="private", owner="olga")) is None


def test_a_derived_record_never_replaces_its_own_source_even_by_a_persons_decision() -> None:
    source = holder()
    summary = holder(derived=True, sources=frozenset({source.id}))
    assert refusal(source, summary) == "replacement_derived_from_it"
    assert refusal(source, summary, by_person=True) == "replacement_derived_from_it"


def test_a_derived_record_replaces_a_stated_one_only_when_a_person_decides() -> None:
    stated, derived = holder(), holder(derived=True)
    assert refusal(stated, derived) == "derived_replacement"
    assert refusal(stated, derived, by_person=True) is None
    assert refusal(holder(derived=True), derived) is None
    assert refusal(derived, stated) is None


def test_every_refusal_has_a_message() -> None:
    from memwarden.domain.replacement import MESSAGES

    assert set(MESSAGES) == set(REFUSALS)


records = st.builds(
    holder,
    st.sampled_from(PATHS),
    st.sampled_from(("shared", "private")),
    st.sampled_from(OWNERS),
    served=st.booleans(),
    derived=st.booleans(),
)
readers = st.tuples(
    st.lists(st.sampled_from(PATHS), min_size=1, max_size=3),
    st.sampled_from(OWNERS),
    st.sampled_from((None, "shared", "private")),
    st.sampled_from(PATHS),
)


def _sees(reader: tuple[list[str], str, str | None, str], record: Holder) -> bool:
    prefixes, subject, visibility, request = reader
    scope = RecordScope(record.scope_path, record.visibility, record.owner_subject)  # type: ignore[arg-type]
    return is_visible(
        scope,
        request_path=request,
        request_visibility=visibility,  # type: ignore[arg-type]
        read_prefixes=prefixes,
        subject=subject,
    )


@given(records, records, st.lists(readers, min_size=1, max_size=6), st.booleans())
def test_whoever_could_read_a_retired_record_can_read_its_replacement(
    retired: Holder,
    replacement: Holder,
    some: list[tuple[list[str], str, str | None, str]],
    by_person: bool,
) -> None:
    if not may_replace(retired, replacement, by_person=by_person):
        return
    assert replacement.served
    for reader in some:
        if _sees(reader, retired):
            assert _sees(reader, replacement), (retired, replacement, reader)


def test_a_derived_restatement_of_the_very_fact_may_retire_it_but_never_its_source() -> None:
    stated = holder()
    moved = holder(derived=True)
    assert refusal(stated, moved, restating=True) is None
    own = holder(derived=True, sources=frozenset({stated.id}))
    assert refusal(stated, own, restating=True) == "replacement_derived_from_it"
