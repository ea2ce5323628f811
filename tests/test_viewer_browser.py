"""A real headless Chromium (Debian's, driven by Playwright) against `filings serve`: open `/`, ask a
question, click the first citation, and find the highlight over the quoted text on the rendered PDF page.
The highlight's box is compared with the quote's character boxes as pdfium's own text search finds them
in the source PDF (independent of the viewer's page-text mapping). A screenshot is written as an artifact
($FILINGS_ARTIFACTS or the test's tmp dir)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pypdfium2 as pdfium
import pytest

from viewer_store import AMCOR_RELEASE, artifacts_dir, build_store, require_corpus
from warehouse import store

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("FILINGS_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUESTION = "How did Amcor describe volumes in the fourth quarter?"
TOLERANCE = 2.0  # CSS pixels a highlight may miss a character box by (rounding of percentages and pixels)


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser test must run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install -y chromium; .ci/run does this)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    home = build_store(tmp_path_factory)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(tmp_path_factory.getbasetemp() / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "filings.cli", "serve", "--home", str(home), "--port", str(port)],
                            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(base + "/style.css", timeout=5).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("filings serve did not start: " + (tmp_path_factory.getbasetemp() / "serve.log").read_text())
            time.sleep(0.5)
    yield base, home
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _quote_char_boxes(quote: str, page_index: int) -> list[tuple[float, float, float, float]]:
    """Boxes (left, top, right, bottom as fractions of the page) of the quote's words, found by pdfium's own
    text search on the source PDF page: the words of 5+ letters, each occurrence that lies on the page."""
    pdf = pdfium.PdfDocument(str(require_corpus(*AMCOR_RELEASE)))
    page = pdf[page_index]
    assert page.get_rotation() == 0
    width, height = page.get_size()
    text = page.get_textpage()
    words = [w for w in dict.fromkeys(re.findall(r"[A-Za-z]{5,}", quote))][:12]
    found = []
    for word in words:
        searcher = text.search(word, match_case=True, match_whole_word=True)
        occurrences = []
        while (hit := searcher.get_next()) is not None:
            start, count = hit
            boxes = [text.get_charbox(i, loose=True) for i in range(start, start + count)]
            occurrences.append([(b[0] / width, 1 - b[3] / height, b[2] / width, 1 - b[1] / height) for b in boxes])
        found.append(occurrences)
    pdf.close()
    return list(zip(words, found))


def test_ask_click_citation_highlight_over_the_quote(server, tmp_path):
    from playwright.sync_api import sync_playwright

    base, home = server
    profile = tmp_path / "profile"
    profile.mkdir()
    with sync_playwright() as p:
        try:
            context = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=FLAGS,
                                                           headless=True, viewport={"width": 1280, "height": 1000})
        except Exception as exc:  # the browser binary cannot start here
            _unavailable(f"Chromium did not start: {str(exc).splitlines()[0]}")
        try:
            page = context.new_page()
            page.goto(base + "/")
            page.fill("#ask-q", QUESTION)
            page.click("#ask-go")
            page.wait_for_selector("#citations a.citation")
            assert page.inner_text("#status") == "answered"
            first = page.locator("#citations a.citation").first
            href = first.get_attribute("href")
            first.click()
            page.wait_for_selector("#page-image")
            page.wait_for_function("document.getElementById('page-image').complete")
            image = page.locator("#page-image").bounding_box()
            boxes = [page.locator(".box.hl").nth(i).bounding_box() for i in range(page.locator(".box.hl").count())]
            shot = artifacts_dir(tmp_path) / "viewer_citation_highlight.png"
            page.locator("#hl").scroll_into_view_if_needed()
            page.screenshot(path=str(shot))
        finally:
            context.close()
    assert shot.exists() and shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")

    url = urlsplit(href)
    document_id, page_no = re.fullmatch(r"/doc/([0-9a-f]{64})/page/(\d+)", url.path).groups()
    a, b = map(int, parse_qs(url.query)["s"][0].split("-"))
    con = store.connect(home, read_only=True)
    try:
        text = con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?",
                           [document_id, int(page_no)]).fetchone()[0]
    finally:
        con.close()
    quote = text[a:b]
    assert boxes, "no highlight element on the page"

    def inside(char) -> bool:
        x0 = image["x"] + char[0] * image["width"]
        y0 = image["y"] + char[1] * image["height"]
        x1 = image["x"] + char[2] * image["width"]
        y1 = image["y"] + char[3] * image["height"]
        return any(x0 >= h["x"] - TOLERANCE and x1 <= h["x"] + h["width"] + TOLERANCE and
                   y0 >= h["y"] - TOLERANCE and y1 <= h["y"] + h["height"] + TOLERANCE for h in boxes)

    checked = 0
    for word, occurrences in _quote_char_boxes(quote, int(page_no) - 1):
        assert occurrences, f"{word!r} of the quote not found on the PDF page"
        # at least one occurrence of each word of the quote lies wholly under the highlight
        assert any(all(inside(c) for c in occ) for occ in occurrences), f"{word!r} is not under the highlight"
        checked += 1
    assert checked >= 3
    # and the highlight covers the quote, not the page: its height is a few lines
    top = min(h["y"] for h in boxes)
    bottom = max(h["y"] + h["height"] for h in boxes)
    lines = quote.count("\n") + 1
    assert bottom - top < image["height"] * 0.04 * (lines + 1)
