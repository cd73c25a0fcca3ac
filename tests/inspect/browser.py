"""A headless Chromium driven over the DevTools protocol on a pipe (no websocket needed).

Chromium started with ``--remote-debugging-pipe`` reads commands from file descriptor 3
and writes replies to descriptor 4, each a JSON text ended by a NUL byte.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--remote-debugging-pipe",
)


def chromium() -> str:
    """Return the browser's path; CI installs it through .ci/system-deps."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("no chromium on PATH: run .ci/system-deps (apt-get install chromium)")


class Browser:
    """One headless browser with one page, and the few commands the tests need."""

    def __init__(self, profile: Path, timeout: float = 30.0) -> None:
        self.timeout = timeout
        to_r, self._to_w = os.pipe()
        self._from_r, from_w = os.pipe()

        def wire() -> None:
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        self.process = subprocess.Popen(
            [chromium(), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4),
        )
        os.close(to_r)
        os.close(from_w)
        self._buffer = b""
        self._id = 0
        self.session = ""
        target = self._page_target()
        attached = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})
        self.session = attached["sessionId"]

    def _page_target(self) -> str:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            targets = self.call("Target.getTargets")["targetInfos"]
            pages = [t["targetId"] for t in targets if t["type"] == "page"]
            if pages:
                return str(pages[0])
            time.sleep(0.05)
        raise TimeoutError("the browser opened no page")

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one command and return its result."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_w, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return dict(reply.get("result", {}))

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_r], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("the browser did not answer")
            chunk = os.read(self._from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return dict(json.loads(raw))

    def evaluate(self, expression: str) -> Any:
        """Run JavaScript in the page and return its value."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str, ready: str) -> None:
        """Load ``url`` and wait until the JavaScript ``ready`` is true."""
        self.call("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.timeout
        while not self.evaluate(f"document.readyState === 'complete' && !!({ready})"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} never became ready")
            time.sleep(0.05)

    def press(self, key: str, code: int) -> None:
        """Press and release one key, as a person at the keyboard would."""
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code},
            )

    def close(self) -> None:
        """Close the browser and its pipes."""
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_w)
        os.close(self._from_r)
