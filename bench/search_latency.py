"""Hybrid query latency on the embedded engine (qdrant-edge) at 10k / 50k / 160k search units.

Units: page text of the corpus PDFs (FinanceBench + A-share) cut into ~220-word (English) / 400-character
(Chinese) units, plus generated units (two spliced halves of real units, with synthetic companies / years /
sections) to reach each size. Sparse vectors: the real BM25 tokenisation (vectorstore.sparse). Dense
vectors: random normalised 384-dim float32 (latency does not depend on semantics). Payload: a SearchUnit-like
dict with the text.

Per size: upsert time, optimize time, p50 / p95 latency of 200 hybrid queries (dense + BM25 prefetch 100,
RRF, k=10) with company / year filters before and after optimize; the search path of ``filings search``
(four ranked lists of 100 - dense, BM25, BM25 over table pages, BM25 over one statement's pages - fused by
weighted RRF in Python); dense-only and sparse-only p50, reload time. Table pages and statement titles are
found by the chunker's own rules.

    python bench/search_latency.py [--sizes 10000,50000,160000] [--queries 200] [--pages-cache PATH.pkl]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import corpus_root, financebench_dev, print_table  # noqa: E402

import numpy as np  # noqa: E402

from mappings.statements import title_statement  # noqa: E402
from vectorstore.chunking import is_table_page  # noqa: E402
from vectorstore.edge_engine import EdgeEngine  # noqa: E402
from vectorstore.engines import Point  # noqa: E402
from vectorstore.hybrid import weighted_rrf  # noqa: E402
from router.search import FUSION_WEIGHTS  # noqa: E402
from vectorstore.sparse import encode_document, encode_query  # noqa: E402

DIM = 384
SECTIONS = ["business", "risk_factors", "mdna", "market_risk", "financial_statements", "legal"]


def _read_one(path: Path):
    from parsers.pdf_pages import read_pages

    try:
        return path.name, [(p.page, p.text) for p in read_pages(path, ocr=False)]
    except Exception as exc:  # a bench keeps going
        print(f"skip {path.name}: {exc}", file=sys.stderr)
        return path.name, []


def load_pages(cache: str | None) -> dict[str, list[tuple[int, str]]]:
    if cache and os.path.exists(cache):
        return pickle.load(open(cache, "rb"))
    from concurrent.futures import ProcessPoolExecutor

    root = corpus_root()
    files = sorted((root / "us" / "financebench" / "pdfs").glob("*.pdf")) + sorted((root / "cn").glob("*.pdf"))
    t = time.perf_counter()
    with ProcessPoolExecutor(max(1, (os.cpu_count() or 2))) as ex:
        pages = dict(ex.map(_read_one, files))
    print(f"read {sum(map(len, pages.values()))} pages of {len(files)} PDFs in {time.perf_counter() - t:.1f} s")
    if cache:
        pickle.dump(pages, open(cache, "wb"))
    return pages


def real_units(pages: dict[str, list[tuple[int, str]]]) -> list[dict]:
    units = []
    for name, plist in pages.items():
        zh = name[:6].isdigit()
        company = name.split("_")[1] if zh else name.split("_")[0].lower()
        year_m = re.search(r"_(\d{4})", name)
        year = int(year_m.group(1)) if year_m else 2020
        for page, text in plist:
            if zh:
                spans = [(i, min(i + 400, len(text))) for i in range(0, len(text), 400)]
            else:
                words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
                spans = [(words[i][0], words[min(i + 220, len(words)) - 1][1]) for i in range(0, len(words), 220)]
            kind = "table" if is_table_page(text) else "narrative"
            statement = title_statement(text) if kind == "table" else None
            for a, b in spans:
                if b - a < 40:
                    continue
                units.append(
                    {
                        "document_id": name,
                        "doc_name": name[:-4],
                        "page": page,
                        "char_start": a,
                        "char_end": b,
                        "text": text[a:b],
                        "section": SECTIONS[page % len(SECTIONS)],
                        "kind": kind,
                        "statement": statement,
                        "company_id": company,
                        "market": "A" if zh else "US",
                        "fiscal_year": year,
                        "language": "zh" if zh else "en",
                    }
                )
    return units


def generated_units(real: list[dict], n: int, rng: random.Random) -> list[dict]:
    out = []
    for i in range(n):
        a, b = rng.choice(real), rng.choice(real)
        ta, tb = a["text"], b["text"]
        text = ta[: len(ta) // 2] + " " + tb[len(tb) // 2 :]
        company = f"gen_{rng.randrange(300)}"
        out.append(
            {
                "document_id": f"{company}_{i // 80}",
                "doc_name": f"{company}_{i // 80}",
                "page": i % 80 + 1,
                "char_start": 0,
                "char_end": len(text),
                "text": text,
                "section": rng.choice(SECTIONS),
                "kind": a["kind"] if a["kind"] == "table" else rng.choice(["narrative", "narrative", "transcript"]),
                "statement": a.get("statement"),
                "company_id": company,
                "market": a["market"],
                "fiscal_year": rng.randrange(2015, 2026),
                "language": a["language"],
            }
        )
    return out


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(xs: list[float], p: float) -> float:
    return float(np.percentile(np.array(xs) * 1000, p))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,50000,160000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--pages-cache", default=None, help="pickle of page texts to reuse between runs")
    ap.add_argument("--folder", default=None, help="where the shards go (default: a temp folder, removed)")
    ap.add_argument("--json", default=None, help="also write the figures to this JSON file")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(7)
    nrng = np.random.default_rng(7)

    pages = load_pages(args.pages_cache)
    real = real_units(pages)
    rng.shuffle(real)
    need = max(sizes)
    units = real[:need] + generated_units(real, max(0, need - len(real)), rng)
    print(f"{len(real)} real units; {len(units)} in all")

    t = time.perf_counter()
    sparse = [encode_document(u["text"], u["language"]) for u in units]
    t_sparse = time.perf_counter() - t
    print(f"BM25 encoding {len(units)} units: {t_sparse:.1f} s ({len(units) / t_sparse:.0f} units/s)")
    dense = nrng.standard_normal((need, DIM), dtype=np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    for i, u in enumerate(units):
        u["unit_id"] = f"{i:032x}"

    qtexts = [q["question"] for q in financebench_dev()]
    qtexts += ["营业收入 同比 增长", "风险因素 关税", "非经常性损益 政府补助", "研发投入 费用"]

    base = Path(args.folder or tempfile.mkdtemp(prefix="search_latency_"))
    figures = []
    try:
        for size in sizes:
            folder = base / f"n{size}"
            shutil.rmtree(folder, ignore_errors=True)
            eng = EdgeEngine(folder, auto_optimize_points=0)
            eng.ensure_collection("filings", DIM)
            pts = [Point(units[i]["unit_id"], dense[i].tolist(), sparse[i], units[i]) for i in range(size)]
            t = time.perf_counter()
            eng.upsert("filings", pts)
            eng.flush("filings")
            t_up = time.perf_counter() - t
            del pts

            present = units[:size]
            companies = sorted({u["company_id"] for u in present})
            years = sorted({u["fiscal_year"] for u in present})
            queries = []
            for i in range(args.queries):
                qv = nrng.standard_normal(DIM, dtype=np.float32)
                qv /= np.linalg.norm(qv)
                text = rng.choice(qtexts)
                mode = i % 3
                if mode == 0:
                    flt = {"company_id": rng.choice(companies)}
                elif mode == 1:
                    u = rng.choice(present)
                    flt = {"company_id": u["company_id"], "fiscal_year": [u["fiscal_year"] - 1, u["fiscal_year"]]}
                else:
                    y = rng.choice(years)
                    flt = {"fiscal_year": [y, y + 1], "section": rng.choice(SECTIONS)}
                queries.append((qv.tolist(), encode_query(text), flt))

            def run(fn) -> list[float]:
                lat = []
                for qv, sq, flt in queries:
                    t0 = time.perf_counter()
                    fn(qv, sq, flt)
                    lat.append(time.perf_counter() - t0)
                return lat

            def hybrid(qv, sq, flt):
                return eng.query("filings", qv, sq, flt, k=10, prefetch_k=100)

            pre = run(hybrid)
            t = time.perf_counter()
            eng.optimize("filings")
            t_opt = time.perf_counter() - t
            run(hybrid)  # warm caches once
            lat = run(hybrid)
            lat_nf = run(lambda qv, sq, flt: eng.query("filings", qv, sq, None, k=10, prefetch_k=100))

            def search_path(qv, sq, flt):
                # what NarrativeIndex.search issues for a question that points at a statement: dense over prose,
                # BM25 over all units, BM25 over table pages, BM25 over the statement's pages; weighted RRF
                lists = [eng.query_dense("filings", qv, flt, k=100), eng.query_sparse("filings", sq, flt, k=100),
                         eng.query_sparse("filings", sq, dict(flt, kind="table"), k=100),
                         eng.query_sparse("filings", sq, dict(flt, kind="table", statement="balance"), k=100)]
                return weighted_rrf(lists, list(FUSION_WEIGHTS.values()))[:20]

            lat_path = run(search_path)
            lat_d = run(lambda qv, sq, flt: eng.query_dense("filings", qv, flt, k=10))
            lat_s = run(lambda qv, sq, flt: eng.query_sparse("filings", sq, flt, k=10))
            eng.close()
            t = time.perf_counter()
            eng2 = EdgeEngine(folder)
            n = eng2.count("filings")
            t_reload = time.perf_counter() - t
            eng2.query("filings", queries[0][0], queries[0][1], queries[0][2], k=10)
            t_first = time.perf_counter() - t - t_reload
            eng2.close()
            assert n == size, (n, size)
            disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20
            fig = {
                "units": size,
                "upsert_s": round(t_up, 2),
                "optimize_s": round(t_opt, 2),
                "hybrid_unoptimised_p50_ms": round(pct(pre, 50), 2),
                "hybrid_unoptimised_p95_ms": round(pct(pre, 95), 2),
                "hybrid_p50_ms": round(pct(lat, 50), 2),
                "hybrid_p95_ms": round(pct(lat, 95), 2),
                "search_path_p50_ms": round(pct(lat_path, 50), 2),
                "search_path_p95_ms": round(pct(lat_path, 95), 2),
                "hybrid_nofilter_p50_ms": round(pct(lat_nf, 50), 2),
                "hybrid_nofilter_p95_ms": round(pct(lat_nf, 95), 2),
                "dense_p50_ms": round(pct(lat_d, 50), 2),
                "sparse_p50_ms": round(pct(lat_s, 50), 2),
                "reload_s": round(t_reload, 3),
                "first_query_after_reload_ms": round(t_first * 1000, 1),
                "disk_mb": round(disk),
                "max_rss_mb": round(rss_mb()),
            }
            figures.append(fig)
            print(json.dumps(fig), flush=True)
    finally:
        if not args.folder:
            shutil.rmtree(base, ignore_errors=True)
    if figures:  # one row per figure, one column per size
        keys = [k for k in figures[0] if k != "units"]
        print_table(["figure"] + [str(f["units"]) for f in figures], [[k] + [f[k] for f in figures] for k in keys],
                    title="qdrant-edge hybrid search: units per column")
    if args.json:
        Path(args.json).write_text(json.dumps({"bm25_encode_s": round(t_sparse, 1), "sizes": figures}, indent=2))


if __name__ == "__main__":
    main()
