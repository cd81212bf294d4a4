"""Hostile documents (issue 15, standing campaign): a zip bomb, XML entity expansion,
deep nesting, a PDF page that inflates to millions of operators and one huge page of text,
uploaded together to a live server with its in-process worker. While they process,
`/health` keeps answering quickly (p99 under a bound), and each ends with a clear code:
failed `document_too_large` or `parse_error`, or processed with bounded text."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.hostile_documents import (
    docx_billion_laughs,
    docx_bomb,
    docx_deep_nesting,
    html_billion_laughs,
    html_deep_nesting,
    pdf_flate_bomb,
    text_huge_page,
)
from tests.support.live import LiveServer

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
# Parsing on the event loop held /health 17.8-47.8 s (finding 1); in a worker thread it
# shared the GIL (p99 0.89 s at a load of 2-3); in a parser child process the p99 was
# 0.04 s at the same load (docs/reliability.md#hostile-documents). The bound is 2.5 s or
# ten times the p99 measured just before the uploads, whichever is larger: room for a CI
# machine shared with other jobs (at a load of 14 on 2 cores the p99 while processing
# was 1.6 s, with threads), far below the finding.
HEALTH_P99_S = 2.5
BASELINE_FACTOR = 10
# name: (file name, bytes, content type, expected status, expected failure code)
HOSTILE: dict[str, tuple[str, bytes, str, str, str | None]] = {
    "zip bomb (10 MB of XML in a DOCX)": (
        "bomb.docx",
        docx_bomb(empty_paragraphs=10_000_000 // 6),
        DOCX,
        "failed",
        "document_too_large",
    ),
    "entity expansion in a DOCX": (
        "laughs.docx",
        docx_billion_laughs(),
        DOCX,
        "failed",
        "parse_error",
    ),
    "deep nesting in a DOCX": ("deep.docx", docx_deep_nesting(), DOCX, "failed", "parse_error"),
    "entity expansion in HTML": (
        "laughs.html",
        html_billion_laughs(),
        "text/html",
        "processed",
        None,
    ),
    "HTML nested 5,000 deep": (
        "deep.html",
        html_deep_nesting(5_000),
        "text/html",
        "processed",
        None,
    ),
    "PDF page that inflates to 8 MB of operators": (
        "bomb.pdf",
        pdf_flate_bomb(8),
        "application/pdf",
        "failed",
        "document_too_large",
    ),
    "one 512 KB page of text": (
        "huge.txt",
        text_huge_page(1)[: 512 * 1024],
        "text/plain",
        "processed",
        None,
    ),
}


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    return live_with(run_worker=True)


def _p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def _probe_health(live: LiveServer, stop: threading.Event, latencies: list[float]) -> None:
    with live.client(timeout=30) as client:
        while not stop.is_set():
            started = time.monotonic()
            client.get("/health")
            latencies.append(time.monotonic() - started)
            stop.wait(0.1)


@pytest.mark.timeout(300)
def test_hostile_documents_end_with_clear_codes_and_health_stays_quick(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context()
    baseline: list[float] = []
    quiet = threading.Event()
    threading.Timer(2.0, quiet.set).start()
    _probe_health(live, quiet, baseline)
    bound = max(HEALTH_P99_S, BASELINE_FACTOR * _p99(baseline))
    latencies: list[float] = []
    stop = threading.Event()
    probe = threading.Thread(target=_probe_health, args=(live, stop, latencies), daemon=True)
    ids: dict[str, str] = {}
    outcomes: dict[str, dict[str, Any]] = {}
    with live.client(ctx["key"]) as client:
        for name, (filename, data, content_type, _, _) in HOSTILE.items():
            resp = client.post(
                f"/api/v1/{ctx['id']}/documents", files={"file": (filename, data, content_type)}
            )
            assert resp.status_code == 202, f"{name}: {resp.text}"
            ids[name] = resp.json()["id"]
        probe.start()
        deadline = time.monotonic() + 240
        try:
            while len(outcomes) < len(ids) and time.monotonic() < deadline:
                for name, doc_id in ids.items():
                    body = client.get(f"/api/v1/{ctx['id']}/documents/{doc_id}").json()
                    if body["status"] in ("processed", "failed"):
                        outcomes[name] = body
                time.sleep(0.5)
        finally:
            stop.set()
            probe.join(timeout=30)
    assert set(outcomes) == set(ids), f"still processing: {sorted(set(ids) - set(outcomes))}"
    got = {name: (body["status"], body.get("failureCode")) for name, body in outcomes.items()}
    want = {name: (case[3], case[4]) for name, case in HOSTILE.items()}
    assert got == want
    assert len(latencies) > 10
    p99 = _p99(latencies)
    assert p99 < bound, f"/health p99 {p99:.2f} s (bound {bound:.2f} s), max {max(latencies):.2f} s"
