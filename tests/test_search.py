"""Narrative search end to end: real filings parsed into pages and sections, chunked, embedded with the
bundled models, indexed in embedded Qdrant, searched hybrid with filters named in the query."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import require_corpus
from filings import Filings
from schema.errors import FilingsError

DOCS = [
    ("us", "ixbrl", "aapl-10k-fy2024"),
    ("transcripts", "WMT_2025_Q2.txt"),
    ("transcripts", "KO_2021_Q4.json"),
    ("cn", "600080_jinhuagufen_2025_q3.pdf"),
    ("hk", "0860_apollofuture_2021_annual-mda-extract.pdf"),
]


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("search_home")
    with Filings(home) as f:
        report = f.ingest(*[require_corpus(*d) for d in DOCS])
        assert not report.failed, [r.reason for r in report.failed]
    return home


@pytest.fixture(scope="module")
def f(home):
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def _page(f, document_id, page):
    return f.con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [document_id, page]).fetchone()[0]


def test_hits_are_page_exact(f):
    for query in ["supply chain disruption", "pricing and inflation", "营业收入 风险", "electric vehicles"]:
        result = f.search(query, k=10, raw=True)
        assert result["hits"], query
        for h in result["hits"]:
            assert h["text"] in _page(f, h["document_id"], h["page"])


def test_filters_come_from_the_query(f):
    result = f.search("What risks does Apple describe about its supply chain?", k=10)
    assert result["filters_applied"]["company_id"] == ["apple"]
    assert "risk_factors" in result["filters_applied"]["section"]
    assert result["hits"] and all(h["company_id"] == "apple" and h["section"] == "risk_factors" for h in result["hits"])
    # Apple's Item 1A runs from physical page 7 to 19 of the 10-K (printed pages 5-17)
    assert all(7 <= h["page"] <= 19 for h in result["hits"])
    raw = f.search("What risks does Apple describe about its supply chain?", k=10, raw=True)
    assert raw["filters_applied"] == {}


def test_broad_queries_cover_many_companies(f):
    result = f.search("how did pricing and price increases affect sales", k=10, raw=True)
    companies = {h["company_id"] for h in result["hits"]}
    assert len(companies) >= 3, companies


def test_transcript_turns_are_citable(f):
    result = f.search("Coca-Cola pricing actions in the fourth quarter", k=5)
    assert result["hits"] and result["hits"][0]["company_id"] == "coca_cola"
    row = f.con.execute("SELECT form FROM documents WHERE document_id = ?", [result["hits"][0]["document_id"]]).fetchone()
    assert row[0] == "transcript"


def test_chinese_query_finds_the_a_share_report(f):
    result = f.search("金花股份 营业收入", k=5)
    assert result["filters_applied"]["company_id"] == ["jinhua"]
    assert result["hits"] and all(h["company_id"] == "jinhua" for h in result["hits"])


def test_narrative_answer_quotes_exact_text_with_citations(f):
    a = f.ask("What risk factors does Apple describe about its supply chain?")
    assert a.status == "answered" and a.route == "search"
    assert a.passages
    for p in a.passages:
        page = _page(f, p.source["document_id"], p.source["page"])
        assert p.text in page
        assert page[p.source["char_start"]:p.source["char_end"]] == p.text
    assert any("supplier" in p.text.lower() or "supply" in p.text.lower() for p in a.passages)


@pytest.mark.parametrize("question,title", [
    ("What is Apple's quick ratio at the end of fiscal 2024?", "CONSOLIDATED BALANCE SHEETS"),
    ("How much did Apple spend buying property and equipment in fiscal 2024, per its cash flow statement?",
     "CONSOLIDATED STATEMENTS OF CASH FLOWS"),
    ("What was Apple's fiscal 2024 operating margin?", "CONSOLIDATED STATEMENTS OF OPERATIONS"),
])
def test_a_question_about_a_statement_finds_its_page(f, question, title):
    # the question shares few words with the page; the statement it needs brings the page forward
    hits = f.search(question, k=5)["hits"]
    assert hits and hits[0]["company_id"] == "apple"
    heading = [line.strip() for line in _page(f, hits[0]["document_id"], hits[0]["page"]).split("\n")[:4]]
    assert title in heading, heading


def test_search_inside_one_document(f):
    hits = f.search("pricing and inflation", document="WMT_2025_Q2", k=5)["hits"]
    assert hits and {h["doc_name"] for h in hits} == {"WMT_2025_Q2"}
    with pytest.raises(FilingsError, match="unknown document"):
        f.search("pricing", document="NO_SUCH_DOC")


def test_company_without_documents_is_no_data(f):
    a = f.ask("What did Tesla say about tariffs?")  # Tesla is in the master, but nothing of it is indexed here
    assert a.status == "no_data" and a.reason


def test_reindex_never_re_embeds(home, f):
    f.close()  # one connection configuration per process: the read-only facade steps aside
    with Filings(home) as fx:
        before = fx.index.cache.count()
        assert fx.index_missing() == 0  # every document already has its units
        fx.ingest(*[require_corpus(*d) for d in DOCS])
        assert fx.index.cache.count() == before
        units = sum(fx.index.engine.count(name) for _m, name in fx.index.collections())
        assert fx.index_missing(rebuild=True) == len(DOCS)  # after a change of chunking or tokens
        assert sum(fx.index.engine.count(name) for _m, name in fx.index.collections()) == units
        assert fx.index.cache.count() == before


def test_search_cli_json_contract(home):
    res = subprocess.run([sys.executable, "-m", "filings.cli", "search", "Walmart pricing", "--json", "--k", "3",
                          "--home", str(home)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert set(data) == {"query", "filters_applied", "hits"}
    assert data["hits"]
    for h in data["hits"]:
        assert set(h) == {"document_id", "doc_name", "page", "section", "company_id", "stock_code", "fiscal_year",
                          "text", "score"}
        assert h["company_id"] == "walmart"


def test_filters_applied_are_the_filters_that_found_the_hits(f):
    # nothing is indexed for 2099: search widens to any year and says so, never claiming 2099
    result = f.search("pricing and inflation", company="WMT", year=2099, k=5)
    assert result["hits"] and all(h["company_id"] == "walmart" for h in result["hits"])
    assert result["filters_applied"] == {"company_id": ["walmart"]}


def test_ask_and_search_share_one_pipeline(f):
    # the search route quotes from what the one pipeline finds for the same plan (evidence: prose and calls only)
    from router.search import EVIDENCE
    from router.search_route import LOOK

    plan = f.plan("What did Walmart say about pricing in the earnings call?")
    # what the route asks for one company: LOOK x 8 passages, of which it quotes the 4 best-ranked and 4 more
    hits, applied = f.searcher.run(plan, EVIDENCE, k=8 * LOOK, per_company=None)
    answer = f.ask("What did Walmart say about pricing in the earnings call?")
    assert answer.status == "answered" and applied["kind"] == ["transcript"]
    quoted = [(p.source["document_id"], p.source["page"]) for p in answer.passages]
    found = [(h.payload["document_id"], h.payload["page"]) for h in hits]
    assert len(quoted) == 8 and set(quoted) <= set(found) and quoted[:4] == found[:4]
