"""One suite, two engines: embedded qdrant-edge (tmp folder) and qdrant-client local mode (server API stand-in).

Units are real corpus text (AMCOR 10-Q + 8-K, PepsiCo 8-K, 金花股份 2024 Q1) cut into ~220-word / 400-character
pieces. Sparse vectors come from vectorstore.sparse (BM25, IDF by Qdrant). Dense vectors are a deterministic
hashed bag-of-words projection into 64 dims, normalised: real math for the engines, not a semantic model.
"""

from __future__ import annotations

import hashlib
import math

import pytest
from conftest import require_corpus

from vectorstore import hybrid
from vectorstore.client_engine import ClientEngine
from vectorstore.edge_engine import EdgeEngine
from vectorstore.engines import Engine, Hit, Point, point_id
from vectorstore.sparse import encode_document, encode_query, term_id, tokenize

DIM = 64
COLL = "filings_test"

DOCS = [
    # file, company_id, stock_code, market, fiscal_year, report_type, lang
    ("us/financebench/pdfs/AMCOR_2023Q2_10Q.pdf", "amcor", "AMCR", "US", 2023, "10-Q", "en"),
    ("us/financebench/pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf", "amcor", "AMCR", "US", 2022, "8-K", "en"),
    ("us/financebench/pdfs/PEPSICO_2023_8K_dated-2023-05-05.pdf", "pepsico", "PEP", "US", 2023, "8-K", "en"),
    ("cn/600080_jinhuagufen_2024_q1.pdf", "jinhua", "600080", "A", 2024, "q1", "zh"),
]


def dense_of(text: str) -> list[float]:
    v = [0.0] * DIM
    for tok in tokenize(text):
        h = term_id(tok)
        v[h % DIM] += 1.0 if (h >> 16) & 1 else -1.0
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v] if any(v) else [1.0 / math.sqrt(DIM)] * DIM


def _chunks(text: str, lang: str) -> list[tuple[int, int]]:
    if lang == "zh":
        return [(i, min(i + 400, len(text))) for i in range(0, len(text), 400)]
    spans, words = [], [(m.start(), m.end()) for m in __import__("re").finditer(r"\S+", text)]
    for i in range(0, len(words), 220):
        spans.append((words[i][0], words[min(i + 220, len(words)) - 1][1]))
    return spans


@pytest.fixture(scope="module")
def units() -> list[dict]:
    from parsers.pdf_pages import read_pages

    out = []
    for rel, cid, code, market, fy, rtype, lang in DOCS:
        path = require_corpus(*rel.split("/"))
        doc_id = hashlib.sha256(path.read_bytes()).hexdigest()
        for page in read_pages(path, ocr=False):
            for a, b in _chunks(page.text, lang):
                text = page.text[a:b]
                if len(text.strip()) < 20:
                    continue
                uid = hashlib.sha256(f"{doc_id}|{page.page}|{a}|{b}".encode()).hexdigest()[:32]
                out.append(
                    {
                        "unit_id": uid,
                        "document_id": doc_id,
                        "doc_name": path.stem,
                        "page": page.page,
                        "char_start": a,
                        "char_end": b,
                        "text": text,
                        "section": "financial_statements" if page.page <= 12 else "mdna",
                        "kind": "narrative",
                        "company_id": cid,
                        "stock_code": code,
                        "market": market,
                        "fiscal_year": fy,
                        "report_type": rtype,
                        "language": lang,
                    }
                )
    assert len(out) > 150
    return out


def _points(units: list[dict]) -> list[Point]:
    return [Point(u["unit_id"], dense_of(u["text"]), encode_document(u["text"], u["language"]), u) for u in units]


@pytest.fixture(scope="module")
def points(units) -> list[Point]:
    return _points(units)


def _make(kind: str, folder) -> Engine:
    return EdgeEngine(folder / "edge") if kind == "edge" else ClientEngine(location=":memory:")


