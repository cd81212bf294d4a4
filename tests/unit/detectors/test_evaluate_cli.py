"""`memwarden eval judge` over several files and one split (tiny inline rows, no server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memwarden.cli.evaluate import eval_app

runner = CliRunner()


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return path


def test_eval_judge_reads_both_formats_and_scores_one_split(tmp_path: Path) -> None:
    shared = _write(
        tmp_path / "shared.jsonl",
        [
            {"text": "card 4111 1111 1111 1111", "label": "payment_card", "source": "s"},
            {"text": "the weather is nice", "label": "none", "source": "s"},
        ],
    )
    ours = _write(
        tmp_path / "ours.jsonl",
        [
            {
                "text": "db password: Xk9#pLm2qR",
                "label": "credential",
                "class": "credential",
                "split": "test",
                "source": "o",
            },
            {
                "text": "see commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
                "label": "none",
                "class": "credential",
                "split": "test",
                "source": "o",
            },
            {
                "text": "api_key=changeme",
                "label": "none",
                "class": "credential",
                "split": "train",
                "source": "o",
            },
        ],
    )
    both = ["judge", "--data", str(shared), "--data", str(ours), "--json"]
    result = runner.invoke(eval_app, both)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["rows"] == 5
    overall = {m["label"]: m for m in report["overall"]}
    assert overall["credential"]["negatives"] == 3  # one shared `none` + two of ours
    splits = {(m["label"], m["split"]) for m in report["by_split"]}
    assert splits == {("credential", "test"), ("credential", "train")}

    test_only = runner.invoke(eval_app, [*both, "--split", "test"])
    assert test_only.exit_code == 0, test_only.output
    report = json.loads(test_only.stdout)
    assert report["rows"] == 2
    assert {m["label"] for m in report["overall"]} == {"credential"}

    table = runner.invoke(eval_app, ["judge", "--data", str(ours), "--split", "train"])
    assert table.exit_code == 0, table.output
    assert "skipped 2 rows outside split 'train'" in table.output
    assert "(split train)" in table.output


def test_eval_judge_refuses_a_row_whose_label_contradicts_its_class(tmp_path: Path) -> None:
    bad = _write(
        tmp_path / "bad.jsonl",
        [{"text": "x", "label": "credential", "class": "payment_card", "split": "test"}],
    )
    result = runner.invoke(eval_app, ["judge", "--data", str(bad)])
    assert result.exit_code == 2
    assert "contradicts" in result.output
