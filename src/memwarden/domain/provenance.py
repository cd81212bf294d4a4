"""Provenance rank: how much a memory's origin is trusted when hygiene pairs it.

Three ranks, ordered. A record an application wrote through the memory contract
(`source_kind = "command"`) is authoritative, and so is any record a reviewer approved.
Agent captures are provisional: `/facts`, chat and MCP remember all write turns
(`"turn"`), and documents write `"document"`. What the service derives by itself ranks
lowest: reflection, the background passes (consolidation, elaboration, rollup, gist) and
records the judge wrote (`"judge"`). The rank decides which judging path a hygiene pair
takes and whether a verdict may be applied without a person (see `hygiene.routing`).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Rank(IntEnum):
    DERIVED = 0
    PROVISIONAL = 1
    AUTHORITATIVE = 2


SOURCE_RANKS: Final[dict[str, Rank]] = {
    "command": Rank.AUTHORITATIVE,
    "turn": Rank.PROVISIONAL,
    "document": Rank.PROVISIONAL,
    "import": Rank.PROVISIONAL,  # an imported memory: a capture made elsewhere
    "reflection": Rank.DERIVED,
    "consolidation": Rank.DERIVED,
    "elaboration": Rank.DERIVED,
    "rollup": Rank.DERIVED,
    "gist": Rank.DERIVED,
    "judge": Rank.DERIVED,
}
"""Every `memory_record.source_kind` the schema allows, with its rank."""


def rank_for(source_kind: str, *, approved: bool = False) -> Rank:
    """The rank of a record from its source kind; a reviewer's approval makes it authoritative.

    An unknown source kind is a programming error (the schema admits only the kinds above).
    """
    try:
        rank = SOURCE_RANKS[source_kind]
    except KeyError:
        raise ValueError(f"unknown source kind {source_kind!r}") from None
    return Rank.AUTHORITATIVE if approved else rank


def is_authoritative(rank: Rank | int) -> bool:
    return rank >= Rank.AUTHORITATIVE
