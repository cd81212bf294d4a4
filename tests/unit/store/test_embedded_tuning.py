"""The embedded server's settings: sized to the machine, written beside the operator's file."""

from __future__ import annotations

from pathlib import Path

import pytest

from memwarden.store.embedded import TUNING_FILE, tuning, write_tuning


@pytest.mark.parametrize(
    ("ram_mb", "shared"),
    [
        (512, "128MB"),
        (1024, "128MB"),
        (2048, "256MB"),
        (4096, "512MB"),
        (8192, "1024MB"),
        (65536, "1024MB"),
    ],
)
def test_shared_buffers_are_an_eighth_of_memory_between_128_mb_and_1_gb(
    ram_mb: int, shared: str
) -> None:
    settings = tuning(ram_mb)
    assert settings["shared_buffers"] == shared
    assert settings["jit"] == "off"
    assert settings["max_locks_per_transaction"] == "512"


def test_the_settings_file_is_included_once_however_often_the_server_starts(
    tmp_path: Path,
) -> None:
    conf = tmp_path / "postgresql.conf"
    conf.write_text("max_connections = 100\n")
    write_tuning(tmp_path, tuning(4096))
    write_tuning(tmp_path, {"shared_buffers": "256MB"})
    text = conf.read_text()
    assert text.startswith("max_connections = 100\n")
    assert text.count(f"include_if_exists = '{TUNING_FILE}'") == 1
    assert (tmp_path / TUNING_FILE).read_text().splitlines()[1:] == ["shared_buffers = '256MB'"]
