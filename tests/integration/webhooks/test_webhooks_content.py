"""Content goes out only when the subscription asks for it and the key that made it could
read the record at the time of the attempt; the review log and the hygiene queue send ids."""

from __future__ import annotations

import json
from collections.abc import Callable

from memwarden.webhooks.signature import verify
from tests.integration.review.helpers import PRIVATE
from tests.integration.webhooks.conftest import FAST, pump, subscribe
from tests.service.hygiene.helpers import challenge
from tests.service.review.memory import Who, command, create
from tests.service.usecases import decide_hold, facts, judgements, refused
from tests.support.replies import rows_reply, verdict
from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ServiceHarness
from tests.support.webhook_receiver import WebhookReceiver


def _by_record(receiver: WebhookReceiver, path: str) -> dict[tuple[str, str], dict]:
    return {
        (r.event["type"], r.event["data"]["recordId"]): r.event["data"]
        for r in receiver.delivered()
        if r.path == path
    }


def test_content_only_when_asked_and_readable_by_the_subscribing_key_now(
    hooks: ServiceHarness, receiver: WebhookReceiver
) -> None:
    alice = hooks.make_context(subject="alice")
    bob = hooks.add_key(alice.id, ["memory_read", "grant:manage"], subject="bob")
    carol = hooks.add_key(alice.id, ["grant:manage"], subject="carol")
    kinds = ["created", "deleted"]
    for who, name, content in ((alice, "alice", True), (bob, "bob", True), (carol, "carol", True)):
        subscribe(hooks, who, f"{receiver.url}/{name}", kinds, include_content=content)
    subscribe(hooks, alice, f"{receiver.url}/plain", kinds)
    writer = Who.of(hooks, alice)
    shared, _ = create(writer, "The deploy key rotates every month.")
    private, _ = create(writer, "My own note about the deploy key.", scope=PRIVATE)
    gone, rev = create(writer, "The office is in Lyon.")
    command(writer, "delete", record_id=gone, expected_revision=rev)
    pump(hooks, lambda: len(receiver.delivered()) == 4 * 4)

    seen = _by_record(receiver, "/hook/alice")
    assert seen["created", shared]["content"]
    assert seen["created", private]["content"]  # alice's own private record
    assert "content" not in seen["created", gone]  # deleted before the attempt
    assert "content" not in seen["deleted", gone]
    by_bob = _by_record(receiver, "/hook/bob")
    assert by_bob["created", shared]["content"] == seen["created", shared]["content"]
    assert by_bob["created", shared]["contentRevision"] == 1
    assert "content" not in by_bob["created", private]  # another subject's private record
    for path in ("/hook/carol", "/hook/plain"):  # no memory_read; content not asked for
        assert all("content" not in data for data in _by_record(receiver, path).values())


def test_a_revoked_key_s_subscription_sends_ids_only(
    hooks: ServiceHarness, receiver: WebhookReceiver
) -> None:
    alice = hooks.make_context(subject="alice")
    manager = hooks.add_key(alice.id, ["memory_read", "grant:manage"], subject="bob")
    subscribe(hooks, manager, receiver.url, ["created"], include_content=True)
    hooks.revoke(manager)
    create(Who.of(hooks, alice), "The deploy key rotates every month.")
    pump(hooks, lambda: len(receiver.delivered()) == 1)
    assert "content" not in receiver.delivered()[0].event["data"]


def test_held_released_judge_fail_and_hygiene_queued_come_from_the_review_log_and_queue(
    services_with: Callable[..., ServiceHarness],
    scripted: ScriptedModelServer,
    receiver: WebhookReceiver,
) -> None:
    h = services_with(**FAST, **scripted_models(scripted, model_judge="openai:judge-model"))
    ctx = h.make_context(config={"judge": {"enabled": True, "on_warn": "hold"}})
    events = ["held", "released", "judge_fail", "hygiene_queued"]
    hook = subscribe(h, ctx, receiver.url, events, include_content=True)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    assert facts(h, ctx, "I'm Alice. I work at Acme.")["held"] is True
    (held,) = judgements(h, ctx, held=True)
    pump(h, lambda: bool(receiver.delivered()))
    held_events = [r.event for r in receiver.delivered()]
    assert {e["type"] for e in held_events} == {"held"}
    # Sent while held: a held record is nobody's to read, so no content.
    assert all(e["feedId"] and "content" not in e["data"] for e in held_events)
    decide_hold(h, ctx, held["id"], approve=True)
    scripted.respond_with("judge", verdict("fail", "credential"))
    with refused(422):
        facts(h, ctx, "The admin password is hunter2.")
    (failed,) = [j for j in judgements(h, ctx) if j["verdict"] == "fail"]
    record = Who.of(h, ctx)
    scripted.respond_with("judge", verdict("pass"))  # a memory command is judged too
    rid, _ = create(record, "The deploy key rotates every month.")
    item = challenge(h, ctx, rid, "It rotates weekly now.")
    expected = 2 * len(held_events) + 2
    pump(
        h,
        lambda: (
            len(receiver.delivered()) >= expected
            and any(r.event["type"] == "hygiene_queued" for r in receiver.delivered())
        ),
    )
    got = [r.event for r in receiver.delivered()]
    types = [e["type"] for e in got]
    assert types.count("held") == types.count("released") >= 1
    (fail,) = [e for e in got if e["type"] == "judge_fail"]
    assert fail["id"] == f"judgement:{failed['id']}" and fail["feedId"] is None
    assert fail["data"]["reasons"] == failed["reasons"] and "content" not in fail["data"]
    (queued,) = [e for e in got if e["type"] == "hygiene_queued"]
    assert queued["data"]["recordA"] == rid or queued["data"]["recordB"] == rid
    assert queued["id"].startswith("conflict:") and "content" not in queued["data"]
    assert item  # the challenge answered
    released = [e for e in got if e["type"] == "released"]
    assert all(e["data"]["content"] for e in released)  # live now, and alice may read it
    assert all(
        verify(hook.secret, r.headers["Memwarden-Signature"], r.body) for r in receiver.received
    )
