"""Work for the child pool's tests, importable by name in a child process, and the
helpers those tests watch children with."""

from __future__ import annotations

import asyncio
import os
import signal
import time

from memwarden.child_pool import ChildPool


async def busy_pid(pool: ChildPool, within: float = 60.0) -> int:
    """The pid of the child running a call, once one is."""
    deadline = time.monotonic() + within
    while not pool.busy_pids():
        assert time.monotonic() < deadline, "no child started the work"
        await asyncio.sleep(0.01)
    return pool.busy_pids()[0]


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether the process ends (and is reaped) within `within` seconds."""
    import psutil

    deadline = time.monotonic() + within
    while psutil.pid_exists(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def echo(value: object) -> object:
    return value


def pid() -> int:
    return os.getpid()


def spin(seconds: float) -> int:
    """Burn CPU (holding the GIL in this process only) for `seconds`."""
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        n += 1
    return n


def crash() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def allocate(n_bytes: int) -> int:
    return len(bytearray(n_bytes))


class Unpicklable(Exception):
    def __init__(self, a: int, b: int) -> None:
        super().__init__(a)  # unpickling calls Unpicklable(a) and fails


def raise_value_error(message: str) -> None:
    raise ValueError(message)


def raise_unpicklable() -> None:
    raise Unpicklable(1, 2)