@pytest.fixture(scope="module", params=["edge", "client"])
def loaded(request, tmp_path_factory, points):
    folder = tmp_path_factory.mktemp(request.param)
    eng = _make(request.param, folder)
    eng.ensure_collection(COLL, DIM)
    assert eng.upsert(COLL, points) == len(points)
    eng.optimize(COLL)
    yield request.param, eng, folder
    eng.close()


@pytest.fixture(scope="module")
def both(tmp_path_factory, points):
    engines = {}
    for kind in ("edge", "client"):
        eng = _make(kind, tmp_path_factory.mktemp(f"both_{kind}"))
        eng.ensure_collection(COLL, DIM)
        eng.upsert(COLL, points)
        eng.optimize(COLL)
        engines[kind] = eng
    yield engines
    for eng in engines.values():
        eng.close()


def _rare_query(units: list[dict], lang: str = "en") -> tuple[dict, str]:
    """A unit and a query of three tokens that occur in no other unit."""
    df: dict[str, int] = {}
    for u in units:
        for t in set(tokenize(u["text"])):
            df[t] = df.get(t, 0) + 1
    for u in units[len(units) // 3 :]:
        if u["language"] != lang:
            continue
        rare = [t for t in dict.fromkeys(tokenize(u["text"])) if df[t] == 1 and not t[0].isdigit()]
        if len(rare) >= 3:
            return u, " ".join(rare[:3])
    raise AssertionError("no unit with rare tokens")


QUERIES = [
    "net sales growth and cash flow from operations",
    "foreign currency translation adjustments hedges",
    "risk of litigation and contingencies",
    "share repurchase program dividends",
    "营业收入 净利润 同比",
    "非经常性损益 政府补助",
    "restructuring charges Russia",
]


# --------------------------------------------------------------------------------------------------------


def test_count_and_filters(loaded, units):
    kind, eng, _ = loaded
    assert eng.count(COLL) == len(units)
    n_amcor = sum(u["company_id"] == "amcor" for u in units)
    assert eng.count(COLL, {"company_id": "amcor"}) == n_amcor
    assert eng.count(COLL, {"fiscal_year": [2022, 2024]}) == sum(u["fiscal_year"] in (2022, 2024) for u in units)
    q = "net sales income cash"
    dense, sparse = dense_of(q), encode_query(q)
    for filt, check in [
        ({"company_id": "pepsico"}, lambda p: p["company_id"] == "pepsico"),
        ({"company_id": ["amcor", "pepsico"], "fiscal_year": [2022, 2024]}, lambda p: p["company_id"] == "amcor" and p["fiscal_year"] == 2022),
        ({"section": "mdna", "market": "US"}, lambda p: p["section"] == "mdna" and p["market"] == "US"),
        ({"fiscal_year": 2024, "kind": ["narrative", "transcript"]}, lambda p: p["company_id"] == "jinhua"),
    ]:
        for hits in (
            eng.query(COLL, dense, sparse, filt, k=20),
            eng.query_dense(COLL, dense, filt, k=20),
            eng.query_sparse(COLL, encode_query("营业收入 company report " + q), filt, k=20),
        ):
            assert hits, (kind, filt)
            assert all(check(h.payload) for h in hits), (kind, filt)


def test_sparse_finds_rare_phrase_first(loaded, units):
    kind, eng, _ = loaded
    unit, query = _rare_query(units)
    hits = eng.query_sparse(COLL, encode_query(query), k=5)
    assert hits[0].unit_id == unit["unit_id"], (kind, query)
    assert hits[0].id == point_id(unit["unit_id"])
    hybrid_hits = eng.query(COLL, dense_of(query), encode_query(query), k=5)
    assert unit["unit_id"] in [h.unit_id for h in hybrid_hits[:3]]


def test_chinese_term_inside_longer_string(loaded, units):
    kind, eng, _ = loaded
    # "损益" sits inside "非经常性损益项目" / "计入当期损益的政府补助": jieba cut_for_search yields it as a token
    hits = eng.query_sparse(COLL, encode_query("损益", "zh"), {"market": "A"}, k=5)
    assert hits and all("损益" in h.payload["text"] for h in hits), kind
    hits = eng.query_sparse(COLL, encode_query("政府补助金额", "zh"), k=3)
    assert hits and "政府补助" in hits[0].payload["text"]


def test_hybrid_is_rrf_of_both_sides(loaded):
    kind, eng, _ = loaded
    for q in QUERIES[:4]:
        dense, sparse = dense_of(q), encode_query(q)
        d = eng.query_dense(COLL, dense, k=30)
        s = eng.query_sparse(COLL, sparse, k=30)
        fused = eng.query(COLL, dense, sparse, k=10, prefetch_k=30)
        assert {h.id for h in fused} <= {h.id for h in d} | {h.id for h in s}
        # the engine fuses its own order of tied scores; ours is by unit id: a tied hit may hold any rank of its tie
        lo, hi = _rrf_bounds([d, s], eng.rrf_k)
        for h in fused:
            assert lo[h.id] * (1 - 1e-4) <= h.score <= hi[h.id] * (1 + 1e-4)
        assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)
        assert fused[0].score >= max(lo.values()) * (1 - 1e-4)


