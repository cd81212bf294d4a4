"""The real-model fixture's child process: a dead model server fails the test with its
exit status and stderr, not with the 502 memwarden answers when its model is gone."""

from __future__ import annotations

import sys

import pytest

from tests.support.live import free_port
from tests.support.model_process import ModelProcess, ModelServerDied, describe_exit

CRASH = "import os, signal, sys; sys.stderr.write('loading model\\n'); sys.stderr.flush(); "


def test_a_server_killed_by_an_illegal_instruction_says_so_with_its_stderr() -> None:
    argv = [sys.executable, "-c", CRASH + "os.kill(os.getpid(), signal.SIGILL)"]
    server = ModelProcess(argv, name="llama_cpp.server")
    server.proc.wait(timeout=30)
    with pytest.raises(ModelServerDied) as died:
        server.check_alive()
    server.stop()
    message = str(died.value)
    assert "llama_cpp.server died (killed by SIGILL (illegal instruction" in message
    assert "GGML_NATIVE=OFF" in message
    assert message.endswith("loading model\n")


def test_a_server_that_exits_before_it_is_ready_fails_the_wait_at_once() -> None:
    argv = [sys.executable, "-c", "import sys; sys.stderr.write('no such model'); sys.exit(3)"]
    server = ModelProcess(argv)
    with pytest.raises(ModelServerDied, match=r"exit code 3\); last stderr:\nno such model"):
        server.wait_ready("127.0.0.1", free_port(), "/v1/models", timeout_s=60)
    server.stop()


def test_a_running_server_passes_the_check() -> None:
    server = ModelProcess([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        server.check_alive()
    finally:
        server.stop()
    assert server.proc.returncode is not None


def test_exit_statuses_in_words() -> None:
    assert describe_exit(0) == "exit code 0"
    assert describe_exit(-9) == "killed by SIGKILL"
