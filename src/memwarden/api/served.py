"""App factories for `memwarden serve --workers N` (and for uvicorn or gunicorn run by
hand): each worker process imports one of these by name and builds its own app, with its
own Services, from the deployment settings (MEMWARDEN_* in its environment).

    uvicorn --factory memwarden.api.served:api_only --workers 4 --port 8420
    gunicorn -k uvicorn.workers.UvicornWorker -w 4 'memwarden.api.served:api_only()'
"""

from __future__ import annotations

from fastapi import FastAPI

from memwarden.api.app import create_app
from memwarden.logging_setup import configure_logging
from memwarden.settings import get_settings


def _served(run_worker: bool) -> FastAPI:
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_json)
    return create_app(settings=settings, run_worker=run_worker)


def api_only() -> FastAPI:
    """The API process of a multi-process deployment; jobs run in `memwarden worker`."""
    return _served(run_worker=False)


def api_with_worker() -> FastAPI:
    """The API with a job worker in the same process (what `memwarden serve` runs)."""
    return _served(run_worker=True)
