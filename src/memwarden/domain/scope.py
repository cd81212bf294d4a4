"""The scope model: one path per record, plus visibility and owner.

Two request forms map onto it: the path form `org/acme/user/alice` and the object form
`{project_id, mission_id, agent_id, visibility}` (which becomes
`project/<p>/mission/<m>/agent/<a>`, skipping absent parts). Grants and keys narrow by
path prefix, compared segment by segment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Visibility = Literal["shared", "private"]
MAX_PATH_CHARS = 512
MAX_SEGMENTS = 16
_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@\-]{0,127}$")


class ScopeError(ValueError):
    """A scope path or object that cannot be used."""


def normalise_path(path: str) -> str:
    """Validate and normalise a path: no empty segments, no traversal, bounded size."""
    if not isinstance(path, str):
        raise ScopeError("scope path must be a string")
    stripped = path.strip().strip("/")
    if not stripped:
        return ""
    if len(stripped) > MAX_PATH_CHARS:
        raise ScopeError(f"scope path longer than {MAX_PATH_CHARS} characters")
    segments = stripped.split("/")
    if len(segments) > MAX_SEGMENTS:
        raise ScopeError(f"scope path deeper than {MAX_SEGMENTS} segments")
    for segment in segments:
        if not _SEGMENT.match(segment):
            raise ScopeError(f"invalid scope segment {segment!r}")
    return "/".join(segments)


def covers(prefix: str, path: str) -> bool:
    """Whether `prefix` (a grant or key scope) covers `path`; '' covers everything."""
    if prefix == "":
        return True
    return path == prefix or path.startswith(prefix + "/")


def narrower(a: str, b: str) -> str | None:
    """The intersection of two prefixes, or None when they are disjoint."""
    if covers(a, b):
        return b
    if covers(b, a):
        return a
    return None


@dataclass(frozen=True)
class Scope:
    path: str
    visibility: Visibility = "shared"


def from_object(
    project_id: str | None,
    mission_id: str | None,
    agent_id: str | None,
    visibility: Visibility,
) -> Scope:
    parts: list[str] = []
    for label, value in (("project", project_id), ("mission", mission_id), ("agent", agent_id)):
        if value is not None:
            parts.extend([label, value])
    return Scope(normalise_path("/".join(parts)), visibility)


def from_paths(paths: list[str] | None, visibility: Visibility = "shared") -> Scope:
    """The write scope of a request's `scope: [path]`: one path (the first) is the write scope."""
    if not paths:
        return Scope("", visibility)
    if len(paths) > 1:
        normalised = {normalise_path(p) for p in paths}
        if len(normalised) > 1:
            raise ScopeError("a write takes exactly one scope path")
    return Scope(normalise_path(paths[0]), visibility)
