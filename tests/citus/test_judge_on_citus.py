"""The ingest judge on Citus: a held write is kept out of recall until approved, one of
competing decisions wins, and the contract tests of one PostgreSQL pass on a distributed
database."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

from tests.integration.judge.conftest import client, judge_models, judged, live  # noqa: F401
from tests.integration.judge.helpers import rows_reply, verdict
from tests.integration.judge.test_facts_http import (  # noqa: F401
    test_a_pass_writes_and_records_input_and_row_entries,
    test_on_warn_hold_holds_the_whole_facts_write,
)
from tests.integration.judge.test_override import (  # noqa: F401
    test_a_warned_write_that_went_ahead_is_never_replayed,
)
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer


def test_a_held_write_is_recalled_only_after_one_of_competing_approvals_wins(
    judged: Callable[..., dict[str, Any]],  # noqa: F811 - the judge tests' fixture
    live: LiveServer,  # noqa: F811
    scripted: ScriptedModelServer,
) -> None:
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    ctx = judged(on_warn="hold")
    base = f"/api/v1/{ctx['id']}"
    with live.client(ctx["key"]) as alice:
        held = alice.post(f"{base}/facts", json={"text": "I'm Bob. I love sailing."})
        assert held.status_code == 201 and held.json()["held"] is True, held.text
        hits = alice.get(f"{base}/query", params={"query": "sailing"}).json()["hits"]
        assert hits == []
        (judgement,) = alice.get(f"{base}/judgements", params={"held": "true"}).json()["judgements"]
    barrier = Barrier(8)

    def approve(_: int) -> int:
        with live.client(ctx["key"]) as c:
            barrier.wait()
            return c.post(f"{base}/judgements/{judgement['id']}/approve").status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(approve, range(8)))
    assert sorted(codes) == [200] + [409] * 7
    with live.client(ctx["key"]) as alice:
        hits = alice.get(f"{base}/query", params={"query": "sailing"}).json()["hits"]
    assert any("sailing" in hit["text"].lower() for hit in hits), hits
