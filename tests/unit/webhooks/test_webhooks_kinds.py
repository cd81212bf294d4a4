"""Event kinds: which a subscription may name, and what each change-feed entry becomes."""

from __future__ import annotations

from memwarden.webhooks.kinds import EVENT_KINDS, feed_kind, normalise, unknown_kinds


def test_a_record_created_held_is_a_held_event() -> None:
    assert feed_kind("created", "held") == "held"
    assert feed_kind("created", "live") == "created"
    assert feed_kind("created", None) == "created"


def test_a_restore_is_an_update_an_erasure_a_deletion_and_unknown_entries_no_event() -> None:
    assert feed_kind("restored", "live") == "updated"
    assert feed_kind("erased", "erased") == "deleted"
    assert feed_kind("merged", "live") is None


def test_every_feed_kind_is_a_kind_a_subscription_may_name() -> None:
    for entry in ("created", "updated", "superseded", "deleted", "reviewed", "released"):
        assert feed_kind(entry, "live") in EVENT_KINDS


def test_kinds_are_kept_once_in_the_documented_order() -> None:
    assert normalise(["judge_fail", "created", "created"]) == ["created", "judge_fail"]
    assert unknown_kinds(["created", "fail", "Created"]) == ["fail", "Created"]
