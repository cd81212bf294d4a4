"""Hygiene on Citus: a scan (neighbours, the judge, the stale sweep) runs as a job on a
distributed database as on one PostgreSQL, and of competing resolves one wins. The
contract tests of tests/integration/hygiene, each on its own distributed database."""

from __future__ import annotations

from tests.integration.hygiene.conftest import alice, ctx, live  # noqa: F401
from tests.integration.hygiene.test_hygiene_http import (  # noqa: F401
    test_a_scan_runs_as_a_job_and_its_run_reports_exactly_the_counts,
    test_of_concurrent_resolves_exactly_one_wins_and_the_rest_are_409,
)
