"""Deliveries from the outbox through the job queue to a real receiver: signed, with the
change feed's id, retried while the receiver is away, paused by 410 or by failures in a
row, resumed by PATCH, and nothing for a write that rolled back."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import psycopg

from memwarden.review import feed
from memwarden.webhooks import service
from memwarden.webhooks.contract import PatchWebhook
from memwarden.webhooks.delivery import deliver_due
from memwarden.webhooks.kinds import FEED_KINDS, feed_kind
from memwarden.webhooks.signature import verify
from tests.integration.webhooks.conftest import FAST, pump, subscribe, work
from tests.service.review.memory import Who, command, create, decide
from tests.support.services import ContextKey, ServiceHarness, as_json
from tests.support.webhook_receiver import Received, WebhookReceiver


def _deliveries(h: ServiceHarness, who: ContextKey, webhook_id: str) -> list[dict]:
    page = h.run(service.deliveries(h.services, who.caller, who.id, uuid.UUID(webhook_id)))
    return [d.model_dump() for d in page.deliveries]


def _status(h: ServiceHarness, who: ContextKey, webhook_id: str) -> tuple[str, str | None]:
    got = h.run(service.get(h.services, who.caller, who.id, uuid.UUID(webhook_id)))
    return got.status, got.paused_reason


def _feed_seqs(h: ServiceHarness, who: ContextKey) -> dict[str, int]:
    page = as_json(h.run(feed.list_changes(h.services.db, who.caller)))  # a dict or an answer
    return {c["record_id"]: c["seq"] for c in page["changes"] if c["entry_type"] == "created"}


def _signed(item: Received, secret: str) -> bool:
    return verify(secret, item.headers["Memwarden-Signature"], item.body)


def test_a_committed_write_is_delivered_signed_with_its_change_feed_id(
    hooks: ServiceHarness, receiver: WebhookReceiver, sql: Callable[..., list[tuple]]
) -> None:
    ctx = hooks.make_context()
    hook = subscribe(hooks, ctx, receiver.url, ["created"])
    record_id, _ = create(Who.of(hooks, ctx), "The deploy key rotates every month.")
    # The write's own transaction queued the job that sends it.
    jobs = sql("SELECT task_name, status FROM procrastinate_jobs WHERE queue_name = 'webhooks'")
    assert jobs == [("memwarden:webhooks_deliver", "todo")]
    pump(hooks, lambda: len(receiver.delivered()) == 1)
    (got,) = receiver.received
    seq = _feed_seqs(hooks, ctx)[record_id]
    event = got.event
    assert (event["id"], event["feedId"], event["type"]) == (f"feed:{seq}", seq, "created")
    assert event["data"]["recordId"] == record_id and "content" not in event["data"]
    assert _signed(got, hook.secret)
    assert not _signed(got, "whsec_another")
    assert got.headers["Memwarden-Event"] == "created"
    (delivery,) = _deliveries(hooks, ctx, hook.id)
    assert got.headers["Memwarden-Delivery"] == delivery["id"]
    assert (delivery["status"], delivery["attempts"], delivery["last_status_code"]) == (
        "delivered",
        1,
        200,
    )
    assert delivery["feed_id"] == seq and delivery["next_attempt_at"] is None


def test_a_receiver_that_is_down_for_a_while_gets_every_missing_event_once_it_is_up(
    services_with: Callable[..., ServiceHarness],
) -> None:
    h = services_with(**FAST, webhook_max_attempts=30)  # retries 10-60 ms apart here
    ctx = h.make_context()
    receiver = WebhookReceiver()  # not listening yet: connections are refused
    hook = subscribe(h, ctx, receiver.url, ["created"])
    who = Who.of(h, ctx)
    written = {create(who, f"Fact number {i} about the deploy key.")[0] for i in range(3)}
    pump(h, lambda: sum(d["attempts"] for d in _deliveries(h, ctx, hook.id)) >= 3)
    errors = {d["last_error"] for d in _deliveries(h, ctx, hook.id) if d["attempts"]}
    assert errors == {"connect"}
    receiver.up()
    try:
        receiver.respond(500, 500)  # up, but failing at first
        pump(h, lambda: len({r.event["id"] for r in receiver.delivered()}) == 3)
    finally:
        receiver.down()
    seqs = _feed_seqs(h, ctx)
    assert {r.event["id"] for r in receiver.delivered()} == {f"feed:{seqs[r]}" for r in written}
    assert all(_signed(r, hook.secret) for r in receiver.received)
    deliveries = _deliveries(h, ctx, hook.id)
    assert {d["status"] for d in deliveries} == {"delivered"}
    assert sum(d["attempts"] for d in deliveries) >= 3 + 2 + 3
    assert _status(h, ctx, hook.id) == ("active", None)


def test_a_410_pauses_at_once_and_a_patch_resumes_with_what_waited(
    hooks: ServiceHarness, receiver: WebhookReceiver, sql: Callable[..., list[tuple]]
) -> None:
    ctx = hooks.make_context()
    hook = subscribe(hooks, ctx, receiver.url, ["created"])
    who = Who.of(hooks, ctx)
    receiver.respond(410)
    create(who, "The deploy key rotates every month.")
    pump(hooks, lambda: len(receiver.received) == 1)
    assert _status(hooks, ctx, hook.id) == ("paused", "gone")
    create(who, "The office moved to Lyon.")  # queued while paused, not sent
    work(hooks)
    assert len(receiver.received) == 1
    assert [d["status"] for d in _deliveries(hooks, ctx, hook.id)] == ["pending", "pending"]
    body = PatchWebhook(active=True)
    resumed = hooks.run(service.patch(hooks.services, ctx.caller, ctx.id, uuid.UUID(hook.id), body))
    assert (resumed.status, resumed.paused_reason, resumed.consecutive_failures) == (
        "active",
        None,
        0,
    )
    pump(hooks, lambda: len({r.event["id"] for r in receiver.delivered()}) == 2)
    actions = sql(
        "SELECT action, actor_subject FROM audit_event WHERE context_id = %s AND "
        "target_kind = 'webhook' ORDER BY id",
        (ctx.id,),
    )
    assert actions == [
        ("webhook.create", "alice"),
        ("webhook.pause_gone", "memwarden"),
        ("webhook.resume", "alice"),
    ]


def test_failed_attempts_in_a_row_pause_the_subscription(
    services_with: Callable[..., ServiceHarness], receiver: WebhookReceiver
) -> None:
    h = services_with(**FAST, webhook_pause_after=3)
    ctx = h.make_context()
    hook = subscribe(h, ctx, receiver.url, ["created"])
    receiver.respond(*[503] * 10)
    create(Who.of(h, ctx), "The deploy key rotates every month.")
    pump(h, lambda: _status(h, ctx, hook.id)[0] == "paused")
    assert _status(h, ctx, hook.id) == ("paused", "failures")
    assert len(receiver.received) == 3
    (delivery,) = _deliveries(h, ctx, hook.id)
    assert (delivery["status"], delivery["attempts"], delivery["last_error"]) == (
        "pending",
        3,
        "http_status",
    )


def test_a_delivery_past_its_attempts_fails_for_good(
    services_with: Callable[..., ServiceHarness], receiver: WebhookReceiver
) -> None:
    h = services_with(**FAST, webhook_max_attempts=2)
    ctx = h.make_context()
    hook = subscribe(h, ctx, receiver.url, ["created"])
    receiver.respond(307, 500)  # a redirect is never followed: a failed attempt
    create(Who.of(h, ctx), "The deploy key rotates every month.")
    pump(h, lambda: _deliveries(h, ctx, hook.id)[0]["status"] == "failed")
    (delivery,) = _deliveries(h, ctx, hook.id)
    assert (delivery["attempts"], delivery["last_status_code"]) == (2, 500)
    assert [r.path for r in receiver.received] == ["/hook", "/hook"]
    work(h)
    assert len(receiver.received) == 2


def test_a_write_that_rolls_back_leaves_nothing_to_deliver(
    hooks: ServiceHarness, receiver: WebhookReceiver, db_url: str
) -> None:
    ctx = hooks.make_context()
    subscribe(hooks, ctx, receiver.url, ["created"])
    insert = (
        "INSERT INTO change_event (context_id, seq, record_id, revision, kind, entry_type) "
        "VALUES (%s, 1, NULL, 1, 'attribute', 'created')"
    )
    with psycopg.connect(db_url) as conn:
        conn.execute(insert, (ctx.id,))
        assert conn.execute("SELECT count(*) FROM webhook_delivery").fetchone() == (1,)
        conn.rollback()
        assert conn.execute("SELECT count(*) FROM webhook_delivery").fetchone() == (0,)
        jobs = "SELECT count(*) FROM procrastinate_jobs WHERE queue_name = 'webhooks'"
        assert conn.execute(jobs).fetchone() == (0,)
    work(hooks)
    assert receiver.received == []


def test_the_triggers_map_feed_entries_as_the_kinds_module_does(
    hooks: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    for entry in [*FEED_KINDS, "merged", "anything"]:
        for serving in ("live", "held", "superseded", None):
            [(kind,)] = sql("SELECT webhook_feed_kind(%s, %s)", (entry, serving))
            assert kind == feed_kind(entry, serving), (entry, serving)


def test_the_sweep_drops_settled_deliveries_after_thirty_days_and_keeps_waiting_ones(
    hooks: ServiceHarness, receiver: WebhookReceiver, sql: Callable[..., list[tuple]]
) -> None:
    ctx = hooks.make_context()
    hook = subscribe(hooks, ctx, receiver.url, ["created"])
    who = Who.of(hooks, ctx)
    create(who, "The deploy key rotates every month.")
    pump(hooks, lambda: len(receiver.delivered()) == 1)
    hooks.run(
        service.patch(
            hooks.services, ctx.caller, ctx.id, uuid.UUID(hook.id), PatchWebhook(active=False)
        )
    )
    create(who, "The office moved to Lyon.")  # waits: the subscription is paused
    sql("UPDATE webhook_delivery SET created_at = now() - interval '31 days'")
    work(hooks)
    assert sql("SELECT status FROM webhook_delivery") == [("pending",)]


def test_a_failing_receiver_gets_one_attempt_per_round_not_one_per_event(
    services_with: Callable[..., ServiceHarness], receiver: WebhookReceiver
) -> None:
    h = services_with(webhook_backoff_s=30.0)
    ctx = h.make_context()
    hook = subscribe(h, ctx, receiver.url, ["created"])
    receiver.respond(500)
    who = Who.of(h, ctx)
    for i in range(3):
        create(who, f"Fact number {i} about the deploy key.")
    assert h.run(deliver_due(h.services, ctx.id)) == 3  # claimed; one of them sent
    assert len(receiver.received) == 1
    deliveries = _deliveries(h, ctx, hook.id)
    assert sorted(d["attempts"] for d in deliveries) == [0, 0, 1]
    assert all(d["status"] == "pending" and d["next_attempt_at"] for d in deliveries)
    assert h.run(deliver_due(h.services, ctx.id)) == 0  # nothing due for about 30 s


def test_a_rotated_secret_signs_every_attempt_from_then_on(
    hooks: ServiceHarness, receiver: WebhookReceiver
) -> None:
    ctx = hooks.make_context()
    hook = subscribe(hooks, ctx, receiver.url, ["created"])
    rotated = hooks.run(
        service.rotate_secret(hooks.services, ctx.caller, ctx.id, uuid.UUID(hook.id))
    )
    create(Who.of(hooks, ctx), "The deploy key rotates every month.")
    pump(hooks, lambda: len(receiver.delivered()) == 1)
    (got,) = receiver.received
    assert _signed(got, rotated.secret) and not _signed(got, hook.secret)


def test_a_host_the_deployment_no_longer_allows_is_never_contacted(
    hooks: ServiceHarness,
    services_with: Callable[..., ServiceHarness],
    receiver: WebhookReceiver,
) -> None:
    ctx = hooks.make_context()
    hook = subscribe(hooks, ctx, receiver.url, ["created"])
    create(Who.of(hooks, ctx), "The deploy key rotates every month.")
    narrowed = services_with(**FAST, webhook_allowed_hosts="hooks.example.com")
    pump(narrowed, lambda: _deliveries(hooks, ctx, hook.id)[0]["attempts"] >= 2)
    assert receiver.received == []
    assert _deliveries(hooks, ctx, hook.id)[0]["last_error"] == "forbidden_host"


def test_an_answer_slower_than_the_timeout_is_a_failed_attempt(
    services_with: Callable[..., ServiceHarness], receiver: WebhookReceiver
) -> None:
    h = services_with(**{**FAST, "webhook_timeout_s": 0.3})
    ctx = h.make_context()
    hook = subscribe(h, ctx, receiver.url, ["created"])
    receiver.stall_s = 1.0
    create(Who.of(h, ctx), "The deploy key rotates every month.")
    pump(h, lambda: _deliveries(h, ctx, hook.id)[0]["attempts"] >= 1)
    (delivery,) = _deliveries(h, ctx, hook.id)
    assert (delivery["status"], delivery["last_error"]) == ("pending", "timeout")
    receiver.stall_s = 0.0
    pump(h, lambda: _deliveries(h, ctx, hook.id)[0]["status"] == "delivered")


def test_concurrent_writers_of_a_context_never_wait_on_each_other_s_delivery_job(
    hooks: ServiceHarness, db_url: str
) -> None:
    """A write records a failed row's judgement, then later takes the change feed's lock;
    another holds that lock while its change events queue their job. Were the two jobs
    one unique row, the second writer would wait for the first: a deadlock."""
    ctx = hooks.make_context()
    subscribe(hooks, ctx, "http://127.0.0.1:9/hook", ["created", "judge_fail"])
    judgement = (
        "INSERT INTO judgement (context_id, id, gate, verdict, source) "
        "VALUES (%s, gen_random_uuid(), 'row', 'fail', 'facts')"
    )
    events = (
        "INSERT INTO change_event (context_id, seq, record_id, revision, kind, entry_type) "
        "VALUES (%s, %s, NULL, 1, 'attribute', 'created')"
    )
    with psycopg.connect(db_url) as first, psycopg.connect(db_url) as second:
        first.execute(judgement, (ctx.id,))
        second.execute("SET lock_timeout = '2s'")
        for seq in (1, 2, 3):  # one transaction, three events: one job
            second.execute(events, (ctx.id, seq))
        second.commit()
        first.commit()
        jobs = "SELECT count(*), count(DISTINCT lock) FROM procrastinate_jobs WHERE queue_name = %s"
        assert first.execute(jobs, ("webhooks",)).fetchone() == (2, 1)
        assert first.execute("SELECT count(*) FROM webhook_delivery").fetchone() == (4,)


def test_each_memory_change_arrives_as_its_kind_and_only_the_kinds_asked_for(
    hooks: ServiceHarness, receiver: WebhookReceiver
) -> None:
    ctx = hooks.make_context()
    subscribe(hooks, ctx, receiver.url, ["updated", "reviewed", "deleted"])
    who = Who.of(hooks, ctx)
    rid, rev = create(who, "The deploy key rotates every month.")  # created: not asked for
    updated = command(who, "update", record_id=rid, expected_revision=rev, content="Weekly.")
    decided = decide(who, rid, updated["revision"])
    command(who, "delete", record_id=rid, expected_revision=decided["receipt"]["revision"])
    pump(hooks, lambda: len(receiver.delivered()) == 3)
    events = sorted((r.event for r in receiver.delivered()), key=lambda e: e["feedId"])
    assert [e["type"] for e in events] == ["updated", "reviewed", "deleted"]
    assert [e["data"]["entryType"] for e in events] == ["updated", "reviewed", "deleted"]
    assert {e["data"]["recordId"] for e in events} == {rid}


def test_while_a_receiver_fails_new_events_wait_behind_the_oldest_one(
    hooks: ServiceHarness, receiver: WebhookReceiver
) -> None:
    ctx = hooks.make_context()
    hook = subscribe(hooks, ctx, receiver.url, ["created"])
    who = Who.of(hooks, ctx)
    receiver.respond(*[500] * 4)
    first, _ = create(who, "The deploy key rotates every month.")
    pump(hooks, lambda: len(receiver.received) >= 1)
    for i in range(3):  # written while the receiver fails: not tried until it answers
        create(who, f"Fact number {i} about the office.")
    pump(hooks, lambda: len(receiver.delivered()) == 4)
    tried = [(r.event["data"]["recordId"], r.status) for r in receiver.received]
    through = tried.index((first, 200))
    assert through == 4 and {rid for rid, _ in tried[:through]} == {first}
    assert len(tried) == 4 + 1 + 3  # then each of the others once
    assert _status(hooks, ctx, hook.id) == ("active", None)
