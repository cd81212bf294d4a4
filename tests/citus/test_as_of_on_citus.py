"""Reads as of a moment on Citus: /query, /profile and /state answer what was true then, for
each principal, as on one PostgreSQL. The contract tests of tests/integration/recall's as-of
routes on a distributed database (memory_as_of is PL/pgSQL there, migration 0033)."""

from __future__ import annotations

from tests.integration.recall.test_as_of_http import (  # noqa: F401
    story,
    test_get_and_post_query_read_as_of_a_moment,
    test_profile_and_state_read_as_of_a_moment_for_each_principal,
)
