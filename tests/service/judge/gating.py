"""Direct calls to the gates: the request the write path hands them."""

from __future__ import annotations

from typing import Any

from memwarden.config import ContextConfig, apply_patch
from memwarden.domain.scope import Scope
from memwarden.gatekeeper import GateRequest
from tests.support.services import ContextKey


def gate_request(
    ctx: ContextKey,
    text: str,
    *,
    config: dict[str, Any] | None = None,
    source: str = "facts",
    payload: dict[str, Any] | None = None,
    scope: str = "project/p1",
) -> GateRequest:
    """What the write path hands the gate; `config` is the Context's configuration patch."""
    cfg = apply_patch(apply_patch(ContextConfig(), {"judge": {"enabled": True}}), config or {})
    return GateRequest(
        context_id=ctx.id,
        caller=ctx.caller,
        config=cfg,
        source=source,  # type: ignore[arg-type]
        scope=Scope(scope),
        text=text,
        retain_payload=payload,
    )
