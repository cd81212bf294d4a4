"""Erasure on Citus: the job starts, replaces the record by a tombstone, and what an erased
record still answers is the same as on one PostgreSQL. The contract test of
tests/integration/erasure on a distributed database."""

from __future__ import annotations

from tests.integration.erasure.test_erasure_http import (  # noqa: F401
    alice,
    ctx,
    live,
    test_an_erased_record_refuses_update_review_and_restore_and_keeps_its_receipts_and_feed,
)
