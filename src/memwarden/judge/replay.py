"""The bridge from an approved override to the write path's facts use case.

The write path's facts use case has no "skip the judge" switch, so the replay runs it on
a copy of the Services whose gatekeeper is `PassThrough`: the content is not judged
again (no input gate, no row gate, no new entries), and everything else (grants, scope,
budget, extraction, reconciliation, audit) is the ordinary write.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

from memwarden.domain.grants import Caller
from memwarden.gatekeeper import PassThrough
from memwarden.pipeline.ingest import FactsInput, PreparedFacts, WriteSource, prepare_facts
from memwarden.services import Services


async def prepare_retained(
    services: Services, caller: Caller, context_id: uuid.UUID, route: str, payload: dict[str, Any]
) -> PreparedFacts:
    """The kept request as `caller`'s write, unjudged, with its model calls done; the
    override commits it in its own transaction, with the consuming of the kept request."""
    item = FactsInput(
        text=str(payload["text"]),
        infer=payload.get("infer", "full"),
        scope=payload.get("scope") or None,
        visibility=payload.get("visibility", "shared"),
    )
    unjudged = dataclasses.replace(services, gatekeeper=PassThrough())
    source: WriteSource = "facts_batch" if route == "facts_batch" else "facts"
    return await prepare_facts(unjudged, caller, context_id, item, source)
