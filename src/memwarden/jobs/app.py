"""The procrastinate App over memwarden's own database (tasks: `jobs.tasks.register`)."""

from __future__ import annotations

from procrastinate import App, PsycopgConnector

QUEUES = ["default", "documents", "maintenance", "hygiene", "passes"]


def build_job_app(url: str) -> App:
    return App(connector=PsycopgConnector(conninfo=url, min_size=1, max_size=4))
