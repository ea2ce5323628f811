"""The labelled eval suite (router/eval_suite.jsonl, expected values read from the corpus documents) run
against a warehouse of the corpus; quality thresholds are enforced here so CI fails when they drop.

The store holds every US XBRL and companyfacts, A-share, HK and transcript file with its metrics; search units are built for
the documents the suite's narrative cases cite (plus every transcript, for "which companies" questions).
To keep CI inside its time budget the A-share collection is embedded with the English MiniLM model here
(the default is multilingual e5, five times slower on 2 cores); BM25 with jieba carries the Chinese text.
`filings eval` on a full warehouse measures the default configuration."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from filings import Filings
from vectorstore.embeddings import DEFAULT_MODELS
from router import evaluate

# Floors one case under what main measured after the session-3 merges (router 0.945, answers 0.882,
# refusal recall 0.905; by category in the closing note). The targets stay router >= 97%, refusal recall
# 100%, answers >= 90%: the gap (printed vs computed ROE cases, fiscal-year naming, narrative evidence after
# the search-pipeline merge) is open work in issues 12 and 16, and these floors only stop it widening.
# Metric and comparison: one case under 1.0, measured on the router branch after the printed-ROE cases were
# re-read from their pages and dated fiscal years read by date (SQL-route categories on this store, no index).
FLOORS = {
    "router_accuracy": 0.93,
    "citation_validity": 1.0,
    "refusal_recall": 0.85,
    "answer_accuracy": 0.86,
}
CATEGORY_FLOORS = {"metric": 0.96, "comparison": 0.93, "trend": 0.90, "unanswerable": 0.87, "alias_pitfall": 0.75,
                   "narrative": 0.76, "mixed": 0.44}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    import os

    cases = evaluate.load_suite()
    cited = sorted({e["doc_name"] for c in cases for e in c["expected"].get("evidence") or []})
    home = tmp_path_factory.mktemp("eval_home")
    old = os.environ.get("FILINGS_EMBED_MODEL_A")
    os.environ["FILINGS_EMBED_MODEL_A"] = DEFAULT_MODELS["US"]  # the fast English model: CI time
    try:
        with Filings(home) as f:
            paths = [require_corpus("us", "ixbrl"), require_corpus("us", "xbrl"), require_corpus("us", "companyfacts"),
                     require_corpus("cn"),
                     require_corpus("hk"), require_corpus("transcripts")]
            fb = require_corpus("us", "financebench", "pdfs")
            paths += [fb / f"{name}.pdf" for name in cited if (fb / f"{name}.pdf").exists()]
            ingest = f.ingest(*paths, index=False)
            assert not ingest.failed, [r.reason for r in ingest.failed]
            transcripts = [r[0] for r in f.con.execute("SELECT doc_name FROM documents WHERE form = 'transcript'").fetchall()]
            f.index_missing(only=cited + transcripts)
        with Filings(home, read_only=True) as f:
            yield evaluate.run(f.router, f.con, cases)
    finally:
        if old is None:
            os.environ.pop("FILINGS_EMBED_MODEL_A", None)
        else:
            os.environ["FILINGS_EMBED_MODEL_A"] = old


def test_suite_has_the_required_coverage():
    cases = evaluate.load_suite()
    assert len(cases) >= 100
    cats = {c["category"] for c in cases}
    assert {"metric", "comparison", "trend", "alias_pitfall", "narrative", "mixed", "unanswerable"} <= cats
    assert {c["lang"] for c in cases} == {"en", "zh"}


def test_quality_floors(report):
    figures = report.figures()
    failures = [f"{r.id} {r.question!r}: {r.why}" for r in report.results if not r.correct]
    print("\n".join(failures))
    print(figures)
    for key, floor in FLOORS.items():
        assert figures[key] is not None and figures[key] >= floor, (key, figures[key], failures[:20])
    for cat, floor in CATEGORY_FLOORS.items():
        assert figures["by_category"][cat]["accuracy"] >= floor, (cat, figures["by_category"][cat])


def test_every_answer_cites_real_sources(report):
    assert all(r.citations_ok for r in report.results if r.status == "answered")
