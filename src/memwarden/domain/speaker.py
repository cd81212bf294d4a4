"""Who "I" is (pure): the speaker of a write, and the entity first person resolves to.

A turn is spoken by the end user its write names, else by the principal whose key wrote
it. The end user is named by an explicit `speaker` (an id, as a scope segment is), or by a
`user/<id>` pair in the scope path (`org/acme/user/alice`: label positions only, as
projects are read). One backend key writing for many end users therefore keeps them
apart, and a principal writing for itself is its own speaker.

First person ("I", "me", "my", "myself", and a model's `user`, `the user`, `speaker`: all
normalised to `FIRST_PERSON` by `reconcile_rules.normalise_name`) resolves to the speaker's
own person entity, whose normalised name is `speaker:<key>`: a form no written name can
take (normalisation turns punctuation into spaces), so no other name, and no other
speaker's "I", ever lands on it. Names the speaker gives themselves (`name`,
`preferred_name`, ... attributes of that entity) resolve to it too, for that speaker only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

FIRST_PERSON: Final = "user"
SPEAKER_PREFIX: Final = "speaker:"
USER_LABEL: Final = "user"
# Attribute keys by which a speaker names themselves: their values resolve to the speaker.
NAME_KEYS: Final = frozenset(
    {
        "name",
        "full_name",
        "first_name",
        "preferred_name",
        "nickname",
        "nicknames",
        "alias",
        "aliases",
        "also_known_as",
    }
)
MAX_SPEAKER_CHARS: Final = 128
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@\-]{0,127}$")


class SpeakerError(ValueError):
    """An explicit speaker that cannot be used as an id."""


@dataclass(frozen=True, slots=True)
class Speaker:
    """`key`: `user:<id>` for an end user, `principal:<subject>` for a principal speaking
    for itself; `display`: the name a new speaker entity gets until the speaker names
    themselves (the id or the subject)."""

    key: str
    display: str

    @property
    def norm(self) -> str:
        """The speaker entity's normalised name."""
        return SPEAKER_PREFIX + self.key


def check_speaker(value: str) -> str:
    """An explicit speaker: an id of a scope segment's shape (no spaces or markup, so it can
    be named to a model outside the untrusted text)."""
    text = value.strip() if isinstance(value, str) else ""
    if not _ID.match(text):
        raise SpeakerError(
            "speaker must be an id of 1 to 128 letters, digits and . _ : @ -, "
            "starting with a letter or digit"
        )
    return text


def end_user_of(scope_path: str) -> str | None:
    """The id of the first `user/<id>` pair at a label position of the path, if any."""
    segments = [s for s in scope_path.strip("/").split("/") if s]
    for index in range(0, len(segments) - 1, 2):
        if segments[index] == USER_LABEL:
            return segments[index + 1]
    return None


def speaker_for(scope_path: str, explicit: str | None, subject: str) -> Speaker:
    """The speaker of a write at `scope_path` by the principal `subject`."""
    user = explicit if explicit else end_user_of(scope_path)
    if user:
        return Speaker(f"user:{user}", user)
    return Speaker(f"principal:{subject}", subject)


def from_key(key: str | None, subject: str) -> Speaker:
    """A speaker stored as its key (a turn's `speaker`); None: the principal's (turns
    written before speakers were recorded)."""
    if key and key.startswith("user:"):
        return Speaker(key, key.removeprefix("user:"))
    if key and key.startswith("principal:"):
        return Speaker(key, key.removeprefix("principal:"))
    return Speaker(f"principal:{subject}", subject)


def is_speaker_norm(norm: str) -> bool:
    return norm.startswith(SPEAKER_PREFIX)
