"""Browser tests: Playwright driving Chromium against a live server on the embedded
database with the scripted model.

Chromium is looked for in MEMWARDEN_CHROMIUM, then on PATH (`chromium`,
`chromium-browser`, `google-chrome`), then Playwright's own download. Without one (or
without the playwright package) these tests skip with the reason; with
MEMWARDEN_REQUIRE_BROWSER=1 (set by .ci/run) they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.dashboard import judged_context
from tests.support.live import LiveServer
from tests.support.replies import PASS_VERDICT, rows_reply
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

REQUIRED = os.environ.get("MEMWARDEN_REQUIRE_BROWSER") == "1"
SCREENSHOTS = Path(os.environ.get("MEMWARDEN_TEST_OUTPUT", "test-output")) / "screenshots"


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"browser tests are required here (MEMWARDEN_REQUIRE_BROWSER=1): {reason}")
    pytest.skip(reason)


def chromium_path() -> str | None:
    given = os.environ.get("MEMWARDEN_CHROMIUM")
    if given:
        return given
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. Not per session: while Playwright's sync API is
    active it runs an event loop in the main thread, and tests collected after this
    folder call asyncio.run()."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as pw:
        path = chromium_path()
        try:
            launched = pw.chromium.launch(
                executable_path=path, args=["--no-sandbox", "--disable-dev-shm-usage"]
            )
        except Error as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            _unavailable(f"no Chromium found (install the chromium package): {first}")
        yield launched
        launched.close()


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """A server whose judge is the scripted model: passes unless a test scripts otherwise."""
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)}),
    )
    return live_with(**scripted_models(scripted, model_judge="openai:judge-model"))


@pytest.fixture
def judged(admin: httpx.Client) -> Callable[..., dict[str, Any]]:
    return lambda grants=None, **judge: judged_context(admin, grants, **judge)


class Dashboard:
    """One browser page on the live server, with sign-in and screenshot helpers."""

    def __init__(self, page: Any, live: LiveServer) -> None:
        self.page = page
        self.live = live

    def open(self, path: str) -> Any:
        return self.page.goto(self.live.url + path)

    def sign_in(self, credential: str) -> None:
        self.open("/ui/sign-in")
        self.page.get_by_label("Context key or admin token").fill(credential)
        self.page.get_by_role("button", name="Sign in").click()

    def shot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def dashboard(browser: Any, live: LiveServer) -> Iterator[Dashboard]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield Dashboard(page, live)
    context.close()
