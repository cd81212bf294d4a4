"""`memwarden doctor`: checks a newcomer can read at a glance."""

from __future__ import annotations

import asyncio
import os
import shutil
from typing import Any

from rich.table import Table

from memwarden.cli.runner import console
from memwarden.logging_setup import configure_logging
from memwarden.settings import STAGES, get_settings, inactive_settings, unknown_variables

MIN_FREE_BYTES = 1024**3


def run_doctor() -> int:
    settings = get_settings()
    configure_logging("WARNING")
    table = Table("check", "status", "detail")
    failures = 0

    def row(name: str, ok: bool, detail: str, warn: bool = False) -> None:
        nonlocal failures
        status = "[green]ok[/]" if ok else ("[yellow]warn[/]" if warn else "[red]fail[/]")
        failures += 0 if ok or warn else 1
        table.add_row(name, status, detail)

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(settings.data_dir).free
    row(
        "disk",
        free >= MIN_FREE_BYTES,
        f"{free / 1024**3:.1f} GiB free in {settings.data_dir}",
        warn=free >= 64 * 1024**2,
    )

    database = None
    contexts: list[dict[str, Any]] = []
    try:
        from memwarden.admin.settings_service import inactive_fields_by_context
        from memwarden.bootstrap import build_services
        from memwarden.health import HealthReport, check_health

        services = build_services(settings)

        async def probe() -> tuple[HealthReport, list[dict[str, Any]]]:
            await services.db.open()
            try:
                return await check_health(services), await inactive_fields_by_context(services.db)
            finally:
                await services.db.close()

        report, contexts = asyncio.run(probe())
        database = report.database.model_dump()
    except Exception as exc:
        row("database", False, f"{type(exc).__name__}: {exc}")
    if database is not None:
        ok = database.get("status") == "ok"
        where = "embedded" if database.get("embedded") else "external"
        row(
            "database",
            ok,
            f"PostgreSQL {database.get('version')} ({where}), "
            f"schema {database.get('schema_version')}",
        )
        row("pgvector", bool(database.get("pgvector")), f"version {database.get('pgvector')}")
    for stage in STAGES:
        choice = settings.model_for(stage)
        row(f"model:{stage}", True, choice or "offline default", warn=False)
    if settings.openai_base_url:
        row("openai endpoint", True, settings.openai_base_url)
    # Accepted settings that do nothing yet (settings.INACTIVE_SETTINGS and
    # config.INACTIVE_CONFIG_FIELDS): warned, never failed, so a config stays valid.
    for item in inactive_settings(settings):
        row(
            f"inactive:{item['setting']}", False, f"set, but not yet active: {item['reason']}", True
        )
    for name in unknown_variables(os.environ):
        row(f"unknown:{name}", False, "not a memwarden setting: ignored", warn=True)
    for ctx in contexts:
        fields = ", ".join(sorted(ctx["fields"]))
        detail = f"Context {ctx['context_id']} sets fields not yet active: {fields}"
        row(f"inactive:context {ctx['name']}", False, detail, warn=True)
    console.print(table)
    return 1 if failures else 0
