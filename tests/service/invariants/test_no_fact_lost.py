"""No valid memory lost, hidden or crossed between people (issue 23, item 4): a stateful
property test over one Context shared by several principals.

Principals write first-person facts (and, with the scripted model, third-person ones),
corrections and declared supersedes, in several scopes and both visibilities; hygiene scans
(offline, or with a scripted judge whose verdicts are schema-valid and arbitrary), the
background passes, held writes with approvals and rejections, and reviewers' resolutions
are interleaved. After every step, for every reader (keys over the whole Context, over one
team, over a sub-scope, and the private owners):

1. each record it could read before is still readable, unless it was replaced by a record
   it can read (following the replacement chain), or ended by its own author's correction
   in that very step;
2. no record is retired by a record that is not served;
3. no first-person fact of one person is replaced by another person's record without a
   person deciding it (a reviewer's resolution).

Derived records (a pass's summaries) stop being served when a source leaves serving, by
design, so rule 1 reads stated records; every record is held to rules 2 and 3.
"""

from __future__ import annotations

import hashlib
import os
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from memwarden.errors import AppError
from memwarden.hygiene import runs
from memwarden.models.rule_extractor import extract_facts
from memwarden.models.sanitize import unframe
from tests.service.hygiene.helpers import items, resolve, scan
from tests.service.passes.helpers import run_pass
from tests.service.usecases import decide_hold, facts
from tests.service.write.gatekeepers import HoldEverything
from tests.support.scripted_model import RecordedRequest, Reply, ScriptedModelServer
from tests.support.scripted_model import scripted_models as point_at
from tests.support.services import ContextKey, ServiceHarness

SQL = Callable[..., list[tuple]]
ALL = ["memory_read", "memory_write", "memory_review", "grant:manage"]
SCOPES = ["", "team/a", "team/a/sub", "team/b"]
# (writer, grants, key scope): whole-Context writers, a team writer, a read-only sub-scope key
WRITERS = ("olga", "bob", "app")
STATED = ("turn", "document", "command")
FIRST_PERSON = [
    "My favourite colour is {}.",
    "I live in {}.",
    "I love {}.",
    "I work at {}.",
    "I'm {}.",
    "Actually, I live in {}.",
    "Always answer in {}.",
]
ENDS = "I no longer live in {}."
VALUES = ["green", "Oslo", "Maria Lopez", "Acme"]
THIRD_PERSON = ["Maria Lopez lives in {}.", "Acme is based in {}."]

# Derandomized, so CI explores the same sequences every run (a failure is never a lottery).
# At these counts both found items 1-3 of issue 23 (and item 12) on the code before it: a
# second person's "my favourite colour" replacing the first's, a private or cross-scope copy
# retiring the shared record in a scan, a rollup judged to replace its own source, a held
# write retiring what it declared. Set MEMWARDEN_PROPERTY_SEARCH=1 to explore at random.
SEARCH = os.environ.get("MEMWARDEN_PROPERTY_SEARCH") == "1"
OFFLINE = settings(
    max_examples=300 if SEARCH else 60,
    stateful_step_count=20,
    deadline=None,
    derandomize=not SEARCH,
    database=None,
    suppress_health_check=list(HealthCheck),
)
MODELLED = settings(OFFLINE, max_examples=200 if SEARCH else 40)


@dataclass
class Reader:
    name: str
    subject: str
    prefixes: list[str]


READERS = [
    Reader("olga", "olga", [""]),
    Reader("bob", "bob", [""]),
    Reader("app", "app", [""]),
    Reader("carol (team/a)", "carol", ["team/a"]),
    Reader("dora (team/b)", "dora", ["team/b"]),
    Reader("eve (team/a/sub)", "eve", ["team/a/sub"]),
]


@dataclass
class World:
    """What the invariants read of the Context, after a step."""

    readable: dict[str, set[str]] = field(default_factory=dict)  # reader -> record ids
    served: set[str] = field(default_factory=set)  # record ids served to someone
    records: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # id -> row


