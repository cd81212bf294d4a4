"""Regenerate `memwarden_client/models.py` from memwarden's OpenAPI document.

    python clients/python/scripts/generate_models.py                 # built in-process
    python clients/python/scripts/generate_models.py --url http://127.0.0.1:8000
    python clients/python/scripts/generate_models.py --file openapi.json
    python clients/python/scripts/generate_models.py --check         # fail on a difference

It starts nothing: without `--url` or `--file` it asks `memwarden.api.app.create_app()`
for the document, which builds the routes without opening a database. The output is
deterministic (keys sorted, no timestamp, formatted by the repository's ruff settings),
so a test can regenerate it from a running server and compare it with the committed
file. Needs the server's dev extra (datamodel-code-generator, ruff).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

CLIENT_ROOT = Path(__file__).resolve().parents[1]
TARGET = CLIENT_ROOT / "src" / "memwarden_client" / "models.py"
COMMAND = "python clients/python/scripts/generate_models.py"

HEADER = f"""\
# Generated from memwarden's /openapi.json by `{COMMAND}`: do not edit.
# ruff: noqa: E501"""

OPTIONS = [
    "--input-file-type=openapi",
    "--output-model-type=pydantic_v2.BaseModel",
    "--target-python-version=3.11",
    "--snake-case-field",
    "--allow-population-by-field-name",
    "--disable-timestamp",
    "--use-standard-collections",
    "--use-union-operator",
    "--use-double-quotes",
    "--enum-field-as-literal=all",
    "--use-schema-description",
    "--field-constraints",
    "--no-formatters",
]


def spec_in_process() -> dict[str, Any]:
    from memwarden.api.app import create_app

    spec: dict[str, Any] = create_app().openapi()
    return spec


def spec_from_url(url: str) -> dict[str, Any]:
    resp = httpx.get(url.rstrip("/") + "/openapi.json", timeout=30.0)
    resp.raise_for_status()
    spec: dict[str, Any] = resp.json()
    return spec


def _ruff(args: list[str], source: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--stdin-filename", str(TARGET), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
        cwd=CLIENT_ROOT.parents[1],
    )
    if done.returncode != 0:
        raise RuntimeError(f"ruff {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def render(spec: dict[str, Any]) -> str:
    """The models module for one OpenAPI document, as the committed file should read."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "openapi.json"
        source.write_text(json.dumps(spec, sort_keys=True, indent=1), encoding="utf-8")
        output = Path(tmp) / "models.py"
        header = Path(tmp) / "header.txt"
        header.write_text(HEADER, encoding="utf-8")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "datamodel_code_generator",
                f"--input={source}",
                f"--output={output}",
                f"--custom-file-header-path={header}",
                *OPTIONS,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        text = output.read_text(encoding="utf-8")
    text = _ruff(["check", "--fix", "--quiet", "--exit-zero"], text)
    return _ruff(["format", "--quiet"], text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--url", help="a running server's base URL (reads /openapi.json)")
    source.add_argument("--file", type=Path, help="an OpenAPI JSON file")
    parser.add_argument("--check", action="store_true", help="fail when the file differs")
    args = parser.parse_args(argv)
    if args.url:
        spec = spec_from_url(args.url)
    elif args.file:
        spec = json.loads(args.file.read_text(encoding="utf-8"))
    else:
        spec = spec_in_process()
    text = render(spec)
    if args.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.name} is out of date: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(CLIENT_ROOT.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
