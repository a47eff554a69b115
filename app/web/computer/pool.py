"""The computer player's worker processes, and the fair queue in front of them.

The workers end with the server however it ends: each asks Linux to kill it when its
parent dies (PR_SET_PDEATHSIG), and a thread in each also watches its parent (for a
parent that died before the request took, and on systems without prctl).
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0
# Searches run at a lower priority than the server: on a busy machine a move waits for
# no search (a search waits a little longer instead).
WORKER_NICENESS = 10


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(0)


def start_worker(parent: int) -> None:
    """A worker's initializer: a lower priority, and an end when the process `parent` ends."""
    os.nice(WORKER_NICENESS)
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)  # the parent died before the death signal was asked for
    threading.Thread(target=_watch, args=(parent,), name="watch-parent", daemon=True).start()


class Busy(Exception):
    """The pool cannot take the job now (its queue is full, or a worker died)."""


class FairGate:
    """At most `slots` jobs run at once; the others wait in the order they came.

    Each player has at most one job running or waiting (app/store/limits.py), so the
    order they came is a fair turn across players. Safe across event loops and threads
    (the test client runs one loop per client)."""

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    async def enter(self) -> None:
        """Wait for a free slot (cancellable)."""
        with self._lock:
            if self._free > 0 and not self._waiters:
                self._free -= 1
                return
            loop = asyncio.get_running_loop()
            entry = (loop, loop.create_future())
            self._waiters.append(entry)
        try:
            await entry[1]
        except asyncio.CancelledError:
            with self._lock:
                if entry in self._waiters:
                    self._waiters.remove(entry)
                    raise
            if entry[1].done() and not entry[1].cancelled():
                self.leave()  # the slot came just as the wait was cancelled
            raise

    def leave(self) -> None:
        """Give the slot to the first waiter, or back to the gate."""
        with self._lock:
            if self._waiters:
                loop, future = self._waiters.popleft()
                loop.call_soon_threadsafe(self._hand_over, future)
                return
            self._free += 1

    def _hand_over(self, future: asyncio.Future[None]) -> None:
        if future.cancelled():
            self.leave()
        else:
            future.set_result(None)


class WorkerPool:
    """`workers` spawned solver processes, started by the first job."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.gate = FairGate(self.workers)
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        # Jobs are handed over (and so the workers started) from this one thread, which
        # lives as long as the process: Linux sends the death signal when the *thread*
        # that started a worker ends, and a request's thread or loop may end before.
        self._handover = ThreadPoolExecutor(1, thread_name_prefix="solver-handover")

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                # spawn: a fresh interpreter, not a fork of a process with threads and sockets.
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_worker,
                    initargs=(os.getpid(),),
                )
            return self._executor

    async def submit(self, job: Callable[..., T], *args: Any) -> Future[T]:
        """Hand `job(*args)` to a worker once a slot is free (the caller waited for it in
        `gate`). Raises Busy when the workers are lost."""
        try:
            handed: Future[Future[T]] = self._handover.submit(self._submit, job, *args)
            return await asyncio.wrap_future(handed)
        except (BrokenProcessPool, RuntimeError) as error:
            self._drop(error)
            raise Busy(str(error)) from error

    async def result(self, future: Future[T]) -> T:
        """The job's answer. Raises Busy when its worker died."""
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as error:
            self._drop(error)
            raise Busy(str(error)) from error

    def _submit(self, job: Callable[..., T], *args: Any) -> Future[T]:
        return self._pool().submit(job, *args)

    def _drop(self, error: BaseException) -> None:
        """Forget a broken pool; the next job starts a new one."""
        log.error("solver worker lost (%s); new ones start with the next job", error)
        self.shutdown()

    def processes(self) -> list[int]:
        """The worker processes' ids (for tests and metrics)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return list(processes)

    def shutdown(self) -> None:
        """End the workers now, searches in hand included (repeatable; they restart on use)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is None:
            return
        running = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in running:
            process.kill()  # a search may run for its whole budget otherwise