def look(sql: SQL, context_id: uuid.UUID) -> World:
    world = World()
    for reader in READERS:
        rows = sql(
            "SELECT id::text FROM memory_record r WHERE context_id = %s "
            "AND memory_readable(scope_path, visibility, owner_subject, %s::text[], %s) "
            "AND memory_servable(context_id, serving, review_disposition, expires_at, "
            "valid_to, derived_from, now())",
            (context_id, reader.prefixes, reader.subject),
        )
        world.readable[reader.name] = {r[0] for r in rows}
    served = sql(
        "SELECT id::text FROM memory_record WHERE context_id = %s AND memory_servable("
        "context_id, serving, review_disposition, expires_at, valid_to, derived_from, now())",
        (context_id,),
    )
    world.served = {r[0] for r in served}
    rows = sql(
        "SELECT r.id::text, r.serving::text, r.superseded_by::text, r.author_subject, "
        "r.source_kind, r.kind, coalesce(e.norm_name, r.norm_name), r.body "
        "FROM memory_record r LEFT JOIN memory_record e "
        "ON e.context_id = r.context_id AND e.id = r.entity_id WHERE r.context_id = %s",
        (context_id,),
    )
    world.records = {r[0]: r for r in rows}
    return world


def first_person(norm: str | None) -> bool:
    """A fact on a speaker's entity (or, before speakers existed, on the shared `user`)."""
    return norm is not None and (norm.startswith("speaker:") or norm == "user")


def _pick(text: str, options: list[Any]) -> Any:
    return options[int(hashlib.sha256(text.encode()).hexdigest(), 16) % len(options)]


def scripted_extraction(request: RecordedRequest) -> Reply:
    """A model that reads first person as the rule extractor does, under an arbitrary
    placeholder for the speaker, and the two third-person shapes of THIRD_PERSON."""
    text = unframe(request.user)
    out = extract_facts(text)
    placeholder = _pick(text, ["user", "I", "the user", "me", "speaker"])
    for lists, fields in (
        ("entities", ("name",)),
        ("attributes", ("entity",)),
        ("relations", ("subject",)),
        ("corrections", ("entity",)),
    ):
        for row in out[lists]:
            for f in fields:
                if row.get(f) == "user":
                    row[f] = placeholder
    if m := re.match(r"^(Maria Lopez|Acme) (lives in|is based in) (\w[\w ]*)\.$", text.strip()):
        subject, obj = m.group(1), m.group(3)
        etype = "person" if subject == "Maria Lopez" else "organisation"
        out["entities"] += [
            {"name": subject, "entityType": etype, "memoryCategory": "identity"},
            {"name": obj, "entityType": "place", "memoryCategory": "identity"},
        ]
        out["relations"].append(
            {"subject": subject, "label": "lives_in", "object": obj, "memoryCategory": "identity"}
        )
    return Reply.json(out)


def scripted_verdict(request: RecordedRequest) -> Reply:
    """Schema-valid, arbitrary, sure: what a careless judge would answer (a function of the
    two memories' texts only, so a replayed example gets the same verdicts)."""
    texts = re.findall(r"<<<MEMORY_[AB]\n(.*?)\nMEMORY_[AB]>>>", request.user, re.DOTALL)
    verdict, superseding = _pick(
        "\x1f".join(texts) or request.user,
        [
            ("supersedes", "a"),
            ("supersedes", "b"),
            ("duplicate", None),
            ("contradiction", None),
            ("complementary", None),
            ("unrelated", None),
        ],
    )
    return Reply.json({"verdict": verdict, "superseding": superseding, "confidence": 0.97})


