"""Under `pytest -n`, the tests that share a fixture wider than one test reach xdist's
scheduler as one group (tests/conftest.py), so that fixture is built once, on one worker,
instead of again on every worker its tests are sent to. Run serially, there is nothing to
check and the test skips."""

from __future__ import annotations

import re

import pytest


@pytest.fixture(scope="module")
def shared() -> str:
    """A module's fixture: it puts this module's tests in one xdist group."""
    return "built once"


def test_a_test_on_a_module_fixture_reaches_xdists_scheduler_in_its_modules_group(
    shared: str, request: pytest.FixtureRequest
) -> None:
    worker = getattr(request.config, "workerinput", None)
    if worker is None:
        pytest.skip("only on a pytest-xdist worker (pytest -n)")
    asked = re.search(r"--dist[= ](\w+)", " ".join(worker["mainargv"]))
    if asked and asked.group(1) not in ("load", "loadgroup"):
        pytest.skip(f"--dist {asked.group(1)} groups by its own rule")
    # `-n` alone (the README's command) means --dist loadgroup (tests/conftest.py).
    assert request.config.getvalue("loadgroup"), "the worker does not know tests are grouped"
    marker = request.node.get_closest_marker("xdist_group")
    assert marker is not None and marker.args[0].startswith("tests/unit/test_xdist_groups.py")
    # The scheduler groups by the node id's `@group` suffix: xdist's worker writes it where
    # pytest 9.2 no longer reads it, so tests/conftest.py sets it (pytest-xdist #1386).
    assert request.node.nodeid.endswith(f"@{marker.args[0]}"), request.node.nodeid
