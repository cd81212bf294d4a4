"""Webhooks on Citus: deliveries written by the change feed's trigger on the worker are
claimed (each claim routed to its Context's shard, the sweep naming each Context with
deliveries due), retried while the receiver is down and delivered signed once it is up.
The contract test of tests/integration/webhooks on a distributed database. (On Citus the
trigger queues no job, migration 0032: the sweep sends what is due.)"""

from __future__ import annotations

from tests.integration.webhooks.test_webhooks_delivery import (  # noqa: F401
    test_a_receiver_that_is_down_for_a_while_gets_every_missing_event_once_it_is_up,
)
