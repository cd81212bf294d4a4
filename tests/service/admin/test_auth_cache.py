"""The per-process cache of verified keys (admin/auth.py) never lets through a key that a
lookup would refuse: a revocation in this process applies to the next request, one from
another process within the cache's lifetime, and a wrong secret or an expired key is
refused even while the key's entry is cached."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from memwarden.admin.auth import AUTH_CACHE_TTL_S, authenticate, forget_all_keys
from memwarden.admin.credentials import format_key
from memwarden.errors import Unauthorized
from memwarden.store import admin as store
from tests.support.services import ServiceHarness


def test_a_key_revoked_in_this_process_is_refused_by_the_next_request(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    db = svc.services.db
    assert svc.run(authenticate(db, ctx.key, None)).key_id == ctx.key_id  # cached now
    svc.revoke(ctx)
    with pytest.raises(Unauthorized):
        svc.run(authenticate(db, ctx.key, None))


def test_a_revocation_written_by_another_process_applies_within_the_cache_lifetime(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    db = svc.services.db
    svc.run(authenticate(db, ctx.key, None))

    async def revoke_elsewhere() -> None:  # the row changes; this process is not told
        async with db.transaction() as conn:
            await store.revoke_key(conn, ctx.id, ctx.key_id)

    svc.run(revoke_elsewhere())
    time.sleep(AUTH_CACHE_TTL_S + 0.1)
    with pytest.raises(Unauthorized):
        svc.run(authenticate(db, ctx.key, None))


def test_a_cached_key_id_with_a_wrong_secret_is_refused(svc: ServiceHarness) -> None:
    ctx = svc.make_context()
    db = svc.services.db
    svc.run(authenticate(db, ctx.key, None))
    forged = format_key(ctx.key_id, "not-the-secret")
    with pytest.raises(Unauthorized):
        svc.run(authenticate(db, forged, None))
    assert svc.run(authenticate(db, ctx.key, None)).key_id == ctx.key_id


def test_a_cached_key_is_refused_once_it_expires(svc: ServiceHarness) -> None:
    soon = datetime.now(UTC) + timedelta(seconds=0.6)
    ctx = svc.make_context(expires_at=soon)
    db = svc.services.db
    svc.run(authenticate(db, ctx.key, None))
    time.sleep(max(0.0, (soon - datetime.now(UTC)).total_seconds()) + 0.05)
    assert AUTH_CACHE_TTL_S > 0.3  # the entry is still cached: the expiry check refuses it
    with pytest.raises(Unauthorized):
        svc.run(authenticate(db, ctx.key, None))


def test_after_a_new_key_for_the_same_subject_a_cached_caller_equals_a_fresh_lookup(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context(grants=["memory_read"], subject="carol", scope="team")
    db = svc.services.db
    svc.run(authenticate(db, ctx.key, None))
    svc.add_key(ctx.id, ["memory_read", "memory_write"], subject="carol")
    served = svc.run(authenticate(db, ctx.key, None))
    forget_all_keys()
    assert served == svc.run(authenticate(db, ctx.key, None))
