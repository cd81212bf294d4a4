"""`pip install ./clients/python` into a fresh virtual environment: the client installs
alone, with httpx and pydantic as its only dependencies outside the extras.

Kept cheap: no index and no build isolation (the dev environment's setuptools builds
it), and the new environment sees the dev environment's packages through a .pth file
instead of downloading httpx and pydantic again."""

from __future__ import annotations

import json
import shutil
import subprocess
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CLIENT = ROOT / "clients" / "python"

PROBE = """
import importlib.metadata as md, json, pathlib, memwarden_client
package = pathlib.Path(memwarden_client.__file__).parent
print(json.dumps({
    "file": str(package),
    "version": md.version("memwarden-client"),
    "requires": md.requires("memwarden-client"),
    "typed": (package / "py.typed").exists(),
    "models": (package / "models.py").exists(),
}))
"""


def test_pip_installs_the_client_alone_into_a_fresh_environment(tmp_path: Path) -> None:
    source = tmp_path / "src-copy"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(CLIENT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(CLIENT / "src", source / "src", ignore=ignore)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "dev_site.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"]
    pip += ["--no-index", "--no-compile", "--disable-pip-version-check", str(source)]
    done = subprocess.run(pip, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    probe = subprocess.run(
        [str(python), "-c", PROBE], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    found = json.loads(probe.stdout)
    assert found["file"].startswith(purelib)  # the installed copy, not the source tree
    assert found["typed"] and found["models"]
    plain = sorted(r for r in found["requires"] if "extra ==" not in r)
    assert [r.split("<")[0].split(">")[0] for r in plain] == ["httpx", "pydantic"]
