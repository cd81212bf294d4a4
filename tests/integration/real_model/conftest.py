"""One llama.cpp server for every real-model test here (see tests/support/llama_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import llama_server
from tests.support.llama_server import LlamaServer


@pytest.fixture(scope="package")
def llama() -> Iterator[LlamaServer]:
    why = llama_server.missing()
    if why is not None:
        pytest.skip(why)
    server = llama_server.start()
    try:
        yield server
    finally:
        server.process.stop()