def _rrf_bounds(lists: list[list[Hit]], k: int) -> tuple[dict[str, float], dict[str, float]]:
    """RRF score range per id when hits of equal score may come in any order within their tie (Qdrant's RRF
    counts ranks from 0: 1 / (k + rank))."""
    lo: dict[str, float] = {}
    hi: dict[str, float] = {}
    for hits in lists:
        for h in hits:
            ranks = [r for r, o in enumerate(hits) if o.score == pytest.approx(h.score, rel=1e-6)]
            lo[h.id] = lo.get(h.id, 0.0) + 1.0 / (k + max(ranks))
            hi[h.id] = hi.get(h.id, 0.0) + 1.0 / (k + min(ranks))
    return lo, hi


def _same_ranking(a: list[Hit], b: list[Hit]) -> None:
    """Same scores rank by rank, same ids except inside groups of tied scores."""
    assert [h.score for h in a] == pytest.approx([h.score for h in b], rel=1e-3, abs=1e-6)
    if not a:
        return
    cut = a[-1].score
    strict_a = {h.id for h in a if h.score > cut * (1 + 1e-3) + 1e-6}
    strict_b = {h.id for h in b if h.score > cut * (1 + 1e-3) + 1e-6}
    assert strict_a == strict_b


def test_engines_agree(both, units):
    edge, client = both["edge"], both["client"]
    unit, rare = _rare_query(units)
    for q in QUERIES + [rare]:
        dense, sparse = dense_of(q), encode_query(q)
        for filt in (None, {"company_id": "amcor", "fiscal_year": [2023]}):
            _same_ranking(edge.query_sparse(COLL, sparse, filt, k=10), client.query_sparse(COLL, sparse, filt, k=10))
            _same_ranking(edge.query_dense(COLL, dense, filt, k=10), client.query_dense(COLL, dense, filt, k=10))
            e = edge.query(COLL, dense, sparse, filt, k=5, prefetch_k=50)
            c = client.query(COLL, dense, sparse, filt, k=5, prefetch_k=50)
            # fused ranks can differ only where a prefetch list had ties; require the same leader and overlap
            assert e[0].id == c[0].id or e[0].score == pytest.approx(c[0].score, rel=1e-6), q
            assert len({h.id for h in e} & {h.id for h in c}) >= 4, q


@pytest.mark.parametrize("kind", ["edge", "client"])
def test_delete_document_only_that_document(kind, tmp_path, points, units):
    eng = _make(kind, tmp_path)
    eng.ensure_collection("filings_del", DIM)
    eng.upsert("filings_del", points)
    eng.upsert("filings_del", points[:10])  # idempotent by id
    assert eng.count("filings_del") == len(points)
    doc = units[0]["document_id"]
    n_doc = sum(u["document_id"] == doc for u in units)
    eng.delete_document("filings_del", doc)
    assert eng.count("filings_del") == len(points) - n_doc
    assert eng.count("filings_del", {"document_id": doc}) == 0
    for u in units:
        if u["document_id"] != doc:
            assert eng.count("filings_del", {"document_id": u["document_id"]}) > 0
    q = units[0]["text"][:200]
    assert all(h.payload["document_id"] != doc for h in eng.query("filings_del", dense_of(q), encode_query(q), k=20))
    eng.close()


