"""A model server run as a child process for a test, that says why when it dies.

Without this, a model server that crashed (an illegal instruction from a llama.cpp build
made for another CPU, say) shows up only as the product's 502, which blames memwarden.
"""

from __future__ import annotations

import math
import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO

import httpx

TAIL_CHARS = 2_000


def usable_cpus(cap: int = 4) -> int:
    """CPUs this process may actually run on: its affinity, bounded by a cgroup v2 quota.

    llama-cpp-python's default is half of `cpu_count()`, the host's count: one thread on a
    2-core machine, dozens on a container that sees the host's cores but has a quota of two.
    """
    cpus = len(os.sched_getaffinity(0))
    try:
        quota, period = open("/sys/fs/cgroup/cpu.max").read().split()  # noqa: SIM115
        if quota != "max":
            cpus = min(cpus, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, min(cap, cpus))


class ModelServerDied(AssertionError):
    """The model server process is gone; the message carries its exit status and stderr."""


def describe_exit(code: int) -> str:
    """An exit status in words; a negative one is the signal that killed the process."""
    if code >= 0:
        return f"exit code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    hint = ""
    if -code == signal.SIGILL:
        hint = (
            " (illegal instruction: llama-cpp-python was built for a CPU feature this machine"
            " does not let the process use; rebuild it with CMAKE_ARGS=-DGGML_NATIVE=OFF,"
            " as .ci/run does)"
        )
    return f"killed by {name}{hint}"


class ModelProcess:
    """Starts `argv`, waits for `ready_url` to answer 200, and checks it is still alive."""

    def __init__(self, argv: Sequence[str], name: str = "model server") -> None:
        self.name = name
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=self._stderr)

    def stderr_tail(self) -> str:
        self._stderr.flush()
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")
        return text[-TAIL_CHARS:]

    def check_alive(self) -> None:
        """Raise ModelServerDied, with the exit status and stderr tail, if it has exited."""
        code = self.proc.poll()
        if code is None:
            return
        raise ModelServerDied(
            f"the {self.name} died ({describe_exit(code)}); last stderr:\n{self.stderr_tail()}"
        )

    def wait_ready(self, host: str, port: int, path: str, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.check_alive()
            try:
                with socket.create_connection((host, port), timeout=1):
                    pass
                if httpx.get(f"http://{host}:{port}{path}", timeout=5).status_code == 200:
                    return
            except (OSError, httpx.TransportError):
                time.sleep(0.3)
        raise AssertionError(
            f"the {self.name} did not start in {timeout_s:.0f} s; last stderr:\n"
            f"{self.stderr_tail()}"
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        self._stderr.close()
