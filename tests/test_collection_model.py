"""Each search collection records the embedding model it was built with; queries always embed with that model,
whatever the environment says later, and adding documents with another configured model is a clear error."""

from __future__ import annotations

import pytest

from schema.errors import FilingsError
from schema.models import DocumentInfo, Page, ParsedDocument
from vectorstore.client_engine import ClientEngine
from vectorstore.index import NarrativeIndex

TEXT = ("Management discussed pricing actions taken during the year. Supply chain costs rose and the company "
        "raised prices to protect margins. Demand for the products remained strong in every region. ") * 4


def _doc(doc_id: str) -> ParsedDocument:
    info = DocumentInfo(document_id=doc_id, file_name=f"{doc_id}.pdf", market="US", company_id="acme", stock_code="ACME",
                        form="10-K", fiscal_year=2024, fiscal_period="FY", language="en")
    return ParsedDocument(info=info, pages=[Page(page=1, text=TEXT)], parser="test/1")


@pytest.mark.parametrize("engine", ["edge", "client"])
def test_queries_use_the_collection_model(tmp_path, monkeypatch, engine):
    eng = ClientEngine(location=":memory:") if engine == "client" else None
    built = NarrativeIndex(tmp_path, engine=eng, models={"US": "hashing@64"})
    assert built.index_document(_doc("d1"), "d1").units > 0
    card = built.model_card("filings_us")
    assert card == {"embedding_setting": "hashing@64", "embedding_model": "hashing-test-64", "dim": 64,
                    "sparse": "bm25+pairs+headings"}
    # the environment now names another model: queries still embed with the recorded one
    monkeypatch.setenv("FILINGS_EMBED_MODEL_US", "hashing@32")
    reader = NarrativeIndex(tmp_path, engine=built.engine)  # one process holds an embedded shard at a time
    assert reader.query_provider("US", "filings_us").name == "hashing-test-64"
    hits = reader.search("pricing actions and margins", k=3)
    assert hits and hits[0].payload["document_id"] == "d1"
    # adding a document with the other model configured is refused, naming both models and the way out
    with pytest.raises(FilingsError, match=r"hashing-test-64.*hashing-test-32.*index --rebuild"):
        reader.index_document(_doc("d2"), "d2")
    built.close()


def test_a_collection_keeps_its_model_when_the_default_changes(tmp_path, monkeypatch):
    """A warehouse built before the market's default model changed goes on with the model it was built with: the
    new default is for new collections; only a model set for the market (and not the collection's) is refused."""
    for var in ("FILINGS_EMBED_MODEL_US", "FILINGS_EMBED_MODELS"):
        monkeypatch.delenv(var, raising=False)
    built = NarrativeIndex(tmp_path, models={"US": "hashing@64"})
    assert built.index_document(_doc("d1"), "d1").units > 0
    later = NarrativeIndex(tmp_path, engine=built.engine)  # nothing set: the default is another model now
    assert later.index_document(_doc("d2"), "d2").units > 0
    assert later.model_card("filings_us")["embedding_model"] == "hashing-test-64"
    assert {h.payload["document_id"] for h in later.search("pricing actions and margins", k=5)} == {"d1", "d2"}
    monkeypatch.setenv("FILINGS_EMBED_MODEL_US", "hashing@32")
    with pytest.raises(FilingsError, match=r"hashing-test-64.*hashing-test-32.*index --rebuild"):
        later.index_document(_doc("d3"), "d3")
    built.close()


def test_a_collection_built_before_word_pairs_is_queried_as_it_was_built(tmp_path):
    """The BM25 encoding is recorded like the model: a collection without the record (built before word pairs) gets
    plain BM25 for its new documents and its queries, so its vectors never mix two encodings."""
    import json

    from vectorstore.edge_engine import META_FILE
    from vectorstore.sparse import term_id

    built = NarrativeIndex(tmp_path, models={"US": "hashing@64"})
    built.index_document(_doc("d1"), "d1")
    assert built.sparse_encoder("filings_us").pairs and built.older_sparse() == {}
    card = built.model_card("filings_us")
    meta = built.engine._dir("filings_us") / META_FILE  # the record as a store of the previous version wrote it
    meta.write_text(json.dumps({k: v for k, v in card.items() if k != "sparse"}), encoding="utf-8")
    older = NarrativeIndex(tmp_path, engine=built.engine)
    assert older.older_sparse() == {"filings_us": "bm25"}  # `filings index` says so, and how to move it
    bm25 = older.sparse_encoder("filings_us")
    assert not bm25.pairs and term_id("supply_chain") not in bm25.encode_query("supply chain costs")[0]
    assert older.search("supply chain costs rose", k=3)[0].payload["document_id"] == "d1"
    built.close()
