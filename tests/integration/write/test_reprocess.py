"""Chunk-only diffs are flagged, and a turn whose extraction failed can be reprocessed:
only its failed windows, from the stored text, row-gated and reconciled like a new write."""

from __future__ import annotations

from tests.integration.write.helpers import attr, counts, extraction, facts, person, written
from tests.service.write.gatekeepers import HoldEverything, WarnAttributes
from tests.support.scripted_model import Reply

BEES = "Marguerite keeps bees on the roof."


def _reprocess(client, cid: str, turn_id: str):
    return client.post(f"/api/v1/{cid}/turns/{turn_id}/reprocess")


def test_a_chunk_only_diff_says_so_and_a_parsed_one_does_not(modelled, ctx, scripted) -> None:
    scripted.script(
        "extraction",
        Reply.text("I am not JSON at all"),
        Reply.json(extraction()),
        Reply.text("nope"),
        Reply.json(extraction()),
    )
    with modelled.client(ctx["key"]) as c:
        failed = written(facts(c, ctx["id"], BEES))
        empty = written(facts(c, ctx["id"], "Nothing much happened today."))
        batch = c.post(
            f"/api/v1/{ctx['id']}/facts/batch", json={"items": [{"text": "one"}, {"text": "two"}]}
        )
    assert failed["extraction"]["chunkOnly"] is True
    assert empty["extraction"]["chunkOnly"] is False
    assert [e["extraction"]["chunkOnly"] for e in batch.json()["extractions"]] == [True, False]


def test_no_extraction_asked_is_not_chunk_only(modelled, ctx) -> None:
    with modelled.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], BEES, infer="none"))
    assert out["extraction"]["chunkOnly"] is False


def test_a_failed_turn_is_reprocessed_from_its_stored_text_and_only_once(
    modelled, ctx, scripted, sql
) -> None:
    scripted.script(
        "extraction",
        Reply.text("I am not JSON at all"),
        Reply.json(
            extraction(
                entities=[person("Marguerite")],
                attributes=[attr("Marguerite", "hobby", "beekeeping")],
            )
        ),
    )
    with modelled.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], BEES))
        assert sql("SELECT count(*) FROM memory_record")[0][0] == 0
        again = _reprocess(c, ctx["id"], out["turnId"])
        assert again.status_code == 200, again.text
        body = again.json()
        assert body["windowsRetried"] == 1 and body["windowsFailed"] == 0
        assert body["extraction"]["chunkOnly"] is False
        assert [e["name"] for e in body["extraction"]["entities"]] == ["Marguerite"]
        assert BEES in scripted.requests_for("extraction")[1].user
        before = counts(sql)
        twice = _reprocess(c, ctx["id"], out["turnId"])
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "nothing_to_reprocess"
    assert counts(sql) == before
    assert len(scripted.requests_for("extraction")) == 2
    assert sql("SELECT count(*) FROM turn")[0][0] == 1
    assert sql("SELECT count(*) FROM chunk")[0][0] == 1  # the turn's chunks are not re-stored
    audit = sql("SELECT action FROM audit_event WHERE action = 'turn.reprocess'")
    assert len(audit) == 1


def test_a_turn_that_did_not_fail_is_409_and_costs_nothing(modelled, ctx, scripted, sql) -> None:
    scripted.respond_with("extraction", extraction(entities=[person("Bea")]))
    with modelled.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], "Bea flies planes."))
        before = counts(sql)
        resp = _reprocess(c, ctx["id"], out["turnId"])
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "nothing_to_reprocess"
    assert counts(sql) == before and len(scripted.requests_for("extraction")) == 1


def test_only_the_failed_window_is_retried_and_known_facts_are_not_written_twice(
    modelled, ctx, scripted, sql
) -> None:
    bea = extraction(entities=[person("Bea")], attributes=[attr("Bea", "role", "pilot")])
    scripted.script(
        "extraction",
        Reply.json(bea),
        Reply.text("{ broken"),
        Reply.json({**bea, "attributes": [*bea["attributes"], attr("Bea", "city", "Oslo")]}),
    )
    text = "a" * 8000 + "TAIL" + "b" * 996
    with modelled.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], text))
        assert out["extraction"]["chunkOnly"] is False  # one window of two still parsed
        records = sql("SELECT count(*) FROM memory_record")[0][0]
        body = _reprocess(c, ctx["id"], out["turnId"]).json()
    retried = scripted.requests_for("extraction")[2]
    assert "TAIL" in retried.user and "a" * 300 not in retried.user
    assert body["windowsRetried"] == 1
    assert [e["isNew"] for e in body["extraction"]["entities"]] == [False]
    assert [(a["key"], a["isNew"]) for a in body["extraction"]["attributes"]] == [
        ("role", False),
        ("city", True),
    ]
    assert sql("SELECT count(*) FROM memory_record")[0][0] == records + 1


def test_a_window_that_fails_again_stays_reprocessable(modelled, ctx, scripted) -> None:
    scripted.script(
        "extraction",
        Reply.text("no"),
        Reply.text("still no"),
        Reply.json(extraction(entities=[person("Marguerite")])),
    )
    with modelled.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], BEES))
        first = _reprocess(c, ctx["id"], out["turnId"]).json()
        assert first["windowsFailed"] == 1 and first["extraction"]["chunkOnly"] is True
        second = _reprocess(c, ctx["id"], out["turnId"])
    assert second.status_code == 200 and second.json()["windowsFailed"] == 0


