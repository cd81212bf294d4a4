"""Who sees a record: request scope, read grants and private ownership (pure)."""

from __future__ import annotations

import itertools

from memwarden.domain.eligibility import RecordScope, effective_prefixes, is_visible

PATHS = ("", "project/p1", "project/p1/agent/a1", "project/p2")


def test_a_private_record_is_visible_only_to_its_owner() -> None:
    record = RecordScope("project/p1", "private", "alice")
    kwargs = {"request_path": "", "request_visibility": "private", "read_prefixes": ("",)}
    assert is_visible(record, subject="alice", **kwargs)
    assert not is_visible(record, subject="bob", **kwargs)


def test_visibility_needs_both_the_request_scope_and_a_grant_to_cover_the_record() -> None:
    for path, request, grant in itertools.product(PATHS, PATHS, PATHS):
        record = RecordScope(path, "shared", "alice")
        seen = is_visible(
            record,
            request_path=request,
            request_visibility="shared",
            read_prefixes=(grant,),
            subject="bob",
        )
        covered = all(p == "" or path == p or path.startswith(p + "/") for p in (request, grant))
        assert seen == covered, (path, request, grant)


def test_a_request_for_shared_records_does_not_see_private_ones() -> None:
    record = RecordScope("project/p1", "private", "alice")
    assert not is_visible(
        record, request_path="", request_visibility="shared", read_prefixes=("",), subject="alice"
    )


def test_effective_prefixes_narrow_grants_to_the_request() -> None:
    assert effective_prefixes("project/p1", ("",)) == ("project/p1",)
    assert effective_prefixes("project/p1", ("project/p1/agent/a1",)) == ("project/p1/agent/a1",)
    assert effective_prefixes("project/p1", ("project/p2",)) == ()
    assert effective_prefixes("", ("project/p1", "project/p2")) == ("project/p1", "project/p2")