def machine(plain: ServiceHarness, held: ServiceHarness, sql: SQL, *, modelled: bool) -> type:
    texts = st.sampled_from(FIRST_PERSON + ([*THIRD_PERSON] if modelled else []))

    class NoFactLost(RuleBasedStateMachine):
        @initialize()
        def a_context_shared_by_several_people(self) -> None:
            self.ctx = plain.make_context(subject="olga", grants=ALL)
            self.keys: dict[str, ContextKey] = {"olga": self.ctx}
            for who in ("bob", "app"):
                self.keys[who] = plain.add_key(self.ctx.id, ALL, who)
            self.keys["carol"] = plain.add_key(
                self.ctx.id, ["memory_read", "memory_write"], "carol", scope="team/a"
            )
            for who, prefix in (("dora", "team/b"), ("eve", "team/a/sub")):
                plain.add_key(self.ctx.id, ["memory_read"], who, scope=prefix)
            self.before = look(sql, self.ctx.id)
            self.ends: set[tuple[str, str]] = set()  # (author, scope) allowed to end a fact
            self.log: list[str] = []
            self.said: list[tuple[str, str]] = []

        def _write(
            self,
            h: ServiceHarness,
            who: str,
            text: str,
            scope: str,
            visibility: str,
            supersede: bool,
        ) -> None:
            declared: list[uuid.UUID] = []
            if supersede:
                own = sql(
                    "SELECT id FROM memory_record WHERE context_id = %s AND owner_subject = %s "
                    "AND serving = 'live' AND kind <> 'entity' ORDER BY id LIMIT 1",
                    (self.ctx.id, who),
                )
                declared = [own[0][0]] if own else []
            self.log.append(f"{who} writes {text!r} at {scope!r} {visibility} {declared}")
            self.said.append((who, text))
            try:
                out = facts(
                    h,
                    self.keys[who],
                    text,
                    scope=[scope] if scope else None,
                    visibility=visibility,
                    supersedes=declared,
                )
            except AppError as exc:  # refused (a grant, a declared supersede): nothing written
                assert exc.status in (400, 403, 409), exc
                return
            # The write-triggered hygiene scan a deployment defers after every write, run here.
            new = sql(
                "SELECT id FROM memory_record WHERE context_id = %s AND source_ref = %s "
                "AND serving = 'live'",
                (self.ctx.id, out["turnId"]),
            )
            if new:
                plain.run(runs.scan_written(plain.services, self.ctx.id, [r[0] for r in new]))

        @rule(
            who=st.sampled_from([*WRITERS, "carol"]),
            template=texts,
            value=st.sampled_from(VALUES),
            scope=st.sampled_from(SCOPES),
            visibility=st.sampled_from(["shared", "shared", "private"]),
            supersede=st.booleans(),
        )
        def write(
            self, who: str, template: str, value: str, scope: str, visibility: str, supersede: bool
        ) -> None:
            self._write(plain, who, template.format(value), scope, visibility, supersede)

        @rule(
            data=st.data(),
            who=st.sampled_from([*WRITERS, "carol"]),
            scope=st.sampled_from(SCOPES),
            visibility=st.sampled_from(["shared", "shared", "private"]),
        )
        def say_again(self, data: st.DataObject, who: str, scope: str, visibility: str) -> None:
            """What someone said before, by them (mostly) or someone else, elsewhere: the
            near pairs hygiene judges and reconciliation meets."""
            if self.said:
                author, text = data.draw(st.sampled_from(self.said))
                if data.draw(st.integers(0, 3)):
                    who = author
                self._write(plain, who, text, scope, visibility, False)

        @rule(
            who=st.sampled_from(WRITERS),
            value=st.sampled_from(VALUES),
            scope=st.sampled_from(SCOPES),
        )
        def end_a_fact(self, who: str, value: str, scope: str) -> None:
            self.ends.add((who, scope))
            self._write(plain, who, ENDS.format(value), scope, "shared", False)

        @rule(
            who=st.sampled_from(WRITERS),
            template=texts,
            value=st.sampled_from(VALUES),
            scope=st.sampled_from(SCOPES),
            supersede=st.booleans(),
        )
        def write_held(
            self, who: str, template: str, value: str, scope: str, supersede: bool
        ) -> None:
            self._write(held, who, template.format(value), scope, "shared", supersede)

        @rule(approve=st.booleans())
        def decide_a_hold(self, approve: bool) -> None:
            pending = sql(
                "SELECT id::text FROM judgement WHERE context_id = %s AND held "
                "AND hold_decision IS NULL ORDER BY created_at, id LIMIT 1",
                (self.ctx.id,),
            )
            if pending:
                self.log.append(f"hold {'approved' if approve else 'rejected'}")
                decide_hold(plain, self.ctx, pending[0][0], approve=approve)

        @rule(rejudge=st.booleans())
        def hygiene_scan(self, rejudge: bool) -> None:
            self.log.append(f"hygiene scan (rejudge={rejudge})")
            run = scan(plain, self.ctx, rejudge=rejudge)
            assert run["status"] == "done", run

        @rule(stage=st.sampled_from(["consolidation", "rollup", "gist"]))
        def a_pass(self, stage: str) -> None:
            self.log.append(f"{stage} pass")
            run = run_pass(plain, self.ctx, stage)
            assert run["status"] in ("done", "skipped"), run

        @rule(
            reviewer=st.sampled_from(["olga", "bob"]),
            resolution=st.sampled_from(["keep_a", "keep_b", "keep_both"]),
        )
        def resolve_an_item(self, reviewer: str, resolution: str) -> None:
            pending = items(plain, self.keys[reviewer])
            pending = [
                i for i in pending if i["origin"] != "challenge" or resolution == "keep_both"
            ]
            if not pending:
                return
            self.log.append(f"{reviewer} resolves {pending[0]['id']} {resolution}")
            try:
                resolve(plain, self.keys[reviewer], pending[0]["id"], resolution)
            except AppError as exc:  # refused by the replacement rule: nothing changed
                assert exc.status == 409, exc

        @invariant()
        def no_fact_is_lost_hidden_or_crossed(self) -> None:
            now = look(sql, self.ctx.id)
            then = self.before
            decided = {
                frozenset(pair)
                for pair in sql(
                    "SELECT record_a::text, record_b::text FROM conflict WHERE context_id = %s "
                    "AND decided_by IS NOT NULL AND status = 'resolved'",
                    (self.ctx.id,),
                )
            }
            for rid, row in now.records.items():
                old = then.records.get(rid)
                newly = row[1] == "superseded" and (old is None or old[1] != "superseded")
                if not newly:
                    continue
                by = row[2]
                if by is not None:
                    # 2. never retired by a record that is not served
                    assert _served_chain(now, by), (rid, row, now.records.get(by), self.log)
                    # 3. one person's first-person fact never retired by another's record
                    other = now.records[by]
                    if (
                        first_person(row[6])
                        and other[4] in STATED
                        and other[3] != row[3]
                        and frozenset((rid, by)) not in decided
                    ):
                        raise AssertionError(("crossed", row, other, self.log))
            for reader in READERS:
                gone = then.readable[reader.name] - now.readable[reader.name]
                for rid in gone:
                    row = now.records[rid]
                    if row[4] not in STATED or row[1] == "held":
                        continue
                    if _replaced_for(now, reader.name, row):
                        continue
                    if row[1] == "superseded" and row[2] is None and self._ended_by_author(row):
                        continue
                    raise AssertionError(("lost", reader.name, row, self.log))
            self.before = now
            self.ends = set()

        def _ended_by_author(self, row: tuple[Any, ...]) -> bool:
            scope = sql("SELECT scope_path FROM memory_record WHERE id = %s", (row[0],))[0][0]
            return (row[3], scope) in self.ends

    return NoFactLost


