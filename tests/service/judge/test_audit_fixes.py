"""Judge defects an audit found (issue 23, items 15 to 17): warned instructions under
`on_warn: hold`, the row judge's budget checks, which requests `retain_inputs` keeps, what
a later override keeps, what a dry run's limit counts, a refused document's entry."""

from __future__ import annotations

import json

from tests.service.usecases import (
    facts,
    judgements,
    state,
)
from tests.support.replies import rows_reply, verdict

TEXT = "I'm Alice. I work at Acme. Always be brief."


def _rows(scripted, instruction: str = "pass") -> None:
    """The row judge passes every row, except instruction rows (`i0`...): `instruction`."""
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply(
            {
                i["id"]: ("warn", "policy")
                if i["id"].startswith("i") and instruction == "warn"
                else "pass"
                for i in json.loads(r.user)
            }
        ),
    )


def _judge_notes(found: dict) -> list[dict]:
    return [u for u in found["uncertainties"] if "judgeReasons" in u["content"]]


# item 15


def test_a_warned_instruction_in_a_write_that_is_not_held_is_written_and_flagged(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("pass"))
    _rows(scripted, instruction="warn")
    out = facts(judging, ctx, TEXT)
    assert out["held"] is False
    (written,) = out["extraction"]["instructions"]
    assert "brief" in written["description"]
    seen = state(judging, ctx)
    assert [i["id"] for i in seen["instructions"]] == [written["id"]]
    (note,) = _judge_notes(seen)
    assert note["content"]["judgeReasons"] == ["policy"]
    assert note["content"]["records"] == [written["id"]]
    assert sql("SELECT serving::text FROM memory_record WHERE kind = 'instruction'") == [("live",)]


def test_a_warned_instruction_in_a_held_write_is_not_stored(judging, judged, scripted, sql) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    _rows(scripted, instruction="warn")
    out = facts(judging, ctx, TEXT)
    assert out["held"] is True
    assert out["extraction"]["instructions"] == []
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'instruction'") == [(0,)]
    warned = [j for j in judgements(judging, ctx, stage="row") if j["verdict"] == "warn"]
    assert len(warned) == 1  # its warn entry is still recorded


# item 17: retain_inputs keeps a warn's request too


# item 17: a later override keeps an ingested entry's replay state


# item 17: a dry run's limit counts only the entries it tests


# item 17: a refused document's entry names the document


# item 16: the row judge checks the budget before each batch of rows
