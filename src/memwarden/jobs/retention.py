"""The retention purge: review-log entries and retained inputs past their Context's limit."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import structlog

from memwarden.config import ConfigUnreadable, load_config
from memwarden.store import retention as store
from memwarden.store.db import Database

log = structlog.get_logger(__name__)


@dataclass
class PurgeReport:
    contexts: int = 0
    judgements: int = 0
    retained_inputs: int = 0
    skipped_unreadable: list[str] = field(default_factory=list)


async def purge_expired(db: Database, now: datetime | None = None) -> PurgeReport:
    """One transaction per Context, so one Context's failure leaves the others purged."""
    now = now or datetime.now(UTC)
    report = PurgeReport()
    async with db.connection() as conn:
        contexts = await store.contexts_with_config(conn)
    for row in contexts:
        try:
            config = load_config(row.config)
        except ConfigUnreadable:
            # Never guess a retention period from defaults: skip and say so.
            report.skipped_unreadable.append(str(row.id))
            log.warning("retention_skipped_unreadable_config", context_id=str(row.id))
            continue
        report.contexts += 1
        async with db.transaction() as conn:
            days = config.judge.retention_days
            if days > 0:
                cutoff = now - timedelta(days=days)
                report.judgements += await store.purge_judgements(conn, row.id, cutoff)
            report.retained_inputs += await store.purge_retained_inputs(conn, row.id, now)
    log.info(
        "retention_purge_done",
        contexts=report.contexts,
        judgements=report.judgements,
        retained_inputs=report.retained_inputs,
    )
    return report
