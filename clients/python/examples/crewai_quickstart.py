"""CrewAI's memory kept in memwarden: a crew's `Memory` with memwarden as its storage.

    pip install "./clients/python[crewai]"
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
        python clients/python/examples/crewai_quickstart.py
"""

from __future__ import annotations

import hashlib
import math
import os
import re

from crewai import Memory
from memwarden_client import JudgeRefused, Memwarden
from memwarden_client.integrations.crewai import MemwardenStorage


def embed(texts: list[str]) -> list[list[float]]:
    """A stand-in embedder so this runs offline: words hashed into 384 dimensions. Use a
    real 384-dimension model in an application (all-MiniLM-L6-v2, say)."""
    vectors = []
    for text in texts:
        vector = [0.0] * 384
        for word in re.findall(r"\w+", text.lower()):
            vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % 384] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        vectors.append([x / norm for x in vector])
    return vectors


client = Memwarden(os.environ["MEMWARDEN_URL"], os.environ["MEMWARDEN_KEY"])
memory = Memory(storage=MemwardenStorage(client), embedder=embed)

# Scope, categories and importance given: CrewAI stores the record without asking its LLM.
memory.remember(
    "Dana leads the platform team at Initech.",
    scope="/crew/research",
    categories=["people"],
    importance=0.8,
)
memory.remember(
    "The launch review is on Thursday.", scope="/crew/ops", categories=["dates"], importance=0.6
)

for match in memory.recall("who leads the platform team", scope="/crew", depth="shallow"):
    print(f"recalled: {match.record.content} ({match.record.scope})")
print("scopes:", memory.list_scopes("/crew"))

# With the Context's judge on (its configuration's `judge.enabled`), memwarden judges every
# record: a secret is refused with reason codes, never its text.
try:
    memory.remember(
        "The deploy token is ghp_4f9aQ2xL8mN3bV7cK1zR5tY0uI6oP9sWqE2d",
        scope="/crew/ops",
        categories=["secrets"],
        importance=0.9,
    )
except JudgeRefused as refused:
    print(f"refused: {refused.code} {refused.reasons}")
client.close()
