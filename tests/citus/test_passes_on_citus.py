"""Background passes on Citus: the settle trigger (every Context from the reference table,
then each one's change feed and watermark, routed) queues the passes once per quiet feed
position, and a pass run by hand is finished by the worker, its watermarks written. The
contract tests of tests/service/passes and tests/integration/passes on a distributed
database."""

from __future__ import annotations

from tests.integration.passes.conftest import live  # noqa: F401
from tests.integration.passes.test_passes_http import (  # noqa: F401
    test_a_pass_run_by_hand_answers_202_and_the_worker_finishes_it,
)
from tests.service.conftest import ctx, svc  # noqa: F401
from tests.service.passes.test_settle_trigger import (  # noqa: F401
    test_the_settle_trigger_queues_the_passes_once_per_quiet_feed_position,
)
