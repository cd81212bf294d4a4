"""The composition root: wires the database, job queue, model providers and judge into
one Services object.

It sits above the service packages and below the interfaces (api, mcp, cli, web): it
imports what it wires (the judge, the job tasks), and only interfaces and tests import it.
Use cases take `Services` from `memwarden.services`, never from here.
"""

from __future__ import annotations

from memwarden.child_pool import ChildPool
from memwarden.documents.parse import PARSE_MEMORY_BYTES, PARSER_MODULES
from memwarden.jobs.app import build_job_app
from memwarden.jobs.tasks import register
from memwarden.judge.gate import Judge
from memwarden.models.registry import Models, ModelSettings
from memwarden.services import Services
from memwarden.settings import STAGES, Settings
from memwarden.store.db import Database, prepare


def model_settings(settings: Settings) -> ModelSettings:
    return ModelSettings(
        base_url=settings.openai_base_url,
        api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        stages={stage: settings.model_for(stage) for stage in STAGES},
        structured_output=settings.structured_output,
        timeout_s=settings.model_timeout_s,
        max_retries=settings.model_max_retries,
    )


def build_services(
    settings: Settings, db: Database | None = None, models: Models | None = None
) -> Services:
    """Prepare (resolve + migrate) the database unless one is given."""
    database = db or prepare(settings)
    services = Services(
        settings=settings,
        db=database,
        jobs=build_job_app(database.url),
        models=models or Models(model_settings(settings)),
        parsers=ChildPool(memory_bytes=PARSE_MEMORY_BYTES, preload=PARSER_MODULES),
    )
    services.gatekeeper = Judge(services)  # the ingest judge; PassThrough only when unbuilt
    register(services.jobs, services)  # tasks run the use cases with these Services
    return services
