"""CPU-bound work in child processes that can be killed, under a time budget and a memory cap.

A thread cannot be stopped: work abandoned past its budget keeps a core busy and holds the
GIL that the event loop (health, every tenant's requests) needs. A `ChildPool` runs each
call in a child process instead:

- past the budget the child is killed (SIGKILL) and the call raises `ChildTimeout`; the
  next call gets a new child;
- a child that dies (a segfault, the memory cap reached inside C code, the OOM killer)
  fails only its own call, with `ChildDied`;
- what the work raises comes back as itself (`MemoryError` at the address-space cap
  too), what it returns comes back pickled;
- `close()` kills every child. Children ignore Ctrl-C and SIGTERM (stopping is the
  server's to decide); on Linux they are killed when the thread that started them ends
  (the server's event loop), a child whose parent is gone exits at the pipe's end of
  file, and a CPU limit a little past the budget ends any call nobody is waiting for.

A child is a plain `python -c` process speaking length-prefixed pickles over its stdin
and stdout, not a multiprocessing one: multiprocessing imports the parent's `__main__`
again in every child, and the `memwarden` command's main imports the whole application
(seconds, ~300 MB of address space). It imports the `preload` modules once, then serves
calls until it has served `max_calls` or raised `MemoryError`.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import json
import os
import pickle
import resource
import signal
import struct
import sys
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import structlog

T = TypeVar("T")
log = structlog.get_logger(__name__)

_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_HEADER = struct.Struct("!Q")
_BOOT = "from memwarden.child_pool import child_main; child_main()"
START_TIMEOUT_S = 120.0  # importing the preload modules on a machine under load
CPU_MARGIN_S = 5  # the child's own CPU limit: its budget and this, in case nobody kills it
_OFF_LOOP_BYTES = 1 << 20  # (un)pickle payloads larger than this in a thread


class ChildTimeout(Exception):
    """The work ran past its budget; its child was killed."""

    def __init__(self, budget_s: float) -> None:
        super().__init__(f"the work took longer than {budget_s:g} s")
        self.budget_s = budget_s


class ChildDied(Exception):
    """The child running the work died before answering."""

    def __init__(self, exitcode: int | None) -> None:
        super().__init__(f"the child process died ({describe_exit(exitcode)})")
        self.exitcode = exitcode


class ChildPoolClosed(Exception):
    """The pool was closed while the work ran (the server is stopping)."""


def describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


# ---- the child's side -------------------------------------------------------------------


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts: list[bytes] = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def _write_frame(fd: int, payload: bytes) -> None:
    view = memoryview(_HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view) :]


def _portable(exc: BaseException) -> BaseException:
    """The exception itself when it survives pickling, else a RuntimeError naming it."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _limit_cpu(seconds: float) -> None:
    used = sum(os.times()[:2])
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(used + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def child_main() -> None:
    """A child's life (`python -c`): set itself up from argv, say ready, answer calls until
    its stdin ends."""
    setup = json.loads(sys.argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != setup["parent"]:  # the parent died before the line above
        return
    # The pipes are the protocol: stray prints go to stderr, nothing reads the terminal.
    rfd, wfd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    for name in setup["preload"]:
        __import__(name)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash leaves no core file
    if setup["memory_bytes"]:
        cap = setup["memory_bytes"]
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    _write_frame(wfd, pickle.dumps(("ready", os.getpid())))
    served = 0
    while served < setup["max_calls"]:
        header = _read_exactly(rfd, _HEADER.size)
        if header is None:
            return
        body = _read_exactly(rfd, _HEADER.unpack(header)[0])
        if body is None:
            return
        fn, args, cpu_s = pickle.loads(body)
        _limit_cpu(cpu_s)
        reply: tuple[bool, Any] | None
        try:
            reply = (True, fn(*args))
        except MemoryError:
            reply = None  # built below, once the traceback (and what it holds) is freed
        except BaseException as exc:
            reply = (False, _portable(exc.with_traceback(None)))
        del fn, args, body
        if reply is None:
            reply = (False, MemoryError("the memory cap was reached"))
        try:
            payload = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:  # a result too large to pickle under the cap
            payload = pickle.dumps((False, MemoryError()))
        _write_frame(wfd, payload)
        served += 1
        if not reply[0] and isinstance(reply[1], MemoryError):
            return  # a heap that ran out is not trusted with the next call


# ---- the pool's side --------------------------------------------------------------------


@dataclass(eq=False)
class _Child:
    process: asyncio.subprocess.Process
    loop: asyncio.AbstractEventLoop
    calls: int = 0
    closed_by_pool: bool = False

    @property
    def pid(self) -> int:
        return self.process.pid

    def usable(self) -> bool:
        return (
            self.process.returncode is None
            and self.loop is asyncio.get_running_loop()
            and not self.closed_by_pool
        )

    def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)

    async def send(self, payload: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(_HEADER.pack(len(payload)))
        stdin.write(payload)
        await stdin.drain()

    async def receive(self) -> bytes:
        stdout = self.process.stdout
        assert stdout is not None
        header = await stdout.readexactly(_HEADER.size)
        return await stdout.readexactly(_HEADER.unpack(header)[0])

    async def finish(self) -> int | None:
        """Wait for a child that was killed or told to stop, and release its pipes."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            return None
        return self.process.returncode


async def _dumps(value: Any, size_hint: int) -> bytes:
    if size_hint > _OFF_LOOP_BYTES:
        return await asyncio.to_thread(pickle.dumps, value, pickle.HIGHEST_PROTOCOL)
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


async def _loads(payload: bytes) -> Any:
    if len(payload) > _OFF_LOOP_BYTES:
        return await asyncio.to_thread(pickle.loads, payload)
    return pickle.loads(payload)


def _size_hint(args: tuple[Any, ...]) -> int:
    return sum(len(a) for a in args if isinstance(a, str | bytes))


_POOLS: weakref.WeakSet[ChildPool] = weakref.WeakSet()


class ChildPool:
    """At most `size` children at once; a call past that waits for one to be free (the
    wait does not count against its budget, nor does starting a child)."""

    def __init__(
        self,
        *,
        size: int = 4,
        memory_bytes: int | None = None,
        max_calls: int = 200,
        preload: Iterable[str] = (),
    ) -> None:
        self.size = size
        self.memory_bytes = memory_bytes
        self.max_calls = max_calls
        self.preload = list(preload)
        self._idle: list[_Child] = []
        self._busy: set[_Child] = set()
        self._dying: dict[_Child, asyncio.Task[Any]] = {}
        self._slots = asyncio.Semaphore(size)
        _POOLS.add(self)

    def pids(self) -> list[int]:
        """The children alive now, idle or running a call (safe from another thread)."""
        children = (*tuple(self._idle), *tuple(self._busy))
        return [c.pid for c in children if c.process.returncode is None]

    def busy_pids(self) -> list[int]:
        return [c.pid for c in tuple(self._busy) if c.process.returncode is None]

    async def _start(self) -> _Child:
        setup = {
            "parent": os.getpid(),
            "preload": self.preload,
            "memory_bytes": self.memory_bytes,
            "max_calls": self.max_calls,
        }
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _BOOT,
            json.dumps(setup),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        child = _Child(process, asyncio.get_running_loop())
        try:
            ready = await asyncio.wait_for(child.receive(), START_TIMEOUT_S)
            if pickle.loads(ready) != ("ready", process.pid):
                raise ChildDied(None)
        except BaseException as exc:
            child.kill()
            exitcode = await asyncio.shield(child.finish())
            if isinstance(exc, asyncio.IncompleteReadError | TimeoutError):
                raise ChildDied(exitcode) from None
            raise
        return child

    async def _acquire(self) -> _Child:
        while self._idle:
            child = self._idle.pop()
            if child.usable():
                return child
            child.kill()  # died while idle, or started by another event loop
            if child.loop is asyncio.get_running_loop():
                await child.finish()
        return await self._start()

    async def run(self, budget_s: float, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a child within `budget_s` seconds; `fn` and its arguments are
        pickled, so `fn` is a module-level function."""
        async with self._slots:
            child = await self._acquire()
            self._busy.add(child)
            try:
                payload = await _dumps((fn, args, budget_s + CPU_MARGIN_S), _size_hint(args))
                reply = await asyncio.wait_for(self._exchange(child, payload), budget_s)
            except TimeoutError:
                self._busy.discard(child)
                child.kill()
                await child.finish()
                log.warning("child_killed", pid=child.pid, budget_s=budget_s)
                raise ChildTimeout(budget_s) from None
            except (asyncio.IncompleteReadError, ConnectionError):  # the child is gone
                self._busy.discard(child)
                exitcode = await child.finish()
                if child.closed_by_pool:
                    raise ChildPoolClosed("the child pool was closed") from None
                log.warning("child_died", pid=child.pid, exit=describe_exit(exitcode))
                raise ChildDied(exitcode) from None
            except BaseException:  # cancelled: the work is abandoned with its child
                self._busy.discard(child)
                child.kill()
                self._bury(child)
                raise
            ok, value = reply
            await self._release(child, retire=not ok and isinstance(value, MemoryError))
            if not ok:
                raise value
            result: T = value
            return result

    async def _exchange(self, child: _Child, payload: bytes) -> tuple[bool, Any]:
        await child.send(payload)
        reply: tuple[bool, Any] = await _loads(await child.receive())
        return reply

    async def _release(self, child: _Child, *, retire: bool) -> None:
        self._busy.discard(child)
        child.calls += 1
        if retire or child.calls >= self.max_calls or child.closed_by_pool:
            await child.finish()  # the child has exited, or exits at its stdin's end
        else:
            self._idle.append(child)

    def _bury(self, child: _Child) -> None:
        """Wait for a killed child in the background (a cancelled call cannot wait)."""
        task = asyncio.get_running_loop().create_task(child.finish())
        self._dying[child] = task
        task.add_done_callback(lambda _: self._dying.pop(child, None))

    def kill_all(self) -> None:
        """Kill every child now, idle or running a call (a running call then raises
        `ChildPoolClosed`)."""
        for child in (*self._idle, *self._busy):
            child.closed_by_pool = True
            child.kill()

    async def close(self) -> None:
        """Kill every child and wait for them; the pool starts new ones if used again."""
        idle, busy = list(self._idle), list(self._busy)
        self._idle.clear()
        self.kill_all()
        loop = asyncio.get_running_loop()
        waits = [c.finish() for c in (*idle, *busy) if c.loop is loop]
        dying = [t for t in self._dying.values() if t.get_loop() is loop]
        await asyncio.gather(*waits, *dying)


def _kill_leftovers() -> None:
    """At interpreter exit, children of pools nobody closed are killed."""
    for pool in list(_POOLS):
        pool.kill_all()


atexit.register(_kill_leftovers)
