"""Instructions, uncertainties and the judge's warning note for one write (pure).

A note is identified by its text, so repeating one reports the existing id.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from memwarden.domain.reconcile_draft import Draft
from memwarden.domain.reconcile_rules import Incoming, NewRecord, normalise_value

JUDGE_NOTE_ABOUT = "ingest judge warning"


class Notes:
    def __init__(self, known: Mapping[tuple[str, str], uuid.UUID], draft: Draft) -> None:
        self.draft = draft
        self.notes = dict(known)

    def note(self, kind: str, item: Incoming, d: Mapping[str, Any]) -> None:
        if kind == "instruction":
            ident, content = (
                normalise_value(d["description"]),
                {"label": d["label"], "description": d["description"]},
            )
            body = f"{d['label']}: {d['description']}"
        else:
            ident = f"{normalise_value(d['about'])}|{normalise_value(d['reason'])}"
            content = {"about": d["about"], "reason": d["reason"]}
            body = f"Uncertain about {d['about']}: {d['reason']}"
        key = "instructions" if kind == "instruction" else "uncertainties"
        existing = self.notes.get((kind, ident))
        if existing is not None:
            self.draft.report(key, existing, {**content, "isNew": False})
            return
        rec = self.draft.add(
            NewRecord(
                self.draft.new_id(),
                kind,
                "context",
                content,
                body,
                ident,
                body,
                item.held or self.draft.write_held,
                item.row_id,
            )
        )
        self.notes[(kind, ident)] = rec.id
        self.draft.report(key, rec.id, {**content, "isNew": True})

    def judge_note(self, warned: Mapping[str, Sequence[str]]) -> None:
        """One uncertainty per warned write: the reason codes of every warning (the row
        gate's by row id, the input gate's under a key that is no row id) and the warned
        rows' records, never content."""
        codes = sorted({c for reasons in warned.values() for c in reasons})
        ids = [str(r.id) for r in self.draft.plan.records if r.row_id in warned]
        reason = "the ingest judge warned about this write: " + (", ".join(codes) or "-")
        content = {
            "about": JUDGE_NOTE_ABOUT,
            "reason": reason,
            "judgeReasons": codes,
            "records": ids,
        }
        body = f"Uncertain about {JUDGE_NOTE_ABOUT}: {reason}"
        rec = self.draft.add(
            NewRecord(
                self.draft.new_id(),
                "uncertainty",
                "context",
                content,
                body,
                f"{JUDGE_NOTE_ABOUT}|{reason}",
                body,
                self.draft.write_held,
            )
        )
        self.draft.report(
            "uncertainties", rec.id, {"about": JUDGE_NOTE_ABOUT, "reason": reason, "isNew": True}
        )
