"""The memory contract's use cases (spec 3) as the service tier calls them: a request body
as a client sends it, validated by the contract model the HTTP route uses, handed to the
same service function. Results come back as JSON; refusals raise (see `refused`)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from memwarden.domain.grants import Caller
from memwarden.review import commands, decisions, diagnostic, history, records
from memwarden.review.contract import (
    CommandRequest,
    EmbeddingRequest,
    ReadRequest,
    ReceiptReadRequest,
    ReviewRequest,
    SearchRequest,
)
from memwarden.store.db import Database
from tests.integration.review.helpers import SCOPE, decide_body
from tests.support.services import ContextKey, ServiceHarness, as_json

UseCase = Callable[[Database, Caller, Any], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Who:
    """A key's caller on the harness: what an HTTP client with that key stands for."""

    h: ServiceHarness
    caller: Caller

    @classmethod
    def of(cls, h: ServiceHarness, key: ContextKey) -> Who:
        return cls(h, key.caller)

    def call(self, use_case: UseCase, model: type[BaseModel], body: dict[str, Any]) -> Any:
        request = model.model_validate_json(json.dumps(body))  # as the route parses it
        return as_json(self.h.run(use_case(self.h.services.db, self.caller, request)))

    def command(self, body: dict[str, Any]) -> Any:
        """A memory command (it takes the Services: content passes the ingest judge)."""
        request = CommandRequest.model_validate_json(json.dumps(body))
        return as_json(self.h.run(commands.run_command(self.h.services, self.caller, request)))


def create(
    who: Who, text: str, scope: dict[str, Any] | None = None, **command: Any
) -> tuple[str, int]:
    body = {
        "scope": dict(scope or SCOPE),
        "command": {"contract_version": 1, "op": "create", "content": text, **command},
    }
    out = who.command(body)
    return out["record_id"], out["revision"]


def command(who: Who, op: str, scope: dict[str, Any] | None = None, **fields: Any) -> Any:
    body = {"scope": dict(scope or SCOPE), "command": {"contract_version": 1, "op": op, **fields}}
    return who.command(body)


def decide(who: Who, record_id: str, revision: int, **kw: Any) -> Any:
    return who.call(decisions.decide, ReviewRequest, decide_body(record_id, revision, **kw))


def _body(scope: dict[str, Any] | None, **fields: Any) -> dict[str, Any]:
    return {"contract_version": 1, "scope": dict(scope or SCOPE), **fields}


def read(who: Who, record_id: str, scope: dict[str, Any] | None = None) -> Any:
    return who.call(records.read_record, ReadRequest, _body(scope, record_id=record_id))


def state(who: Who, record_id: str, scope: dict[str, Any] | None = None) -> Any:
    return who.call(history.review_state, ReadRequest, _body(scope, record_id=record_id))


def receipt_at(who: Who, record_id: str, revision: int, scope: dict[str, Any] | None = None) -> Any:
    body = _body(scope, record_id=record_id, revision=revision)
    return who.call(history.read_receipt, ReceiptReadRequest, body)


def search(who: Who, scope: dict[str, Any] | None = None, **fields: Any) -> Any:
    return who.call(records.search, SearchRequest, _body(scope, **fields))


def search_ids(who: Who, **fields: Any) -> list[str]:
    return [h["record"]["id"] for h in search(who, **fields)["hits"]]


def attach(
    who: Who,
    record_id: str,
    revision: int,
    vector: list[float],
    scope: dict[str, Any] | None = None,
) -> Any:
    body = _body(scope, record_id=record_id, revision=revision, vector=vector)
    return who.call(records.attach_embedding, EmbeddingRequest, body)


def eligibility(who: Who, record_id: str, scope: dict[str, Any] | None = None) -> Any:
    body = _body(scope, record_id=record_id)
    return who.call(diagnostic.eligibility, ReadRequest, body)
