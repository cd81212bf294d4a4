"""CrewAI scenarios, run by test_crewai.py with the CrewAI venv's python (not pytest's):

    python tests/clients/crewai/scenarios.py <scenario>=<key> ...   (MEMWARDEN_URL set)

Each drives the real crewai package (its `Memory`, its `StorageBackend` protocol, its
`MemoryRecord`) against the live memwarden the test started, with that Context key, and
asserts. One process runs them all (importing crewai takes seconds): each prints one line,
`SCENARIO {"scenario", "ok", "seen" or "error"}`, for the test to check and report.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import math
import os
import re
import sys
import traceback
from datetime import UTC, datetime, timedelta
from typing import Any

from crewai.memory import Memory, MemoryRecord
from crewai.memory.storage.backend import StorageBackend
from memwarden_client import JudgeRefused, Memwarden
from memwarden_client.integrations.crewai import MemwardenStorage


def embed(texts: list[str]) -> list[list[float]]:
    """Words hashed into 384 dimensions: texts that share words are near."""
    out = []
    for text in texts:
        vector = [0.0] * 384
        for word in re.findall(r"\w+", text.lower()):
            vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % 384] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        out.append([x / norm for x in vector])
    return out


def client(key: str) -> Memwarden:
    return Memwarden(os.environ["MEMWARDEN_URL"], key, max_retries=0)


def record(content: str, scope: str, **fields: Any) -> MemoryRecord:
    return MemoryRecord(content=content, scope=scope, embedding=embed([content])[0], **fields)


def memory_round_trip(key: str) -> dict[str, Any]:
    """crewai's own Memory, with memwarden as its storage: remember, recall, forget."""
    storage = MemwardenStorage(client(key))
    assert isinstance(storage, StorageBackend)
    memory = Memory(storage=storage, embedder=embed)
    kept = memory.remember(
        "Dana leads the platform team at Initech.",
        scope="/crew/research",
        categories=["people"],
        importance=0.8,
        metadata={"by": "researcher"},
    )
    memory.remember(
        "The launch review is on Thursday.", scope="/crew/ops", categories=["dates"], importance=0.5
    )
    memory.remember("Tea is served at 4.", scope="/kitchen", categories=["dates"], importance=0.5)
    found = memory.recall("who leads the platform team", scope="/crew", depth="shallow", limit=5)
    assert found and found[0].record.content == "Dana leads the platform team at Initech.", found
    assert all(m.record.scope.startswith("/crew/") for m in found), found
    assert found[0].record.metadata == {"by": "researcher"}
    dates = memory.recall("launch review", categories=["dates"], depth="shallow")
    assert [m.record.content for m in dates][:1] == ["The launch review is on Thursday."]
    assert memory.list_scopes("/crew") == ["/crew/ops", "/crew/research"]
    assert memory.info("/crew").record_count == 2
    assert memory.list_categories("/crew") == {"people": 1, "dates": 1}
    memory.forget(record_ids=[kept.id])
    assert memory.info("/crew").record_count == 1
    memory.reset("/crew")
    assert memory.info("/").record_count == 1  # the kitchen's record is outside /crew
    return {"record_id": kept.id, "recalled": [m.record.content for m in found]}


