"""A virtual environment with CrewAI and the client's own dependencies only.

CrewAI pins packages below memwarden's server (openai, mcp, pydantic, httpx), so its
adapter is tested in an environment of its own. It is built once per CrewAI requirement
and Python version, in a cache folder outside the checkout (CI keeps it between runs, as
it keeps its wheel and npm caches), and holds no memwarden_client: the tests put
`clients/python/src` on PYTHONPATH, so the tree's client is the one under test.

    python -m tests.clients.crewai.venv      # build it (or find it built); prints its python
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CLIENT_PYPROJECT = ROOT / "clients" / "python" / "pyproject.toml"


def requirements() -> list[str]:
    """The client's dependencies and its `crewai` extra, as its pyproject says."""
    project = tomllib.loads(CLIENT_PYPROJECT.read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["crewai"]]


def location() -> Path:
    wanted = "\n".join([sys.version, *requirements()])
    key = hashlib.sha256(wanted.encode()).hexdigest()[:12]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "memwarden-ci" / f"venv-crewai-{key}"


def python_of(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure(timeout: float = 600) -> Path:
    """The environment's python, built first when it is not there (raises when pip fails)."""
    venv = location()
    done = venv / ".memwarden-built"
    if done.exists():
        return python_of(venv)
    shutil.rmtree(venv, ignore_errors=True)  # a build that did not finish
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run(
        [str(python_of(venv)), "-m", "pip", "install", "-q", *requirements()],
        check=True,
        timeout=timeout,
    )
    done.touch()
    return python_of(venv)


if __name__ == "__main__":
    print(ensure())
