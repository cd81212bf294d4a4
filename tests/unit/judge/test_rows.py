"""The row gate's decision: drops with their entities, warn, hold limits, entries."""

from __future__ import annotations

from memwarden.gatekeeper import RowInput
from memwarden.judge.rows import decide_rows

PASS = ("pass", ())


def rows() -> list[RowInput]:
    return [
        RowInput("e1", "entity", {"name": "Alice", "entityType": "person"}, ("Alice",)),
        RowInput("e2", "entity", {"name": "Acme"}, ("Acme",)),
        RowInput("a1", "attribute", {"entity": "alice", "key": "k", "value": "v"}, ("alice",)),
        RowInput(
            "r1",
            "relation",
            {"subject": "Alice", "label": "works at", "object": "Acme"},
            ("Alice", "Acme"),
        ),
        RowInput("a2", "attribute", {"entity": "Acme", "key": "city", "value": "Oslo"}, ("Acme",)),
        RowInput("i1", "instruction", {"label": "tone", "description": "be brief"}),
        RowInput("u1", "uncertainty", {"about": "Acme", "reason": "unclear"}, ("Acme",)),
    ]


def excerpts() -> dict[str, str]:
    return {r.id: f"text of {r.id}" for r in rows()}


def decide(overrides: dict[str, tuple[str, tuple[str, ...]]], **kw):
    verdicts = {r.id: overrides.get(r.id, PASS) for r in rows()}
    kw.setdefault("hold", False)
    kw.setdefault("record_pass", True)
    return decide_rows(rows(), verdicts, excerpts(), **kw)


def test_all_pass_keeps_every_row_and_records_one_entry_with_a_count() -> None:
    out = decide({})
    assert out.keep == {r.id for r in rows()}
    assert not out.dropped and not out.warned and not out.held
    (entry,) = out.pending
    assert (entry.gate, entry.verdict, entry.row_count) == ("row", "pass", 7)
    assert set(entry.row_ids) == out.keep


def test_record_pass_off_records_no_pass_entry() -> None:
    assert decide({}, record_pass=False).pending == ()


def test_a_failed_entity_drops_every_row_that_names_it() -> None:
    out = decide({"e1": ("fail", ("personal_data",))})
    assert out.dropped == {"e1", "a1", "r1"}  # a1 names "alice": names compare case-blind
    assert out.keep == {"e2", "a2", "i1", "u1"}
    fail = [p for p in out.pending if p.verdict == "fail"]
    assert len(fail) == 1 and fail[0].row_ids[0] == "e1" and set(fail[0].row_ids) == out.dropped
    assert fail[0].reasons == ("personal_data",)


def test_a_denied_row_is_dropped_with_its_dependants_and_leaves_no_entry() -> None:
    out = decide({"e2": ("deny", ("policy",))})
    assert out.dropped == {"e2", "r1", "a2", "u1"}
    assert all(p.verdict == "pass" for p in out.pending)
    assert all("e2" not in p.row_ids for p in out.pending)


def test_a_failed_attribute_drops_only_itself() -> None:
    out = decide({"a2": ("fail", ("credential",))})
    assert out.dropped == {"a2"}


def test_warned_rows_are_written_flagged_and_recorded_one_entry_each() -> None:
    out = decide({"a1": ("warn", ("personal_data",)), "i1": ("warn", ("policy",))})
    assert {"a1", "i1"} <= out.keep
    assert out.warned == {"a1": ("personal_data",), "i1": ("policy",)}
    assert not out.held
    warns = [p for p in out.pending if p.verdict == "warn"]
    assert sorted(p.row_ids for p in warns) == [("a1",), ("i1",)]


def test_under_hold_warned_facts_are_held_and_entities_instructions_flagged() -> None:
    warn = ("warn", ("personal_data",))
    out = decide({"a1": warn, "r1": warn, "e2": warn, "i1": warn, "u1": warn}, hold=True)
    assert out.held == {"a1", "r1"}
    assert "e2" in out.keep and "e2" not in out.held and "e2" in out.warned
    # In a write that is not held, a warned instruction or uncertainty is written, flagged.
    assert {"i1", "u1"} <= out.keep and not ({"i1", "u1"} & (out.dropped | out.held))
    assert {"i1", "u1"} <= set(out.warned)
    held_entries = [p for p in out.pending if p.held]
    assert sorted(p.row_ids for p in held_entries) == [("a1",), ("r1",)]


def test_in_a_held_write_warned_instructions_and_uncertainties_are_not_stored() -> None:
    warn = ("warn", ("personal_data",))
    out = decide({"i1": warn, "u1": warn}, hold=True, write_held=True)
    assert {"i1", "u1"} <= out.dropped and not ({"i1", "u1"} & out.keep)


def test_excerpts_of_entries_are_at_most_500_characters() -> None:
    rs = [RowInput(f"r{i}", "attribute", {"value": "x" * 900}) for i in range(3)]
    verdicts = {"r0": ("warn", ("policy",)), "r1": PASS, "r2": PASS}
    out = decide_rows(rs, verdicts, {r.id: "y" * 900 for r in rs}, hold=False, record_pass=True)
    assert all(len(p.excerpt) <= 500 for p in out.pending)
