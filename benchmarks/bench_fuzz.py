"""Schema-driven fuzzing, the long run: schemathesis over every operation of /openapi.json
against a live server on a fresh embedded PostgreSQL, with a Context key and with the
admin token (the CI test, tests/integration/campaign/test_openapi_fuzz.py, runs 8 examples
per operation). Run: `python benchmarks/bench_fuzz.py [--examples 200] [--json]`.

The documented statuses generation never reached are listed for information only: that
every one of them can be reached is asserted in CI by
tests/integration/campaign/test_status_reach.py, with a recipe per status.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR
from _tables import table_console
from rich.table import Table

from memwarden.settings import Settings
from memwarden.store.embedded import embedded_url, start_embedded
from memwarden.store.migrate import apply_migrations
from tests.support.fuzz import fuzz_operations
from tests.support.live import LiveServer

ADMIN_TOKEN = "bench-admin-token-0123456789"


def run(examples: int) -> list[dict]:
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-bench-fuzz-"))
    workdir.chmod(0o755)
    server = start_embedded(workdir / "pgdata")
    rows = []
    try:
        url = embedded_url(server)
        apply_migrations(url)
        settings = Settings(database_url=url, admin_token=ADMIN_TOKEN, data_dir=workdir / "data")
        live = LiveServer(settings, run_worker=True).start()
        try:
            with live.client(ADMIN_TOKEN) as admin:
                cid = admin.post("/api/v1/contexts", json={"name": "fuzz"}).json()["id"]
                grants = ["memory_read", "memory_write", "memory_review", "grant:manage"]
                key = admin.post(
                    f"/api/v1/contexts/{cid}/keys", json={"subject": "fuzz", "grants": grants}
                ).json()["key"]
            for label, token in (("context key", key), ("admin token", ADMIN_TOKEN)):
                STDERR.print(f"fuzzing with the {label}, {examples} examples per operation")
                report = fuzz_operations(live, token=token, context_id=cid, examples=examples)
                rows.append(
                    {
                        "credential": label,
                        "operations": report.operations,
                        "requests": report.requests,
                        "server_errors": report.server_errors,
                        "failures": report.failures,
                        "expected_5xx": dict(report.expected_5xx),
                        "known_gaps": dict(report.known_gaps),
                        "unreached": report.unreached,
                        "statuses": {str(k): v for k, v in sorted(report.statuses.items())},
                        "seconds": round(report.seconds, 1),
                    }
                )
        finally:
            live.stop()
    finally:
        server.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=200, help="examples per operation")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.examples)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        table = Table(title=f"schemathesis, {args.examples} examples per operation")
        columns = (
            "credential",
            "operations",
            "requests",
            "5xx",
            "of them on purpose",
            "known gaps",
            "failures",
            "s",
        )
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(
                row["credential"],
                str(row["operations"]),
                str(row["requests"]),
                str(row["server_errors"]),
                str(sum(row["expected_5xx"].values())),
                str(sum(row["known_gaps"].values())),
                str(len(row["failures"])),
                str(row["seconds"]),
            )
        table_console().print(table)
        for row in rows:
            for failure in row["failures"]:
                print(f"{row['credential']}: {failure}")
            unreached = sum(len(codes) for codes in row["unreached"].values())
            print(
                f"{row['credential']}: {unreached} documented statuses never reached by"
                " generation (each is reached in tests/integration/campaign/test_status_reach.py)"
            )
            for operation, codes in sorted(row["unreached"].items()):
                print(f"  {operation}: {', '.join(codes)}")
    return 1 if any(row["failures"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