def storage_protocol(key: str) -> dict[str, Any]:
    """Every StorageBackend method, the way crewai's Memory calls them."""
    storage = MemwardenStorage(client(key))
    old = record(
        "Quarterly numbers are due in March.",
        "/finance",
        categories=["deadlines"],
        metadata={"team": "fin"},
        created_at=datetime.now(UTC) - timedelta(days=10),
    )
    new = record("Invoices go out on Fridays.", "/finance/billing", categories=["routine"])
    other = record("The office plant needs water.", "/office", metadata={"team": "ops"})
    storage.save([old, new, other])
    assert storage.get_record(new.id).content == "Invoices go out on Fridays."
    assert storage.get_record("00000000-0000-4000-8000-000000000000") is None
    assert [r.id for r in storage.list_records("/finance")] == [new.id, old.id]  # newest first
    assert [r.id for r in storage.list_records("/finance", limit=1, offset=1)] == [old.id]
    hits = storage.search(embed(["invoices fridays"])[0], scope_prefix="/finance", limit=2)
    assert hits and hits[0][0].id == new.id and isinstance(hits[0][1], float), hits
    by_category = storage.search(embed(["numbers"])[0], categories=["deadlines"])
    assert [r.id for r, _ in by_category] == [old.id]
    by_metadata = storage.search(embed(["plant water"])[0], metadata_filter={"team": "ops"})
    assert [r.id for r, _ in by_metadata] == [other.id]
    info = storage.get_scope_info("/finance")
    assert (info.record_count, info.child_scopes) == (2, ["/finance/billing"])
    assert info.categories == ["deadlines", "routine"]
    assert storage.list_scopes("/") == ["/finance", "/office"]
    assert storage.list_categories() == {"deadlines": 1, "routine": 1}
    assert storage.count() == 3 and storage.count("/finance/billing") == 1

    changed = new.model_copy(update={"content": "Invoices go out on Mondays.", "importance": 0.9})
    changed.embedding = embed([changed.content])[0]
    storage.update(changed)
    again = storage.get_record(new.id)
    assert (again.content, again.importance) == ("Invoices go out on Mondays.", 0.9)
    assert storage.search(embed(["mondays invoices"])[0], limit=1)[0][0].id == new.id

    assert storage.delete(older_than=datetime.now(UTC) - timedelta(days=5)) == 1  # `old`
    assert storage.delete(metadata_filter={"team": "nobody"}) == 0
    assert storage.delete(record_ids=[other.id]) == 1
    assert storage.count() == 1

    async def async_verbs() -> int:
        late = record("Payroll closes on the 25th.", "/finance")
        await storage.asave([late])
        found = await storage.asearch(embed(["payroll closes"])[0], limit=1)
        assert found[0][0].id == late.id
        return await storage.adelete(scope_prefix="/finance")

    assert asyncio.run(async_verbs()) == 2
    storage.reset()
    assert storage.count() == 0
    return {"saved": [old.id, new.id, other.id]}


def judged(key: str) -> dict[str, Any]:
    """The Context's judge is on (hold on warn): a secret raises, personal data is held."""
    storage = MemwardenStorage(client(key))
    memory = Memory(storage=storage, embedder=embed)
    try:
        memory.remember(
            "The deploy token is ghp_4f9aQ2xL8mN3bV7cK1zR5tY0uI6oP9sWqE2d",
            scope="/crew",
            categories=["secrets"],
            importance=0.9,
        )
    except JudgeRefused as refused:
        reasons = refused.reasons
        assert "ghp_" not in str(refused)
    else:
        raise AssertionError("the judge let a credential through")
    memory.remember(
        "Call Alice at alice@example.com", scope="/crew", categories=["people"], importance=0.5
    )
    assert memory.recall("call alice", scope="/crew", depth="shallow") == []  # held: not served
    assert storage.count("/crew") == 0
    return {"reasons": reasons}


def wrong_width(key: str) -> dict[str, Any]:
    storage = MemwardenStorage(client(key))
    short = MemoryRecord(content="A short vector.", scope="/x", embedding=[0.1] * 8)
    try:
        storage.save([short])
    except ValueError as exc:
        assert "384" in str(exc)
        message = str(exc)
    else:
        raise AssertionError("an 8-dimension vector was accepted")
    assert storage.count() == 0  # nothing was written
    return {"message": message}


def environment(key: str) -> dict[str, Any]:
    """What this venv holds: crewai, and neither memwarden's server nor its database
    driver; memwarden_client comes from the tree (PYTHONPATH), not from an install."""
    import crewai
    import memwarden_client

    present = [m for m in ("memwarden", "psycopg") if importlib.util.find_spec(m)]
    return {
        "crewai": crewai.__version__,
        "present": present,
        "client": os.path.dirname(memwarden_client.__file__ or ""),
    }


SCENARIOS = {
    f.__name__: f for f in (environment, memory_round_trip, storage_protocol, judged, wrong_width)
}

if __name__ == "__main__":
    for arg in sys.argv[1:]:
        name, _, key = arg.partition("=")
        try:
            line = {"scenario": name, "ok": True, "seen": SCENARIOS[name](key)}
        except Exception:  # reported to the test, which fails on it
            line = {"scenario": name, "ok": False, "error": traceback.format_exc()}
        print("SCENARIO " + json.dumps(line, default=str), flush=True)
