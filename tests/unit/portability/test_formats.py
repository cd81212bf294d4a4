"""Reading import files (pure): formats told apart, item keys, and the CLI's parts."""

from __future__ import annotations

import json

import pytest

from memwarden.cli.portability import parts
from memwarden.errors import InvalidInput
from memwarden.portability.formats import detect, read

HEADER = json.dumps({"kind": "header", "format": "memwarden-export", "version": 1})


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        (HEADER + "\n", "memwarden"),
        ('{"results": [{"id": "a", "memory": "x"}]}', "mem0"),
        ('[{"id": "a", "memory": "x"}]', "mem0"),
        ('{"id": "a", "memory": "x"}\n', "mem0"),
        ('{"text": "x"}\n', "texts"),
        ('"just a string"\n', "texts"),
    ],
)
def test_the_format_is_told_by_the_first_line(text: str, fmt: str) -> None:
    assert detect(text) == fmt


def test_a_text_without_an_id_is_keyed_by_its_digest_so_the_same_text_is_one_item() -> None:
    _fmt, items = read(
        b'"I like go."\n{"text": "I like go."}\n{"id": 7, "text": "I like go."}\n', "auto"
    )
    keys = [k for k, _ in items]
    assert keys[0] == keys[1] and keys[2] == "texts:7"


def test_a_mem0_memory_keeps_its_user_and_its_time_in_utc_offset_form() -> None:
    body = json.dumps(
        {
            "results": [
                {
                    "id": "m1",
                    "memory": "x",
                    "user_id": "u",
                    "created_at": "2024-01-01T00:00:00-07:00",
                }
            ]
        }
    )
    fmt, [(key, payload)] = read(body.encode(), "auto")
    assert (fmt, key) == ("mem0", "mem0:m1")
    assert payload == {"text": "x", "at": "2024-01-01T00:00:00-07:00", "user": "u"}


def test_a_mem0_memory_without_an_id_is_refused_naming_its_position() -> None:
    with pytest.raises(InvalidInput, match="line 2: id must be"):
        read(b'[{"id": "a", "memory": "x"}, {"memory": "y"}]', "mem0")


def test_a_file_cut_in_parts_keeps_every_line_once_and_starts_each_part_with_the_header() -> None:
    lines = [json.dumps({"kind": "link", "n": n}) for n in range(50)]
    data = (HEADER + "\n" + "\n".join(lines) + "\n").encode()
    cut = list(parts(data, limit=len(HEADER) + 200))
    assert len(cut) > 1 and all(len(p) <= len(HEADER) + 200 for p in cut)
    assert all(p.startswith(HEADER.encode() + b"\n") for p in cut)
    body = [line for p in cut for line in p.decode().splitlines()[1:]]
    assert body == lines


def test_a_file_within_the_limit_is_sent_whole() -> None:
    assert list(parts(b'{"text": "x"}\n', limit=100)) == [b'{"text": "x"}\n']


def test_a_part_holds_at_most_the_items_one_import_takes() -> None:
    data = b"".join(b'"t%d"\n' % n for n in range(10))
    cut = list(parts(data, limit=1000, max_lines=4))
    assert [p.count(b"\n") for p in cut] == [4, 4, 2]