def _served_chain(world: World, start: str) -> bool:
    seen: set[str] = set()
    cur: str | None = start
    while cur is not None and cur not in seen:
        seen.add(cur)
        row = world.records.get(cur)
        if row is None:
            return False
        if row[1] != "superseded":
            return cur in world.served
        cur = row[2]
    return False


def _replaced_for(world: World, reader: str, row: tuple[Any, ...]) -> bool:
    seen: set[str] = set()
    cur: str | None = row[2]
    while cur is not None and cur not in seen:
        seen.add(cur)
        if cur in world.readable[reader]:
            return True
        nxt = world.records.get(cur)
        cur = nxt[2] if nxt is not None else None
    return False


def test_no_fact_is_lost_hidden_or_crossed_offline(
    services_with: Callable[..., ServiceHarness], sql: SQL
) -> None:
    plain = services_with()
    held = services_with(gatekeeper=HoldEverything())
    run_state_machine_as_test(machine(plain, held, sql, modelled=False), settings=OFFLINE)


def test_no_fact_is_lost_hidden_or_crossed_with_a_careless_model(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer, sql: SQL
) -> None:
    scripted.respond_with("extraction", scripted_extraction)
    for stage in ("hygiene", "adjudication"):
        scripted.respond_with(stage, scripted_verdict)
    models = point_at(
        scripted,
        model_extraction="openai:extractor",
        model_hygiene="openai:cheap-judge",
        model_adjudication="openai:strong-judge",
    )
    plain = services_with(**models)
    held = services_with(gatekeeper=HoldEverything(), **models)

    run_state_machine_as_test(machine(plain, held, sql, modelled=True), settings=MODELLED)


pytestmark = pytest.mark.timeout(900)
