"""Mounts the dashboard on the app `memwarden serve` runs: pages at /ui, assets at
/ui/static (shipped in the package; nothing from a CDN)."""

from __future__ import annotations

import secrets

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from memwarden.settings import Settings
from memwarden.web import (
    pages_auth,
    pages_context,
    pages_erasure,
    pages_hygiene,
    pages_judgements,
    pages_memories,
)
from memwarden.web.base import HERE
from memwarden.web.session import SessionSealer


def session_secret(settings: Settings | None) -> str:
    """MEMWARDEN_UI_SESSION_SECRET when set (every process of a deployment must share it);
    otherwise one random per process, so sessions end when it restarts."""
    given = settings.ui_session_secret if settings else None
    return given.get_secret_value() if given else secrets.token_urlsafe(32)


def mount_dashboard(app: FastAPI, settings: Settings | None) -> None:
    app.state.ui_sealer = SessionSealer(session_secret(settings))
    pages = (pages_auth, pages_judgements, pages_memories, pages_context, pages_hygiene)
    for module in (*pages, pages_erasure):
        app.include_router(module.router)
    app.mount("/ui/static", StaticFiles(directory=HERE / "static"), name="ui-static")
