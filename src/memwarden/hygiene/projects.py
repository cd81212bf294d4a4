"""Project identity from provenance, and the cross-project filter (pure, model-free).

A memory belongs to a project when its provenance says so, never when its text suggests it:

- a scope path with the segment pair `project/<slug>` (path form `org/acme/project/falcon`,
  or the object form's `project_id`, stored as `project/<slug>/...`) pins it to that project
  within its namespace. The namespace is the path before the pair (`org/acme`); when the pair
  leads the path (the object form) it is the record's owner. So two owners' projects of the
  same name are different projects, and everyone writing under `org/acme/project/falcon`
  writes to one project.
- an imported memory pins to the directory or source it was imported from
  (`import_source_dir`, recorded at import), within its owner's namespace; this wins over
  its scope, because an imported rule belongs to the codebase it came from.

Anything else is unresolved (None). A pair is skipped only when both sides resolve and the
projects differ (`provably_cross_project`); an unresolved side is always judged.
"""

from __future__ import annotations

from dataclasses import dataclass

PROJECT_LABEL = "project"
IMPORT_PREFIX = "import:"


@dataclass(frozen=True, slots=True)
class ProjectRef:
    """One project: the namespace that owns it and the project's key within it."""

    namespace: str
    key: str

    def __str__(self) -> str:
        return f"{self.namespace}/{self.key}"


def _scope_project(scope_path: str, owner_subject: str) -> ProjectRef | None:
    segments = [s for s in scope_path.strip().strip("/").split("/") if s]
    # Paths are label/value pairs: only a label position can open `project/<slug>`, so a
    # user called "project" (`org/acme/user/project`) names no project.
    for index in range(0, len(segments) - 1, 2):
        if segments[index] == PROJECT_LABEL:
            namespace = "/".join(segments[:index]) or owner_subject
            return ProjectRef(namespace, segments[index + 1])
    return None


def _import_key(import_source_dir: str) -> str | None:
    source = import_source_dir.strip()
    if len(source) > 1:
        source = source.rstrip("/\\")
    return f"{IMPORT_PREFIX}{source}" if source else None


def project_of(
    *, scope_path: str, owner_subject: str, import_source_dir: str | None = None
) -> ProjectRef | None:
    """The project a memory's provenance pins it to, or None when it names none."""
    if import_source_dir is not None:
        key = _import_key(import_source_dir)
        if key is not None:
            return ProjectRef(owner_subject, key)
    return _scope_project(scope_path, owner_subject)


def parse_project(value: str | None) -> ProjectRef | None:
    """An evaluation file's `owner/slug` (the slug may hold more slashes); None stays None."""
    if value is None:
        return None
    owner, sep, slug = value.strip().partition("/")
    if not sep or not owner or not slug.strip("/"):
        raise ValueError(f"a project must look like 'owner/slug', got {value!r}")
    return ProjectRef(owner, slug.strip("/"))


def provably_cross_project(a: ProjectRef | None, b: ProjectRef | None) -> bool:
    """True only when both sides resolve to a project and the projects differ."""
    return a is not None and b is not None and a != b