def test_edge_persists_and_reloads(tmp_path, points):
    folder = tmp_path / "edge"
    eng = EdgeEngine(folder)
    eng.ensure_collection(COLL, DIM)
    eng.upsert(COLL, points)
    eng.optimize(COLL)
    queries = [(dense_of(q), encode_query(q)) for q in QUERIES]
    before = [[(h.id, round(h.score, 6)) for h in eng.query(COLL, d, s, {"market": "US"}, k=8)] for d, s in queries]
    eng.close()

    again = EdgeEngine(folder)
    assert again.has_collection(COLL)
    assert again.count(COLL) == len(points)  # lazily loaded without ensure_collection
    after = [[(h.id, round(h.score, 6)) for h in again.query(COLL, d, s, {"market": "US"}, k=8)] for d, s in queries]
    assert after == before
    again.ensure_collection(COLL, DIM)  # idempotent on an existing folder
    assert again.count(COLL) == len(points)
    with pytest.raises(KeyError):
        again.upsert("missing", points[:1])
    assert not (folder / "missing").exists()
    again.close()


def test_point_ids():
    assert point_id("0" * 31 + "1") == "00000000-0000-0000-0000-000000000001"
    assert point_id("not-hex") == point_id("not-hex") != point_id("not-hex2")


# --------------------------------------------------------------------------------------------------------
# diversification (no engine)


def _h(i: int, company: str, doc: str) -> Hit:
    return Hit(str(i), 1.0 / (i + 1), {"company_id": company, "document_id": doc})


def test_diversify_round_robin_by_company():
    hits = [_h(i, "a", "a1") for i in range(6)] + [_h(6, "b", "b1"), _h(7, "c", "c1"), _h(8, "b", "b2")]
    out = hybrid.diversify(hits, per_company=2)
    assert [h.payload["company_id"] for h in out] == ["a", "b", "c", "a", "b"]
    assert hybrid.companies(out) == ["a", "b", "c"]
    assert [h.id for h in hybrid.diversify(hits, per_company=None, per_document=1, round_robin_order=False)] == ["0", "6", "7", "8"]
    assert len(hybrid.diversify(hits, per_company=3, k=4)) == 4
    # no company: grouped by document, not collapsed
    anon = [Hit("x", 1, {"document_id": "d1"}), Hit("y", 0.9, {"document_id": "d1"}), Hit("z", 0.8, {"document_id": "d2"})]
    assert [h.id for h in hybrid.diversify(anon, per_company=1)] == ["x", "z"]


@pytest.mark.parametrize("kind", ["edge", "client"])
def test_ties_come_in_unit_id_order_whatever_the_upsert_order(kind, tmp_path):
    # two speaker turns of the same words score the same; their order must not depend on how the index was built
    text = "Thank you. Next question please."
    payload = {"document_id": "d", "company_id": "c", "text": text}
    ids = [f"turn-{i}" for i in range(6)]
    orders = []
    for n, order in enumerate((ids, ids[::-1])):
        eng = _make(kind, tmp_path / str(n))
        eng.ensure_collection(COLL, DIM)
        eng.upsert(COLL, [Point(i, dense_of(text), encode_document(text, "en"), payload) for i in order])
        orders.append(([h.id for h in eng.query_sparse(COLL, encode_query("next question"), k=6)],
                       [h.id for h in eng.query_dense(COLL, dense_of(text), k=6)]))
        eng.close()
    assert orders[0] == orders[1]
    assert len(orders[0][0]) == len(orders[0][1]) == len(ids)
    assert orders[0][0] == sorted(orders[0][0]) and orders[0][1] == sorted(orders[0][1])
