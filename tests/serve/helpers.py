"""A preview server run as ``papershelf build --serve`` in a subprocess: a free port, a page
fetched, a condition waited for (polling, with a deadline), the lines the server printed."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except OSError as exc:
            last = exc
        time.sleep(0.05)
    raise AssertionError(f"timed out; last error: {last}")


class Output:
    """Collects a process's output lines in a thread, so a test can wait for a line."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line)

    def count(self, needle: str) -> int:
        return sum(needle in line for line in list(self.lines))

    def text(self) -> str:
        self.thread.join(timeout=10)
        return "".join(self.lines)
