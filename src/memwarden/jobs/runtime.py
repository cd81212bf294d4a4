"""The Services a worker's tasks use, set once when the worker starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memwarden.bootstrap import Services

_services: Services | None = None


def set_services(services: Services | None) -> None:
    global _services
    _services = services


def services() -> Services:
    if _services is None:
        raise RuntimeError("worker services are not initialised")
    return _services
