"""mem0 code on memwarden: the same verbs through `memwarden_client.mem0.Memory`.

    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
        python clients/python/examples/mem0_migration.py
"""

from __future__ import annotations

import os

from memwarden_client import Memwarden
from memwarden_client.mem0 import Memory

client = Memwarden(
    os.environ["MEMWARDEN_URL"],
    os.environ["MEMWARDEN_KEY"],
)
memory = Memory(client)  # was: memory = mem0.Memory()

# Everything below is mem0 code, unchanged.
messages = [
    {"role": "user", "content": "Hi, I'm Alex. I love basketball and I live in Lisbon."},
    {"role": "assistant", "content": "Nice to meet you, Alex! I'm a bot and I live online."},
]
added = memory.add(messages, user_id="alex", run_id="onboarding")
for item in added["results"]:
    print("added:", item["event"], item["memory"])

found = memory.search("Where does Alex live?", user_id="alex", limit=3)
print("search:", [hit["memory"] for hit in found["results"]])

lives = next(r for r in memory.get_all(user_id="alex")["results"] if "Lisbon" in r["memory"])
print("get:", memory.get(lives["id"])["memory"])

changed = memory.update(lives["id"], "I live in Porto.")
print("update:", changed["message"])
print("history:", [event["event"] for event in memory.history(lives["id"])])
print("now:", [r["memory"] for r in memory.get_all(user_id="alex")["results"]])

memory.delete_all(user_id="alex")
print("after delete_all:", memory.get_all(user_id="alex")["results"])
client.close()
