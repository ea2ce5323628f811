"""Which passages an answer quotes (``router.search_route``): a one-company answer may look past its k best-ranked
passages for the ones whose sentences answer the question (``LOOK`` > 1); a "which companies" answer quotes each company by the
passage that names its whole topic. A generated call (written here) in a real keywords-only store."""

from __future__ import annotations

import json

import pytest

from filings import Filings
from router import search_route
from router.quotes import term_weights
from router.search import filters_for
from vectorstore.hybrid import diversify
from schema.models import CompanyRef

# the turns that repeat the question's words score best by keywords, and none says how much
TALK = ["Cloud revenue momentum was strong. Cloud revenue matters to us, and cloud revenue is our focus.",
        "We love cloud revenue. Customers drive cloud revenue and cloud revenue drives the plan.",
        "On cloud revenue: the cloud revenue pipeline and cloud revenue mix look healthy.",
        "Cloud revenue remains a priority; cloud revenue leadership is cloud revenue discipline.",
        "Our cloud revenue team built cloud revenue partnerships for cloud revenue expansion.",
        "Cloud revenue and cloud revenue again: cloud revenue is what investors ask about.",
        "Cloud revenue is broad based. Cloud revenue reaches every region and cloud revenue scales.",
        "Cloud revenue brand, cloud revenue trust and cloud revenue reliability stay high.",
        "Cloud revenue depends on capacity; cloud revenue needs power and cloud revenue needs chips.",
        "Cloud revenue came from startups and enterprises, and cloud revenue came from public sector."]
FIGURE = ("Turning to the segments. Retail was steady, advertising grew with new formats, and logistics costs "
          "eased through the quarter as our network matured. Cloud revenue grew 23% to $4.1 billion, ahead of "
          "our outlook, with backlog up in every region and new commitments from large customers.")


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    folder = tmp_path_factory.mktemp("quote_choice_docs")
    turns = [{"speaker": "Jane Roe", "speech": t} for t in TALK] + [{"speaker": "Jane Roe", "speech": FIGURE}]
    call = {"header_texts": ["Prepared Remarks:", "Call participants:"],
            "prepared_remarks": [{"speaker": "Operator", "speech": "Welcome to the Coca-Cola Company call."}, *turns],
            "q_and_a": [], "participants": ["Jane Roe--Chief Executive Officer"]}
    (folder / "KO_2030_Q4.json").write_text(json.dumps(call), encoding="utf-8")
    home = tmp_path_factory.mktemp("quote_choice")
    with Filings(home) as f:
        report = f.ingest(folder, dense=False)
        assert not report.failed, [r.reason for r in report.failed]
    return home


def _quoted(home, look: int, monkeypatch) -> list[str]:
    monkeypatch.setattr(search_route, "LOOK", look)
    with Filings(home, read_only=True) as f:
        (company,) = [c for (c,) in f.con.execute("SELECT DISTINCT company_id FROM documents").fetchall()]
        plan = f.router.planner.plan("How much did cloud revenue grow?")
        plan = plan.model_copy(update={"companies": [CompanyRef(company_id=company, matched="it", via="name")]})
        return [p.text for p in f.router.searcher(plan, filters_for(plan))]


def test_a_look_past_the_best_ranked_quotes_the_passage_that_answers(home, monkeypatch):
    # LOOK 2 (measured, not the default: see search_route.LOOK) looks at 16 and quotes the passage that answers
    quoted = _quoted(home, 2, monkeypatch)
    assert len(quoted) == 8
    assert any("grew 23% to $4.1 billion" in q for q in quoted)
    # the k best-ranked passages alone leave it out: the look past them is what finds it
    assert not any("grew 23%" in q for q in _quoted(home, 1, monkeypatch))


def test_a_broad_answer_quotes_the_passage_that_names_the_whole_topic():
    from router.quotes import term_weights, topic_share

    passages = ["Our supply chain team opened two hubs.", "Supply chain disruptions raised freight costs.",
                "Demand was strong."]
    topic = term_weights("supply chain disruptions", passages)
    shares = [topic_share(p, topic) for p in passages]
    assert shares[1] == 1.0 and 0 < shares[0] < 1.0 and shares[2] == 0.0


# A call whose one sentence on the topic sits in a long prepared remark, below a short turn that repeats part of it
FILLER = ("Comparable sales rose in every region, our stores team opened new formats, digital traffic grew, the "
          "loyalty program added members, and our merchants kept prices sharp for customers through the season. ")
REMARK = FILLER * 3 + ("Our associates kept serving customers while navigating the ongoing pandemic, industrywide "
                       "supply chain disruptions, inflation, and a tight labor market. ") + FILLER * 3
SHORT = "Supply chain, supply chain: our supply chain team opened two supply chain hubs."


@pytest.fixture(scope="module")
def broad_home(tmp_path_factory):
    folder = tmp_path_factory.mktemp("broad_docs")
    for name, turns in (("MMM_2030_Q4.json", [SHORT, REMARK]),
                        ("KO_2030_Q4.json", ["Freight costs rose on supply chain disruptions in the quarter."])):
        call = {"header_texts": ["Prepared Remarks:"], "q_and_a": [], "participants": ["Jane Roe--Chief Executive Officer"],
                "prepared_remarks": [{"speaker": "Jane Roe", "speech": t} for t in turns]}
        (folder / name).write_text(json.dumps(call), encoding="utf-8")
    home = tmp_path_factory.mktemp("broad")
    with Filings(home) as f:
        report = f.ingest(folder, dense=False)
        assert not report.failed, [r.reason for r in report.failed]
    return home


def test_a_broad_answer_finds_a_companys_passage_on_the_topic_by_its_keywords(broad_home):
    # the ranking (dense and keywords fused in a full store) put each call's short turn first: here that ranked
    # list is the store's own units for "supply chain", one per call
    with Filings(broad_home, read_only=True) as f:
        searcher = f.router.searcher
        ranked = diversify(searcher.pipeline.keyword_hits("supply chain", {"kind": ["transcript"]}, k=50), per_company=1)
        assert {h.payload["doc_name"]: h.payload["text"].split(": ", 1)[-1] for h in ranked}["MMM_2030_Q4"] == SHORT
        query = "supply chain disruptions"
        weights = term_weights(query, [h.payload["text"] for h in ranked])
        quoted = {h.payload["doc_name"]: h.payload["text"] for h in searcher._broad(ranked, query, weights, {})}
    # the remark below the short turn is read by the question's keywords, and names the whole topic
    assert "industrywide supply chain disruptions" in quoted["MMM_2030_Q4"]
    assert "Freight costs rose on supply chain disruptions" in quoted["KO_2030_Q4"]
