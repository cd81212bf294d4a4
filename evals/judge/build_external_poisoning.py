"""Build `external_poisoning.jsonl`: memory-poisoning attempts and look-alikes written by others.

    python evals/judge/build_external_poisoning.py [--dists DIR]

Positives and hand-picked negatives are the payloads and benign controls that memory-guard
projects ship in their own tests and benchmarks (`external_sources/poisoning_transcribed.jsonl`,
each row with its package or repository and path). Rows from a package are checked here against
the string literals of that file in the pinned distribution, so a row that is not in the source
stops the build. Further negatives are every text of AgentDojo's environments (e-mails,
calendar entries, shared documents, Slack messages, reviews, bank transfers), with each
injection slot given the benign default the package ships for it: ordinary data an assistant
reads, much of it instruction-shaped (policies, requests, reminders) without being an attack.

The Open Agent Security Benchmark's corpus (`external_sources/oasb_corpus.jsonl`: its
persistence attacks and benign agent instructions written as prose, copied with repository,
path and commit; the corpus ships in no package) was the held-out source, measured once
before its misses were read; it is `train` now, like every other project here, whose misses
were read while the rules were widened. A project's package and repository count as one
source, so no project is in both splits. The LoCoMo
conversations under `../shared` are a further test-only source of look-alikes (people's own
statements about their lives and plans); their licence (CC BY-NC 4.0) keeps them out of this
repository, so `lookalikes_locomo.py` writes them at measurement time. See
SOURCES_poisoning.md.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
TRANSCRIBED = HERE / "external_sources" / "poisoning_transcribed.jsonl"
# Round 4: the payloads and benign controls of five more projects' tests (see SOURCES_poisoning.md).
ROUND4 = HERE / "external_sources" / "poisoning_round4.jsonl"
OASB = HERE / "external_sources" / "oasb_corpus.jsonl"
OUT = HERE / "external_poisoning.jsonl"

# Pinned distributions: requirement -> (kind, licence). Tests ship only in the sdists.
DISTS: dict[str, tuple[str, str]] = {
    "agent-memory-guard==0.3.3": ("sdist", "Apache-2.0"),
    "bastionmemory==0.2.0": ("sdist", "MIT"),
    "agent-probe-ai==0.6.0": ("sdist", "MIT"),
    "agentdojo==0.1.35": ("wheel", "MIT"),
    "apexguard==0.1.7": ("sdist", "Apache-2.0"),
    "agent-cordon==0.3.0": ("sdist", "MIT"),
    "aicordon==1.4.0": ("sdist", "Apache-2.0"),
    "devin-memory==0.3.1": ("sdist", "MIT"),
    "beigebox-security==0.1.0": ("sdist", "Apache-2.0"),
}
# Which split each project is in (a project's package and repository count as one source).
SPLIT: dict[str, str] = {
    "agent-memory-guard": "train",
    "OWASP/www-project-agent-memory-guard": "train",
    "opena2a-org/open-agent-security-benchmark": "train",
    "bastionmemory": "train",
    "agent-probe-ai": "train",
    "agentdojo": "train",
    "apexguard": "train",
    "agent-cordon": "train",
    "aicordon": "train",
    # Round 4's held-out projects, chosen from file lists and licences before any row was read.
    "devin-memory": "test",
    "beigebox-security": "test",
}
SOURCE_NAME: dict[str, str] = {
    "OWASP/www-project-agent-memory-guard": "agent-memory-guard",
    "opena2a-org/open-agent-security-benchmark": "oasb",
}
AGENTDOJO_SUITES = ("workspace", "travel", "banking", "slack")
# Environment fields that hold free text someone wrote (ids, dates, amounts are left out).
_TEXT_KEYS = frozenset({"body", "content", "description", "subject", "title", "reviews"})
_SLOT = re.compile(r"\{(\w+)\}")
MIN_CHARS = 20


def fetch(into: Path | None) -> dict[str, Path]:
    """Unpacked distributions per requirement; downloaded with pip when `into` lacks them."""
    root = into or Path(tempfile.mkdtemp(prefix="memwarden-poisoning-"))
    trees: dict[str, Path] = {}
    for requirement, (kind, _) in DISTS.items():
        dist, version = requirement.split("==")
        stem = f"{dist.replace('-', '_')}-{version}"
        tree = root / stem
        if not tree.is_dir():
            pattern = f"{stem}.tar.gz" if kind == "sdist" else f"{stem}-*.whl"
            archive = next(root.glob(pattern), None)
            if archive is None:
                binary = ["--no-binary", ":all:"] if kind == "sdist" else ["--only-binary", ":all:"]
                subprocess.run(
                    [sys.executable, "-m", "pip", "download", requirement, *binary,
                     "--no-deps", "-d", str(root)],
                    check=True,
                )  # fmt: skip
                archive = next(root.glob(pattern))
            if kind == "sdist":
                with tarfile.open(archive) as tar:
                    tar.extractall(root, filter="data")
            else:
                with zipfile.ZipFile(archive) as whl:
                    whl.extractall(tree)
        trees[dist] = tree
    return trees


def literals(path: Path) -> set[str]:
    """Every string literal of a Python file (implicit concatenations joined, as Python does)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def transcribed_rows(trees: dict[str, Path], source: Path) -> Iterator[dict[str, Any]]:
    """The hand-picked rows, each checked against its file where a package ships it."""
    cache: dict[Path, set[str]] = {}
    for n, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        row = json.loads(line)
        if row.get("package"):
            project = row["package"].split("==")[0]
            path = trees[project] / row["path"]
            if path not in cache:
                cache[path] = literals(path)
            if row["text"] not in cache[path]:
                raise SystemExit(f"{source.name} line {n}: text not in {row['path']}")
            cited = f"{row['package']}@{row['path']}"
        else:
            project = row["repository"]
            cited = f"{row['repository']}@{row['path']}@{row['commit'][:12]}"
        yield {
            "text": row["text"],
            "label": row["label"],
            "class": "memory_poisoning",
            "split": SPLIT[project],
            "source": SOURCE_NAME.get(project, project),
            "cited": cited,
        }