def test_reprocessing_needs_write_over_the_scope_and_never_reaches_a_private_turn(
    modelled, make_context, make_key, scripted
) -> None:
    scripted.respond_with("extraction", Reply.text("not json"))
    ctx = make_context(subject="alice")
    reader = make_key(ctx["id"], ["memory_read"], subject="rita")
    bob = make_key(ctx["id"], ["memory_read", "memory_write"], subject="bob")
    with modelled.client(ctx["key"]) as c:
        shared = written(facts(c, ctx["id"], BEES))
        private = written(facts(c, ctx["id"], BEES, visibility="private"))
    with modelled.client(reader) as c:
        denied = _reprocess(c, ctx["id"], shared["turnId"])
        assert denied.status_code == 403 and denied.json()["error"]["code"] == "missing_grant"
    with modelled.client(bob) as c:
        assert _reprocess(c, ctx["id"], private["turnId"]).status_code == 404
        assert _reprocess(c, ctx["id"], "0190f1c2-0000-7000-8000-000000000000").status_code == 404
    assert len(scripted.requests_for("extraction")) == 2  # no model call for a refusal


def test_a_held_turn_is_reprocessed_only_after_review(live_with, scripted_settings, ctx, scripted):
    scripted.respond_with("extraction", Reply.text("not json"))
    server = live_with(gatekeeper=HoldEverything(), **scripted_settings)
    with server.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], BEES))
        resp = _reprocess(c, ctx["id"], out["turnId"])
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "held"


def test_reprocessed_rows_pass_the_row_gate(live_with, scripted_settings, ctx, scripted, sql):
    scripted.script(
        "extraction",
        Reply.text("not json"),
        Reply.json(
            extraction(
                entities=[person("Marguerite"), person("Mallory")],
                attributes=[attr("Marguerite", "hobby", "bees"), attr("Mallory", "pet", "wasp")],
            )
        ),
    )
    server = live_with(gatekeeper=WarnAttributes(), **scripted_settings)
    with server.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], BEES))
        assert sql("SELECT count(*) FROM judgement WHERE gate = 'row'")[0][0] == 0
        body = _reprocess(c, ctx["id"], out["turnId"]).json()
    assert [e["name"] for e in body["extraction"]["entities"]] == ["Marguerite"]
    assert [a["value"] for a in body["extraction"]["attributes"]] == ["bees"]
    assert sql("SELECT verdict FROM judgement WHERE gate = 'row'") == [("warn",)]
    assert sql("SELECT count(*) FROM judgement WHERE gate = 'input'")[0][0] == 0


def test_two_reprocesses_at_once_write_each_fact_once(modelled, ctx, scripted, sql) -> None:
    """Both read the failed window before either commits (the model answers slowly), so
    both extract it again: reconciliation under the scope lock makes the second a no-op."""
    from concurrent.futures import ThreadPoolExecutor

    found = extraction(
        entities=[person("Marguerite")], attributes=[attr("Marguerite", "hobby", "bees")]
    )
    scripted.script("extraction", Reply.text("not json"))
    scripted.respond_with("extraction", Reply.json(found).after(1.0))
    with modelled.client(ctx["key"]) as c:
        turn = written(facts(c, ctx["id"], BEES))["turnId"]

    def reprocess_once(_: int):
        with modelled.client(ctx["key"]) as c:
            return _reprocess(c, ctx["id"], turn)

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(reprocess_once, range(2)))
    assert [a.status_code for a in answers] == [200, 200]
    assert len(scripted.requests_for("extraction")) == 3
    news = sorted([e["isNew"] for e in a.json()["extraction"]["entities"]] for a in answers)
    assert news == [[False], [True]]
    kinds = sql("SELECT kind, count(*) FROM memory_record GROUP BY kind ORDER BY kind")
    assert kinds == [("attribute", 1), ("entity", 1)]
    assert sql("SELECT extraction_failed FROM turn") == [([],)]


class _DeniesAfterTheFirstInput(WarnAttributes):
    """Passes the first input, denies every later one: the input gate must not run again."""

    def __init__(self) -> None:
        self.inputs = 0

    async def input_gate(self, request):
        from memwarden.errors import JudgeDenied
        from memwarden.gatekeeper import InputVerdict

        self.inputs += 1
        if self.inputs > 1:
            raise JudgeDenied()
        return InputVerdict(verdict=None)


def test_reprocessing_never_runs_the_input_gate_again(
    live_with, scripted_settings, ctx, scripted, sql
) -> None:
    scripted.script(
        "extraction",
        Reply.text("not json"),
        Reply.json(extraction(entities=[person("Marguerite")])),
    )
    gate = _DeniesAfterTheFirstInput()
    server = live_with(gatekeeper=gate, **scripted_settings)
    with server.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], BEES))
        resp = _reprocess(c, ctx["id"], out["turnId"])
    assert resp.status_code == 200, resp.text
    assert gate.inputs == 1
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'entity'")[0][0] == 1
