"""The procrastinate App over memwarden's own database."""

from __future__ import annotations

from procrastinate import App, PsycopgConnector

from memwarden.jobs.tasks import register

QUEUES = ["default", "documents", "maintenance", "hygiene"]


def build_job_app(url: str) -> App:
    app = App(connector=PsycopgConnector(conninfo=url, min_size=1, max_size=4))
    register(app)
    return app
