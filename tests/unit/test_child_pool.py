"""The child pool runs work in processes it can kill: a budget, a memory cap, crashes that
fail one call only, and no child left behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psutil
import pytest

from memwarden.child_pool import ChildDied, ChildPool, ChildPoolClosed, ChildTimeout
from tests.support import child_work
from tests.support.child_work import busy_pid, gone

T = TypeVar("T")


def run(scenario: Callable[[ChildPool], Awaitable[T]], **options: Any) -> T:
    async def main() -> T:
        pool = ChildPool(**options)
        try:
            return await scenario(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


def test_work_returns_its_value_and_the_child_serves_the_next_call_too() -> None:
    async def scenario(pool: ChildPool) -> tuple[Any, int, int]:
        value = await pool.run(10, child_work.echo, {"text": "é" * 3})
        return value, await pool.run(10, child_work.pid), await pool.run(10, child_work.pid)

    value, first, second = run(scenario)
    assert value == {"text": "ééé"}
    assert first == second != os.getpid()


def test_work_past_its_budget_is_killed_and_its_process_no_longer_exists() -> None:
    async def scenario(pool: ChildPool) -> tuple[int, float, int]:
        await pool.run(30, child_work.echo, None)  # the child is started outside the budget
        started = time.monotonic()
        work = asyncio.create_task(pool.run(0.5, child_work.spin, 60))
        pid = await busy_pid(pool)
        with pytest.raises(ChildTimeout):
            await work
        elapsed = time.monotonic() - started
        return pid, elapsed, await pool.run(30, child_work.pid)

    pid, elapsed, next_pid = run(scenario)
    assert elapsed < 5
    assert not psutil.pid_exists(pid)  # killed and reaped: no core left burning
    assert next_pid != pid


def test_a_child_that_dies_fails_only_its_call_and_the_next_call_gets_a_new_child() -> None:
    async def scenario(pool: ChildPool) -> tuple[int, ChildDied, Any]:
        pid = await pool.run(30, child_work.pid)
        with pytest.raises(ChildDied) as died:
            await pool.run(30, child_work.crash)
        return pid, died.value, await pool.run(30, child_work.echo, "next")

    pid, died, after = run(scenario)
    assert died.exitcode == -signal.SIGSEGV
    assert "SIGSEGV" in str(died)
    assert not psutil.pid_exists(pid)
    assert after == "next"


def test_what_the_work_raises_comes_back_as_itself_and_the_child_is_kept() -> None:
    async def scenario(pool: ChildPool) -> tuple[int, int]:
        pid = await pool.run(30, child_work.pid)
        with pytest.raises(ValueError, match="bad input"):
            await pool.run(30, child_work.raise_value_error, "bad input")
        with pytest.raises(RuntimeError, match="Unpicklable"):
            await pool.run(30, child_work.raise_unpicklable)
        return pid, await pool.run(30, child_work.pid)

    before, after = run(scenario)
    assert before == after


def test_an_allocation_past_the_memory_cap_is_a_memory_error_and_retires_the_child() -> None:
    async def scenario(pool: ChildPool) -> tuple[int, int, int]:
        pid = await pool.run(30, child_work.pid)
        small = await pool.run(30, child_work.allocate, 64 << 20)
        with pytest.raises(MemoryError):
            await pool.run(30, child_work.allocate, 2 << 30)
        return pid, small, await pool.run(30, child_work.pid)

    pid, small, next_pid = run(scenario, memory_bytes=512 << 20)
    assert small == 64 << 20
    assert next_pid != pid
    assert gone(pid)


def test_a_cancelled_call_kills_its_child() -> None:
    async def scenario(pool: ChildPool) -> int:
        work = asyncio.create_task(pool.run(60, child_work.spin, 60))
        pid = await busy_pid(pool)
        work.cancel()
        with pytest.raises(asyncio.CancelledError):
            await work
        return pid

    assert gone(run(scenario))


def test_closing_the_pool_kills_its_idle_and_running_children() -> None:
    async def scenario(pool: ChildPool) -> tuple[int, int]:
        first = asyncio.create_task(pool.run(60, child_work.pid))
        second = asyncio.create_task(pool.run(60, child_work.spin, 0.5))
        idle = await first  # two children: one idle now, one spinning
        await second
        running = asyncio.create_task(pool.run(60, child_work.spin, 60))
        busy = await busy_pid(pool)
        await pool.close()
        with pytest.raises(ChildPoolClosed):
            await running
        assert pool.pids() == []
        return idle, busy

    idle, busy = run(scenario)
    assert idle != busy
    assert not psutil.pid_exists(idle) and not psutil.pid_exists(busy)


def test_children_ignore_sigint_and_sigterm_which_are_the_servers_to_handle() -> None:
    async def scenario(pool: ChildPool) -> tuple[int, int]:
        pid = await pool.run(30, child_work.pid)
        os.kill(pid, signal.SIGINT)
        os.kill(pid, signal.SIGTERM)
        await asyncio.sleep(0.3)
        return pid, await pool.run(30, child_work.pid)

    before, after = run(scenario)
    assert before == after


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal is Linux's")
def test_a_child_dies_with_its_parent_even_in_the_middle_of_a_call() -> None:
    parent = textwrap.dedent(
        """
        import asyncio, os, signal, sys
        from memwarden.child_pool import ChildPool
        from tests.support import child_work

        async def main():
            pool = ChildPool()
            work = asyncio.create_task(pool.run(120, child_work.spin, 120))
            while not pool.busy_pids():
                await asyncio.sleep(0.01)
            print(pool.busy_pids()[0], flush=True)
            await asyncio.sleep(0.2)
            os.kill(os.getpid(), signal.SIGKILL)  # no cleanup of any kind

        asyncio.run(main())
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.run(
        [sys.executable, "-c", parent], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    child = int(proc.stdout.split()[0])
    assert gone(child), "the child outlived its killed parent"
