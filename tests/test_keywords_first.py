"""Searchable before embedded: a stored document's units are found by keywords (BM25) at once, its dense vectors
come later (`filings index`), answers over units without them say so, and filling them in leaves the units and
their BM25 vectors as they were. Real filings, the bundled models, embedded Qdrant."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import require_corpus
from filings import Filings
from vectorstore.index import collection_for
from vectorstore.sparse import encode_query

DOCS = [("transcripts", "KO_2021_Q4.json"), ("cn", "600080_jinhuagufen_2025_q3.pdf")]


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("keywords_first")
    with Filings(home) as f:
        report = f.ingest(*[require_corpus(*d) for d in DOCS], dense=False)
        assert not report.failed, [r.reason for r in report.failed]
        assert report.embedded == 0
    return home


def _prose_units(f: Filings, document_id: str, market: str) -> int:
    name = collection_for(market)
    return f.index.engine.count(name, {"document_id": document_id}) - \
        f.index.engine.count(name, {"document_id": document_id, "kind": "table"})


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]{4,}", text.lower())


def _own_words(f: Filings, document_id: str) -> tuple[int, str]:
    """(page, query): eight words the document's longest page prints and none of its other pages does."""
    pages = f.con.execute("SELECT page, text FROM pages WHERE document_id = ? ORDER BY length(text) DESC",
                          [document_id]).fetchall()
    page, text = pages[0]
    elsewhere = {w for _p, t in pages[1:] for w in _words(t)}
    return page, " ".join(list(dict.fromkeys(w for w in _words(text) if w not in elsewhere))[:8])


def _states(f: Filings) -> dict[str, tuple[str, int]]:
    return {d: (s, u) for d, s, u in f.con.execute("SELECT document_id, status, units FROM index_state").fetchall()}


def test_keywords_first_then_dense(home):
    with Filings(home, read_only=True) as f:
        docs = f.con.execute("SELECT document_id, doc_name, market FROM documents ORDER BY doc_name").fetchall()
        assert {s for s, _u in _states(f).values()} == {"keywords"}
        pending = {d: _prose_units(f, d, m) for d, _n, m in docs}
        assert f.index.pending_dense() == sum(pending.values()) > 0
        # the transcript: words only one of its pages prints find that page by keywords alone
        ko_id = next(d for d, n, _m in docs if n.startswith("KO_"))
        page, query = _own_words(f, ko_id)
        found = f.searcher.search(query, raw=True, document=ko_id, k=3)
        assert found.hits and found.hits[0].payload["page"] == page
        assert found.keywords_only == pending[ko_id]
        before = [h.id for h in found.hits]
        # no unit has a dense vector yet: a dense query finds nothing
        vector = f.index._query_vector("US", collection_for("US"), query)
        assert f.index.engine.query_dense(collection_for("US"), vector, {"document_id": ko_id}, k=5) == []
        answer = f.ask("What did Coca-Cola say about pricing in the fourth quarter of 2021?")
        assert answer.route in ("search", "mixed")
        assert any("keywords only" in c for c in answer.caveats), answer.caveats

    with Filings(home) as f:
        assert f.index_missing() == len(docs)
    with Filings(home, read_only=True) as f:
        assert {s for s, _u in _states(f).values()} == {"indexed"}
        assert f.index.pending_dense() == 0
        assert {d: _prose_units(f, d, m) for d, _n, m in docs} == pending  # the same units
        found = f.searcher.search(query, raw=True, document=ko_id, k=3)
        assert found.keywords_only == 0
        sparse = f.index.engine.query_sparse(collection_for("US"), encode_query(query, "en"),
                                             {"document_id": ko_id}, k=3)
        assert [h.id for h in sparse][:1] == before[:1]  # BM25 vectors untouched
        dense = f.index.engine.query_dense(collection_for("US"), vector, {"document_id": ko_id}, k=5)
        assert len(dense) == 5 and all(h.payload["dense_state"] == "embedded" for h in dense)
        answer = f.ask("What did Coca-Cola say about pricing in the fourth quarter of 2021?")
        assert not any("keywords only" in c for c in answer.caveats)


def test_cli_keywords_only_then_index(tmp_path):
    doc = str(require_corpus("transcripts", "KO_2021_Q4.json"))

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "filings.cli", *args, "--home", str(tmp_path)],
                              capture_output=True, text=True, timeout=600)

    assert cli("ingest", doc, "--keywords-only").returncode == 0
    res = cli("search", "pricing", "--json")
    assert res.returncode == 0, res.stderr
    assert '"keywords_only"' in res.stdout
    res = cli("index")
    assert res.returncode == 0 and "indexed 1 document" in res.stdout, res.stdout + res.stderr
    res = cli("search", "pricing", "--json")
    assert res.returncode == 0 and '"keywords_only"' not in res.stdout
