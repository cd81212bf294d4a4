"""Review decisions on Citus: the same contract tests as on one PostgreSQL, each on its
own distributed database. One winner among competing decisions is settled inside the
Context's shard transaction, not in a process's memory."""

from __future__ import annotations

from tests.integration.review.conftest import alice, client_for, ctx  # noqa: F401
from tests.integration.review.test_idempotency_and_races import (  # noqa: F401
    test_a_retry_with_the_same_key_returns_the_original_receipt,
    test_concurrent_identical_retries_all_return_the_same_receipt,
    test_concurrent_uses_of_one_key_on_two_records_give_one_receipt_and_one_conflict,
    test_of_sixteen_competing_decisions_exactly_one_wins,
)
