"""Imports obey the layers: interfaces above the composition root above the use cases above
the lower layers, and no two packages or modules import each other.

The contracts live in `.importlinter` at the repository root (`lint-imports` reads the same
file); import-linter counts imports inside functions and under `if TYPE_CHECKING:` too.
Each check runs in a subprocess so it sees exactly the source tree it is given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import memwarden

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / ".importlinter"
SOURCE = Path(memwarden.__file__).resolve().parent  # the tree under test (PYTHONPATH wins)
LINT = (
    "import sys; from importlinter.cli import lint_imports;"
    " sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))"
)


def lint(src_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src_dir)}
    return subprocess.run(
        [sys.executable, "-c", LINT, str(CONFIG)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_no_module_imports_from_a_layer_above_it_and_there_are_no_cycles() -> None:
    result = lint(SOURCE.parent)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("module", "planted", "reported"),
    [
        # a lower layer reaching up, hidden from run time
        (
            "domain/ids.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import memwarden.bootstrap\n",
            "memwarden.domain.ids -> memwarden.bootstrap",
        ),
        # a use case importing the composition root inside a function
        (
            "judge/holds.py",
            "def _late() -> None:\n    import memwarden.bootstrap\n",
            "memwarden.judge.holds -> memwarden.bootstrap",
        ),
        # two use-case packages importing each other (jobs already imports documents)
        ("documents/service.py", "import memwarden.jobs.tasks\n", ".documents -> .jobs"),
    ],
)
def test_a_planted_import_breaks_a_contract(
    tmp_path: Path, module: str, planted: str, reported: str
) -> None:
    copy = tmp_path / "memwarden"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__", "assets"))
    target = copy / module
    target.write_text(target.read_text() + "\n" + planted)
    result = lint(tmp_path)
    assert result.returncode == 1, result.stdout
    assert "BROKEN" in result.stdout and reported in result.stdout, result.stdout


def test_every_top_level_module_has_a_layer() -> None:
    """A module missing from the layers would be checked by nothing."""
    text = CONFIG.read_text(encoding="utf-8")
    layers = text.split("layers =", 1)[1].split("[importlinter:", 1)[0]
    named = {
        name.strip("() ")
        for line in layers.splitlines()
        if not line.lstrip().startswith("#")
        for part in line.split(":")
        for name in part.split("|")
    }
    modules = {
        p.stem if p.suffix == ".py" else p.name
        for p in SOURCE.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    }
    assert modules - named == set()
