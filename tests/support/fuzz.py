"""Schemathesis over a live server: the shared engine of the fuzzing test and its benchmark.

Every operation of the app's OpenAPI document gets `examples` generated requests (positive
and negative generation), sent over real HTTP with one credential. Half of the path
parameters named `context_id` are pointed at a real Context so the handlers behind the
grant check are reached, not only the 403 for a random id (hypothesis draws which).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.live import LiveServer


@schemathesis.deserializer("text/plain")
def _plain_text(_ctx: Any, response: Any) -> str:
    """Text answers (/metrics) are validated as the string they are; schemathesis has no
    deserializer of its own for them and would leave their bodies unchecked."""
    return str(response.content.decode(response.encoding or "utf-8"))


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Answers the service gives on purpose that /openapi.json does not describe yet, by
# (method, path template, status, error code): a gap in the document, not a defect of the
# handler. The check it breaks is skipped for exactly that answer, and the report counts
# them so a gap stays visible. None left (issue 15, finding 13).
KNOWN_GAPS: dict[tuple[str, str, int, str | None], str] = {}
# 5xx answers given on purpose and documented (status and body schema), by the same key:
# not server errors, so `not_a_server_error` is skipped for exactly these while every other
# check runs. Counted apart in the report.
EXPECTED_5XX: dict[tuple[str, str, int, str | None], str] = {
    # Reflection needs a chat model; the offline defaults have none.
    ("POST", "/api/v1/{context_id}/reflect", 503, "reflection_model_unavailable"): (
        "no chat model"
    ),
    # /health answers 503 with its report while a part is down or degraded.
    ("GET", "/health", 503, None): "a part is down or degraded",
}


@dataclass
class FuzzReport:
    operations: int = 0
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    known_gaps: Counter[str] = field(default_factory=Counter)
    expected_5xx: Counter[str] = field(default_factory=Counter)
    # Documented statuses no generated request reached, per operation ("GET /path": [...]);
    # test_status_reach.py reaches every one of them with a recipe.
    unreached: dict[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        """5xx answers, the expected ones included (they are in `expected_5xx` too)."""
        return sum(n for status, n in self.statuses.items() if status >= 500)


def fuzz_operations(
    server: LiveServer,
    *,
    token: str,
    context_id: str,
    examples: int,
    request_timeout: float = 30,
) -> FuzzReport:
    schema = schemathesis.openapi.from_dict(server.app.openapi())
    report = FuzzReport()
    headers = {"Authorization": f"Bearer {token}"}
    started = time.monotonic()
    for result in schema.get_all_operations():
        report.operations += 1
        _fuzz_operation(
            result.ok(), report, server.url, headers, context_id, examples, request_timeout
        )
    report.seconds = time.monotonic() - started
    return report


def _fuzz_operation(
    operation: Any,
    report: FuzzReport,
    base_url: str,
    headers: dict[str, str],
    context_id: str,
    examples: int,
    request_timeout: float,
) -> None:
    key = (operation.method.upper(), operation.path)
    strategy = st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )
    seen: set[str] = set()
    reached: set[int] = set()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy, own_context=st.booleans())
    def run(case: Any, own_context: bool) -> None:
        params = case.path_parameters
        if params and "context_id" in params and own_context:
            params["context_id"] = context_id
        response = case.call(base_url=base_url, headers=headers, timeout=request_timeout)
        report.requests += 1
        report.statuses[response.status_code] += 1
        reached.add(response.status_code)
        answer = (*key, response.status_code, _error_code(response))
        gap = KNOWN_GAPS.get(answer)
        if gap is not None:
            report.known_gaps[f"{key[0]} {key[1]} {response.status_code}: {gap}"] += 1
            return
        checks = CHECKS
        expected = EXPECTED_5XX.get(answer)
        if expected is not None:
            report.expected_5xx[f"{key[0]} {key[1]} {response.status_code}: {expected}"] += 1
            checks = [check for check in CHECKS if check is not not_a_server_error]
        try:
            case.validate_response(response, checks=checks)
        except (AssertionError, BaseExceptionGroup) as exc:  # a FailureGroup
            for failure in _failures(exc):
                label = f"{key[0]} {key[1]} -> {response.status_code}: {failure}"
                if label not in seen:
                    seen.add(label)
                    report.failures.append(label)

    run()
    documented = operation.definition.raw.get("responses", {})
    missing = sorted(code for code in documented if code.isdigit() and int(code) not in reached)
    if missing:
        report.unreached[f"{key[0]} {key[1]}"] = missing


def _error_code(response: Any) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("code") if isinstance(error, dict) else None


def _failures(exc: BaseException) -> list[str]:
    """One line per failed check: its title and the first lines of its message."""
    parts = exc.exceptions if isinstance(exc, BaseExceptionGroup) else (exc,)
    lines = []
    for part in parts:
        title = getattr(part, "title", type(part).__name__)
        message = " ".join(str(getattr(part, "message", "") or part).split())[:200]
        lines.append(f"{title}: {message}")
    return lines
