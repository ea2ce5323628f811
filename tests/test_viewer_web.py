"""The web viewer (`filings serve`) over a real warehouse: routes, citations that open their page with the
span marked, the API's JSON equal to the CLI's, and every route refusing or escaping hostile input.

Expected figures come from the documents: 金花股份 2025 Q3 revenue 142,615,399.97 yuan is printed on page 1
of its report; Apple's FY2024 total net sales are $391,035 million (SEC companyfacts), shown as 391,035 in
the 10-K's income statement."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pypdfium2 as pdfium
import pytest
from PIL import Image
from starlette.testclient import TestClient

from filings.web.app import create_app
from filings.web.guard import MAX_QUERY_CHARS, MAX_QUERY_STRING_BYTES
from viewer_store import AMCOR_RELEASE, build_store, require_corpus
from warehouse import store

REPO = Path(__file__).resolve().parents[1]
FILINGS = [sys.executable, "-m", "filings.cli"]


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return build_store(tmp_path_factory)


@pytest.fixture(scope="module")
def client(home):
    with TestClient(create_app(home), follow_redirects=False) as c:
        yield c


@pytest.fixture(scope="module")
def ids(home) -> dict[str, str]:
    con = store.connect(home, read_only=True)
    try:
        return dict(con.execute("SELECT doc_name, document_id FROM documents").fetchall())
    finally:
        con.close()


def _page_text(home: Path, document_id: str, page: int) -> str:
    con = store.connect(home, read_only=True)
    try:
        return con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [document_id, page]).fetchone()[0]
    finally:
        con.close()


def _links(html: str, cls: str = "citation") -> list[str]:
    return [unescape(h) for h in re.findall(rf'<a class="{cls}" href="([^"]+)"', html)]


def _marked(html: str) -> list[str]:
    return [unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r'<mark class="hl"[^>]*>(.*?)</mark>', html, re.S)]


# ------------------------------------------------------------------------------------------ pages
def test_start_page_lists_companies_and_ask_box(client):
    r = client.get("/")
    assert r.status_code == 200 and 'name="q"' in r.text
    for code in ("AAPL", "600080", "AMCR"):
        assert code in r.text


def test_metric_answer_cites_the_printed_figure_on_its_pdf_page(client, home, ids):
    r = client.get("/ask", params={"q": "金花股份2025年第三季度营业收入"})
    assert r.status_code == 200 and "answered" in r.text
    assert "142,615,399.97" in r.text and "CNY" in r.text and "CAS" in r.text  # value, currency, standard
    links = _links(r.text)
    assert links, "no citation"
    url = urlsplit(links[0])
    assert url.path == f"/doc/{ids['600080_jinhuagufen_2025_q3']}/page/1"
    spans = [tuple(map(int, s.split("-"))) for s in parse_qs(url.query)["s"]]
    text = _page_text(home, ids["600080_jinhuagufen_2025_q3"], 1)
    assert [text[a:b] for a, b in spans] == ["营业收入", "142,615,399.97"]
    page = client.get(links[0])
    assert page.status_code == 200
    assert _marked(page.text) == ["营业收入", "142,615,399.97"]
    boxes = re.findall(r'class="box hl"[^>]*style="left:([\d.]+)%;top:([\d.]+)%;width:([\d.]+)%;height:([\d.]+)%"',
                       page.text)
    assert len(boxes) == 2  # label and value, one line each
    # the value's box sits to the right of the label's box, on the same row
    (l1, t1, w1, h1), (l2, t2, w2, h2) = [tuple(map(float, b)) for b in boxes]
    assert l2 > l1 + w1 and abs(t1 - t2) < h1


def test_xbrl_fact_citation_opens_the_ixbrl_page_with_the_fact_marked(client, ids):
    r = client.get("/ask", params={"q": "What was Apple's revenue in fiscal 2024?"})
    assert r.status_code == 200 and "391,035,000,000" in r.text and "USD" in r.text and "US_GAAP" in r.text
    link = _links(r.text)[0]
    assert link.startswith(f"/doc/{ids['aapl-20240928']}/fact?id=")
    hop = client.get(link)
    assert hop.status_code == 302
    target = hop.headers["location"]
    page = client.get(target)
    assert page.status_code == 200
    marked = re.findall(r'<span id="fact-[^"]+" class="ixf hl">([^<]+)</span>', page.text)
    assert marked == ["391,035"]
    assert "Total net sales" in page.text and "CONSOLIDATED STATEMENTS OF OPERATIONS" in page.text.upper()
    assert 'id="prev"' in page.text and 'id="next"' in page.text
    assert "Item 8" in page.text  # the document's sections, with the current one


def test_narrative_answer_passages_open_with_the_quote_marked(client, home, ids):
    r = client.get("/ask", params={"q": "Amcor share repurchases"})
    assert r.status_code == 200
    passages = re.findall(r'<blockquote class="passage">\s*(.*?)\s*<sup', r.text, re.S)
    links = _links(r.text)
    assert passages and links
    first = urlsplit(links[0])
    document_id, page_no = re.fullmatch(r"/doc/([0-9a-f]{64})/page/(\d+)", first.path).groups()
    assert document_id == ids["AMCOR_2023Q4_EARNINGS"]
    a, b = map(int, parse_qs(first.query)["s"][0].split("-"))
    quote = _page_text(home, document_id, int(page_no))[a:b]
    assert quote == unescape(passages[0])  # the cited span is the quoted passage
    page = client.get(links[0])
    assert "".join(_marked(page.text)) == quote
    assert page.text.count('class="box hl"') >= 1 and 'id="hl"' in page.text


def test_page_image_is_the_pdf_page_and_is_cached(client, home, ids):
    document_id = ids["AMCOR_2023Q4_EARNINGS"]
    r = client.get(f"/doc/{document_id}/page/2.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    image = Image.open(__import__("io").BytesIO(r.content))
    pdf = pdfium.PdfDocument(str(require_corpus(*AMCOR_RELEASE)))
    width, height = pdf[1].get_size()
    assert abs(image.width / image.height - width / height) < 0.01
    cached = list((home / "viewer-cache").rglob("p2.png"))
    assert len(cached) == 1 and cached[0].read_bytes() == r.content
    assert client.get(f"/doc/{document_id}/page/2.png").content == r.content
    assert client.get(f"/doc/{ids['aapl-20240928']}/page/2.png").status_code == 404  # iXBRL: no image


def test_company_page_series_with_currency_and_sources(client):
    r = client.get("/company/600080")
    assert r.status_code == 200
    assert "<svg" in r.text and "revenue" in r.text and "CNY" in r.text
    assert "142,615,399.97" in r.text  # the Q3 value, exact
    assert client.get("/company/2359.HK").status_code in (200, 404)
    assert client.get("/company/NOSUCHCO").status_code == 404
    reported = client.get("/company/600080", params={"basis": "as_reported"})
    assert reported.status_code == 200 and "142,615,399.97" in reported.text and "as first reported" in reported.text
    assert client.get("/company/600080", params={"basis": "guess"}).status_code == 400


def test_search_hits_link_to_their_page_and_filters_are_links(client):
    r = client.get("/search", params={"q": "Amcor volumes"})
    assert r.status_code == 200
    assert _links(r.text), "no hits"
    assert re.search(r'href="/search\?q=Amcor\+volumes[^"]*(year|section|doc)=', r.text)


def test_api_returns_exactly_the_cli_json(client, home):
    questions = ["金花股份2025年第三季度营业收入", "Amcor share repurchases"]
    client.app.state.viewer.close()  # the CLI process opens the same search index
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for q in questions:
        cli = subprocess.run([*FILINGS, "ask", q, "--json", "--home", str(home)], capture_output=True, text=True,
                             env=env, cwd=REPO, timeout=300)
        assert cli.returncode == 0, cli.stderr
        expected = json.loads(cli.stdout)
        client.app.state.viewer.close()
        assert client.get("/api/ask", params={"q": q}).json() == expected
        client.app.state.viewer.close()
    cli = subprocess.run([*FILINGS, "search", "Amcor volumes", "--json", "--home", str(home)], capture_output=True,
                         text=True, env=env, cwd=REPO, timeout=300)
    assert cli.returncode == 0, cli.stderr
    assert client.get("/api/search", params={"q": "Amcor volumes"}).json() == json.loads(cli.stdout)
    client.app.state.viewer.close()


def test_api_values_stay_exact_strings(client):
    data = client.get("/api/ask", params={"q": "What was Apple's revenue in fiscal 2024?"}).json()
    assert data["status"] == "answered"
    assert Decimal(data["rows"][0]["value"]) == Decimal("391035000000")


# --------------------------------------------------------------------------------------- security
def test_document_ids_are_looked_up_never_paths(client, ids):
    good = ids["aapl-20240928"]
    for bad in ("..", "%2E%2E", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", good[:-1] + "g", good.upper(),
                "' OR 1=1 --", "1;DROP TABLE documents", "%00", good + "%2F..", "*"):
        for suffix in ("/page/1", "/page/1.png", "/fact?id=f-66"):
            r = client.get(f"/doc/{bad}{suffix}")
            assert r.status_code == 404, (bad, suffix, r.status_code)
            assert "/etc/passwd" not in r.text.replace("%2F", "/") or "root:" not in r.text
    for page in ("0", "60", "99999999999", "-1", "1.5", "..", "1%2F..%2F2"):
        assert client.get(f"/doc/{good}/page/{page}").status_code == 404, page
    assert client.get(f"/doc/{good}/fact", params={"id": "../../../etc/passwd"}).status_code == 404
    con_check = client.get("/api/search", params={"q": "x", "doc": "../../etc/passwd"})
    assert con_check.status_code == 400 and "unknown document" in con_check.json()["error"]
    assert client.get("/company/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get("/company/' OR '1'='1").status_code == 404
    # the tables are intact after the SQL-looking ids
    assert client.get(f"/doc/{good}/page/1").status_code == 200


def test_markup_in_questions_and_ids_is_escaped(client):
    attack = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    for path, params in (("/ask", {"q": attack}), ("/search", {"q": attack}),
                         ("/search", {"q": "x", "section": attack}), ("/company/" + attack, {}),
                         ("/doc/" + "a" * 64 + "/fact", {"id": attack})):
        r = client.get(path, params=params)
        assert "<script>alert(1)" not in r.text and "<img src=x" not in r.text, path
        assert "&lt;script&gt;" in r.text or r.status_code in (400, 404), path


def test_hostile_filing_markup_never_reaches_the_browser(client, ids):
    document_id = ids["zzq-20241231"]
    pages = [client.get(f"/doc/{document_id}/page/{n}").text for n in (1, 2)]
    both = "\n".join(pages).lower()
    for bad in ("<script", "onerror", "onclick", "onload", "onmouseover", "javascript:", "<iframe", "url(",
                "evil.example", "<img", "<link rel=\"stylesheet\" href=\"http"):
        assert bad not in both, bad
    assert "&lt;script&gt;alert(&#39;text&#39;)&lt;/script&gt;" in pages[0] or "&lt;script&gt;" in pages[0]
    assert "Second page" in pages[1] and "<b>bold</b>" in pages[1]
    transcript = client.get(f"/doc/{ids['ZZQ_2025_Q1']}/page/1").text
    assert "<script>alert" not in transcript and "&lt;script&gt;alert(" in transcript
    # a fact id with markup characters is found, marked and its element id made safe
    hop = client.get(f"/doc/{document_id}/fact", params={"id": 'rev">x'})
    assert hop.status_code == 302
    page = client.get(hop.headers["location"]).text
    assert re.findall(r'<span id="fact-rev__x" class="ixf hl">([^<]+)</span>', page) == ["4,321"]


def test_size_limits_and_bad_parameters(client, ids):
    long_q = "x" * (MAX_QUERY_CHARS + 1)
    assert client.get("/ask", params={"q": long_q}).status_code == 413
    r = client.get("/api/ask", params={"q": long_q})
    assert r.status_code == 413 and "too long" in r.json()["error"]
    assert client.get("/api/search", params={"q": long_q}).status_code == 413
    assert client.get("/ask?q=" + "y" * (MAX_QUERY_STRING_BYTES + 10)).status_code == 414
    assert client.get("/search", params={"q": "x", "year": "abc"}).status_code == 400
    assert client.get("/search", params={"q": "x", "k": "100000"}).status_code == 400
    page = f"/doc/{ids['AMCOR_2023Q4_EARNINGS']}/page/2"
    assert client.get(page, params={"s": "abc"}).status_code == 400
    assert client.get(page, params={"s": "9-3"}).status_code == 400
    assert client.get(page, params=[("s", "1-2")] * 25).status_code == 400
    assert client.get(page, params={"s": "5-99999"}).status_code == 200  # clipped to the page


def test_read_only_and_safe_headers(client, home):
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for path in ("/", "/ask", "/api/ask", "/api/search", "/doc/x/page/1"):
            assert client.request(method, path).status_code == 405, (method, path)
    r = client.get("/")
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    with TestClient(create_app(home, allowed_hosts=["127.0.0.1", "localhost"])) as local:
        assert local.get("/", headers={"host": "127.0.0.1:8765"}).status_code == 200
        assert local.get("/", headers={"host": "evil.example"}).status_code == 400  # DNS rebinding


def test_serve_refuses_a_missing_warehouse(tmp_path):
    r = subprocess.run([*FILINGS, "serve", "--home", str(tmp_path / "none")], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=120)
    assert r.returncode == 2 and "no warehouse" in r.stderr and "Traceback" not in r.stderr


def test_loopback_is_recognised():
    from filings.web.command import is_loopback

    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "192.168.1.20", "example.com", "::"))
