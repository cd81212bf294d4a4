"""Crash consistency, the long run: `memwarden serve` on a fresh embedded PostgreSQL,
SIGKILLed during concurrent /facts writes and document uploads, restarted and checked,
round after round on the same data directory (tests/support/crash.py; the CI test runs
one round). Run: `python benchmarks/bench_crash.py [--rounds 20] [--writers 4] [--json]`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR
from _tables import table_console
from rich.table import Table

from tests.support.crash import run_rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-bench-crash-"))
    workdir.chmod(0o755)
    try:
        STDERR.print(f"{args.rounds} crash rounds, {args.writers} writers and one uploader")
        rounds = run_rounds(workdir, args.rounds, writers=args.writers)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    rows = [
        {
            "round": n + 1,
            "acknowledged_writes": r.acknowledged_writes,
            "acknowledged_documents": r.acknowledged_documents,
            "missing": len(r.missing),
            "partial": len(r.partial),
            "orphans": len(r.orphans),
            "slot_violations": len(r.slots),
            "unfinished_documents": len(r.unfinished_documents),
            "recovered_jobs": r.recovered_jobs,
            "requeued_documents": r.requeued_documents,
            "restart_s": round(r.restart_s, 2),
            "settled_s": round(r.settled_s, 1),
            "problems": r.problems,
        }
        for n, r in enumerate(rounds)
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        table = Table(title=f"crash consistency, {args.rounds} SIGKILL rounds")
        columns = ("round", "acked writes", "acked docs", "missing", "partial", "orphans")
        more = (
            "slots",
            "unfinished docs",
            "jobs retried",
            "docs requeued",
            "restart s",
            "settled s",
        )
        for column in (*columns, *more):
            table.add_column(column)
        for row in rows:
            table.add_row(*(str(v) for k, v in row.items() if k != "problems"))
        restarts = [r.restart_s for r in rounds]
        table.add_row(
            "total",
            str(sum(r["acknowledged_writes"] for r in rows)),
            str(sum(r["acknowledged_documents"] for r in rows)),
            str(sum(r["missing"] for r in rows)),
            str(sum(r["partial"] for r in rows)),
            str(sum(r["orphans"] for r in rows)),
            str(sum(r["slot_violations"] for r in rows)),
            str(sum(r["unfinished_documents"] for r in rows)),
            str(sum(r["recovered_jobs"] for r in rows)),
            str(sum(r["requeued_documents"] for r in rows)),
            f"{min(restarts):.1f}-{max(restarts):.1f} (median {statistics.median(restarts):.1f})",
            f"{max(r.settled_s for r in rounds):.1f} (longest)",
        )
        table_console().print(table)
        for row in rows:
            for problem in row["problems"]:
                print(f"round {row['round']}: {problem}")
    return 1 if any(row["problems"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
