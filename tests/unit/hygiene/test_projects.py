"""Project identity from provenance and the cross-project predicate."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memwarden.hygiene.projects import (
    ProjectRef,
    parse_project,
    project_of,
    provably_cross_project,
)

segment = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
refs = st.builds(ProjectRef, segment, segment)
maybe_refs = st.none() | refs
labels = segment.filter(lambda s: s != "project")
# A namespace prefix made of label/value pairs that names no project.
prefixes = st.lists(st.tuples(labels, segment), max_size=3).map(
    lambda pairs: "/".join(f"{k}/{v}" for k, v in pairs)
)


@pytest.mark.parametrize(
    ("scope_path", "owner", "import_dir", "expected"),
    [
        ("org/acme/project/falcon", "alice", None, ProjectRef("org/acme", "falcon")),
        ("org/acme/project/falcon/agent/x", "bob", None, ProjectRef("org/acme", "falcon")),
        ("project/falcon/mission/m1", "alice", None, ProjectRef("alice", "falcon")),
        ("/project/falcon/", "alice", None, ProjectRef("alice", "falcon")),
        ("org/acme/user/alice", "alice", None, None),
        ("org/acme/user/project", "alice", None, None),
        ("", "alice", None, None),
        ("org/acme/project", "alice", None, None),
        (
            "org/acme/project/falcon",
            "alice",
            "/src/osprey/",
            ProjectRef("alice", "import:/src/osprey"),
        ),
        ("", "alice", "repo:osprey", ProjectRef("alice", "import:repo:osprey")),
        ("org/acme/project/falcon", "alice", "  ", ProjectRef("org/acme", "falcon")),
    ],
)
def test_a_memory_is_pinned_to_the_project_its_provenance_names(
    scope_path: str, owner: str, import_dir: str | None, expected: ProjectRef | None
) -> None:
    found = project_of(scope_path=scope_path, owner_subject=owner, import_source_dir=import_dir)
    assert found == expected


@given(maybe_refs)
def test_an_unresolved_side_is_never_provably_cross_project(ref: ProjectRef | None) -> None:
    assert not provably_cross_project(None, ref)
    assert not provably_cross_project(ref, None)


@given(refs)
def test_a_project_is_never_cross_project_with_itself(ref: ProjectRef) -> None:
    assert not provably_cross_project(ref, ProjectRef(ref.namespace, ref.key))


@given(maybe_refs, maybe_refs)
def test_the_predicate_is_symmetric_and_true_only_when_both_resolve_and_differ(
    a: ProjectRef | None, b: ProjectRef | None
) -> None:
    assert provably_cross_project(a, b) == provably_cross_project(b, a)
    assert provably_cross_project(a, b) == (a is not None and b is not None and a != b)


@given(segment, segment, segment)
def test_two_owners_projects_of_the_same_name_differ(owner_a: str, owner_b: str, slug: str) -> None:
    a = project_of(scope_path=f"project/{slug}", owner_subject=owner_a)
    b = project_of(scope_path=f"project/{slug}", owner_subject=owner_b)
    assert provably_cross_project(a, b) == (owner_a != owner_b)
    in_org_a = project_of(scope_path=f"org/{owner_a}/project/{slug}", owner_subject="x")
    in_org_b = project_of(scope_path=f"org/{owner_b}/project/{slug}", owner_subject="x")
    assert provably_cross_project(in_org_a, in_org_b) == (owner_a != owner_b)


@given(prefixes, segment, st.lists(segment, max_size=4), segment, segment)
def test_everything_below_a_project_scope_is_the_same_project(
    prefix: str, slug: str, rest: list[str], owner_a: str, owner_b: str
) -> None:
    base = f"{prefix}/project/{slug}".lstrip("/")
    deeper = "/".join([base, *rest])
    a = project_of(scope_path=base, owner_subject=owner_a)
    b = project_of(scope_path=deeper, owner_subject=owner_a if not prefix else owner_b)
    assert a is not None
    assert a.key == slug
    assert not provably_cross_project(a, b)


@given(prefixes, segment)
def test_a_scope_without_a_project_pair_resolves_to_nothing(prefix: str, owner: str) -> None:
    assert project_of(scope_path=prefix, owner_subject=owner) is None


@given(segment, segment, segment)
def test_an_import_pins_to_its_source_whatever_its_scope(
    owner: str, slug: str, source: str
) -> None:
    imported = project_of(
        scope_path=f"project/{slug}", owner_subject=owner, import_source_dir=f"/src/{source}"
    )
    native = project_of(scope_path=f"project/{slug}", owner_subject=owner)
    assert provably_cross_project(imported, native)
    again = project_of(scope_path="", owner_subject=owner, import_source_dir=f"/src/{source}/")
    assert not provably_cross_project(imported, again)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("acme/falcon", ProjectRef("acme", "falcon")),
        (" acme/falcon/web ", ProjectRef("acme", "falcon/web")),
    ],
)
def test_evaluation_projects_read_as_owner_and_slug(
    value: str | None, expected: ProjectRef | None
) -> None:
    assert parse_project(value) == expected


@pytest.mark.parametrize("value", ["falcon", "/falcon", "acme/", ""])
def test_a_project_without_owner_or_slug_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="owner/slug"):
        parse_project(value)
