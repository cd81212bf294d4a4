"""The procrastinate App over memwarden's own database (tasks: `jobs.tasks.register`).

Its job manager makes every worker it registers hold a session advisory lock for its life
(`store/recovery.py`), so recovery can tell a worker that died from one that is only slow to
beat (`jobs/recovery.py`).
"""

from __future__ import annotations

from procrastinate import App, PsycopgConnector
from procrastinate.manager import JobManager

from memwarden.store.recovery import WorkerSession

QUEUES = ["default", "documents", "maintenance", "hygiene", "passes"]


class LockedWorkers(JobManager):
    """procrastinate's job manager, with each worker registered on a session of its own
    that holds the worker's lock and sends its heartbeats."""

    def __init__(self, connector: PsycopgConnector, url: str) -> None:
        super().__init__(connector=connector)
        self.url = url
        self.sessions: dict[int, WorkerSession] = {}

    async def register_worker(self) -> int:
        session = WorkerSession(self.url)
        worker_id = await session.register()
        self.sessions[worker_id] = session
        return worker_id

    async def update_heartbeat(self, worker_id: int) -> None:
        session = self.sessions.get(worker_id)
        if session is None:
            await super().update_heartbeat(worker_id)
            return
        await session.heartbeat(worker_id)

    async def unregister_worker(self, worker_id: int) -> None:
        try:
            await super().unregister_worker(worker_id)
        finally:
            session = self.sessions.pop(worker_id, None)
            if session is not None:
                await session.close()


def build_job_app(url: str) -> App:
    connector = PsycopgConnector(conninfo=url, min_size=1, max_size=4)
    app = App(connector=connector)
    app.job_manager = LockedWorkers(connector, url)
    return app
