"""Real Chromium for the web pages: Debian's ``chromium`` driven by Playwright (no download).

Under ``CI=true`` a missing browser fails the test; elsewhere it skips.
"""

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.tables import REFERENCES

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def need_chromium():
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        message = "chromium is not installed (make tools installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@contextmanager
def chromium():
    need_chromium()
    if os.environ.get("CI") == "true":
        import playwright.sync_api as sync_api  # a test tool: missing fails in CI
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def own_pages(browser):
    """``browser`` for one test or one table: every page opened meanwhile is closed on the way
    out, as closing a browser of its own would (its sockets do not outlive its table). A
    module shares one launched Chromium so: a launch costs more CPU than most tests."""
    try:
        yield browser
    finally:
        for context in browser.contexts:
            context.close()


def masks(page):
    """A screenshot's options that paint over the TV's own address (its port changes from
    run to run) with a bar of the text's colour: a reference holds no port."""
    return {"mask": [page.locator("#hint-where")], "mask_color": "#ffe0b2"}


def same_screenshot(name: str, png: bytes, tolerance: float = 0.002) -> None:
    """``png`` matches the reference ``web-NAME.png`` but for ``tolerance`` of its pixels
    (font smoothing); COMPANION_UPDATE_REFERENCES=1 rewrites the references."""
    path = REFERENCES / f"web-{name}.png"
    if os.environ.get("COMPANION_UPDATE_REFERENCES") == "1":
        path.write_bytes(png)
    assert path.exists(), f"missing reference {path.name} (COMPANION_UPDATE_REFERENCES=1)"
    import io

    shot = Image.open(io.BytesIO(png)).convert("RGB")
    expected = Image.open(path).convert("RGB")
    assert shot.size == expected.size, f"{path.name}: size {shot.size} != {expected.size}"
    diff = ImageChops.difference(shot, expected).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = sum(diff.histogram()[255:]) / (shot.size[0] * shot.size[1])
    assert changed <= tolerance, f"{path.name}: {changed:.2%} of the pixels differ"