def oasb_rows() -> Iterator[dict[str, Any]]:
    """The benchmark corpus's rows as copied: malicious persistence attempts and benign texts."""
    for line in OASB.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        project = row["repository"]
        yield {
            "text": row["text"],
            "label": row["label"],
            "class": "memory_poisoning",
            "split": SPLIT[project],
            "source": SOURCE_NAME[project],
            "cited": f"{project}@{row['path']}@{row['commit'][:12]}#{row['id']}",
        }


def aicordon_rows(tree: Path) -> Iterator[dict[str, Any]]:
    """aicordon's example dialogues: the attacking turn of each attack (as its manifest names
    it), every user turn of the clean ones."""
    folder = tree / "integrations" / "examples"
    manifest = folder / "dialog_manifest.jsonl"
    attack_turn = {
        row["id"]: row["attack_turn"]
        for row in map(json.loads, filter(str.strip, manifest.read_text("utf-8").splitlines()))
        if row["label"] == "attack"
    }
    path = folder / "dialogues.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        dialogue = json.loads(line)
        for turn, (role, text) in enumerate(dialogue["turns"]):
            attack = attack_turn.get(dialogue["id"]) == turn
            if role != "user" or (dialogue["id"] in attack_turn and not attack):
                continue
            yield {
                "text": text,
                "label": "memory_poisoning" if attack else "none",
                "class": "memory_poisoning",
                "split": SPLIT["aicordon"],
                "source": "aicordon",
                "cited": f"aicordon==1.4.0@{path.relative_to(tree)}#{dialogue['id']}",
            }


def _strings(node: Any) -> Iterator[tuple[str, str]]:
    """(key, text) for every string under a text key of a YAML tree."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _TEXT_KEYS and isinstance(value, str):
                yield key, value
            elif key in _TEXT_KEYS and isinstance(value, list):
                yield from ((key, v) for v in value if isinstance(v, str))
            else:
                yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def agentdojo_rows(tree: Path) -> Iterator[dict[str, Any]]:
    """Every free text of AgentDojo's environments, injection slots filled with their defaults."""
    suites = tree / "agentdojo" / "data" / "suites"
    for suite in AGENTDOJO_SUITES:
        vectors = yaml.safe_load((suites / suite / "injection_vectors.yaml").read_text("utf-8"))
        defaults = {name: str(spec.get("default", "")) for name, spec in vectors.items()}
        files = [suites / suite / "environment.yaml", *sorted((suites / suite).glob("include/*"))]
        for path in files:
            raw = _SLOT.sub(
                lambda m, d=defaults: d.get(m.group(1), m.group(0)),
                path.read_text(encoding="utf-8"),
            )
            # The workspace environment only includes its parts (a custom !include tag).
            if "!include" in raw:
                continue
            for key, text in _strings(yaml.safe_load(raw)):
                text = text.strip()
                if len(text) >= MIN_CHARS:
                    yield {
                        "text": text,
                        "label": "none",
                        "class": "memory_poisoning",
                        "split": SPLIT["agentdojo"],
                        "source": "agentdojo",
                        "cited": f"agentdojo==0.1.35@{path.relative_to(tree)}:{key}",
                    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dists", type=Path, help="folder holding (or to hold) the downloads")
    args = parser.parse_args()
    trees = fetch(args.dists)
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for row in [
        *transcribed_rows(trees, TRANSCRIBED),
        *agentdojo_rows(trees["agentdojo"]),
        *oasb_rows(),
        *transcribed_rows(trees, ROUND4),
        *aicordon_rows(trees["aicordon"]),
    ]:
        key = hashlib.sha256(" ".join(row["text"].split()).lower().encode()).hexdigest()
        if key not in seen:
            seen.add(key)
            rows.append(row)
    with OUT.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[tuple[str, str, str], int] = {}
    for row in rows:
        k = (row["split"], row["source"], row["label"])
        counts[k] = counts.get(k, 0) + 1
    for (split, source, label), n in sorted(counts.items()):
        print(f"{split:5} {source:20} {label:16} {n}")


if __name__ == "__main__":
    main()
