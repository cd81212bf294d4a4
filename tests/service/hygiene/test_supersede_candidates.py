"""The supersede candidates a multi-record write hands back (docs/write-path.md): per new
record, its nearest live records in the band and the writer's view, never the write's own
records or entities, never across a provable project boundary, never one the write's records
could not replace (the replacement rule), at most three each."""

from __future__ import annotations

from collections.abc import Callable

from tests.service.usecases import facts
from tests.support.services import ServiceHarness

NEW_WRITE = (
    "I'm Alice, CEO at Acme. I love jazz music. I live in Paris. I work at Globex. "
    "Always answer in bullet points."
)
ANSWER = {
    "Alice works at Globex": [  # a fourth, "Alice — role: CTO", is past the three
        ("carol works at Globex Corp", "relation"),
        ("Alice works at Acme", "relation"),
        ("Alice lives in Berlin", "relation"),
    ],
    "Alice lives in Paris": [
        ("Alice lives in Berlin", "relation"),
        ("Alice works at Acme", "relation"),
    ],
    "Alice — role: CEO": [
        ("Alice — role: CTO", "attribute"),
        ("Alice works at Acme", "relation"),
    ],
    "Alice — name: Alice": [
        ("Alice — name: Alice", "attribute"),
        ("Alice — role: CTO", "attribute"),
    ],
}


def test_a_multi_record_write_hands_back_each_records_candidates_and_nothing_it_must_not(
    svc: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    # A band wide enough that the records which must stay out are inside it.
    ctx = svc.make_context(subject="alice", config={"hygiene": {"band_low": 0.55}})
    bob = svc.add_key(ctx.id, ["memory_read", "memory_write"], "bob")
    carol = svc.add_key(ctx.id, ["memory_read", "memory_write"], "carol")
    facts(svc, ctx, "I'm Alice, CTO at Acme. I live in Berlin.", scope=["team/a"])  # above
    facts(svc, carol, "I work at Globex Corp.")  # shared at the root: above, in alice's view
    facts(svc, ctx, "I love jazz.", scope=["team/b"])  # beside the write: never replaced
    facts(svc, bob, "I live in Paris. I work at Globex.", visibility="private")  # bob's own
    facts(svc, ctx, "I live in Paris.", visibility="private")  # hers, the same, but private

    out = facts(svc, ctx, NEW_WRITE, scope=["team/a/osprey"])

    body = dict(sql("SELECT id::text, body FROM memory_record WHERE context_id = %s", (ctx.id,)))
    answer = {
        body[entry["recordId"]]: [(body[c["id"]], c["kind"]) for c in entry["candidates"]]
        for entry in out["supersedeCandidates"]
    }
    # Only what the write's own records could replace (the replacement rule: at their scope
    # path or above it, shared as they are); first person is each speaker's own entity.
    assert answer == ANSWER, answer
    # What stayed out was in the band: bob's private records, the record beside the write,
    # and alice's private one (a shared record never replaces a private one).
    in_band = sql(
        "SELECT a.body, b.body FROM memory_record a JOIN memory_record b USING (context_id) "
        "WHERE a.context_id = %s AND a.scope_path = 'team/a/osprey' AND a.id <> b.id "
        "AND b.kind <> 'entity' AND 1 - (a.embedding <=> b.embedding) >= 0.55 "
        "AND (b.owner_subject = 'bob' OR b.scope_path = 'team/b' OR b.visibility = 'private')",
        (ctx.id,),
    )
    assert set(in_band) >= {
        ("Alice works at Globex", "bob works at Globex"),
        ("Alice lives in Paris", "bob lives in Paris"),
        ("Alice lives in Paris", "alice lives in Paris"),
        ("Alice — loves: jazz music", "alice — loves: jazz"),
    }
    # Each similarity is the pair's cosine similarity, rounded as the answer rounds it.
    for entry in out["supersedeCandidates"]:
        for c in entry["candidates"]:
            [(similarity,)] = sql(
                "SELECT round((1 - (a.embedding <=> b.embedding))::numeric, 4)::float8 "
                "FROM memory_record a, memory_record b WHERE a.id = %s AND b.id = %s",
                (entry["recordId"], c["id"]),
            )
            assert c["similarity"] == similarity
