"""Benchmark: embedding speed per provider, and a within-document retrieval probe on FinanceBench.

    .venv/bin/python bench/embed_speed.py [--providers minilm-onnx,minilm,e5-small,...] [--n-en 200] [--n-zh 100]
    .venv/bin/python bench/embed_speed.py --recall [--providers minilm-onnx,minilm-onnx@256,e5-small]
                                         [--max-questions N] [--cache DIR]

Speed: passages/s of each provider over real search units made by ``vectorstore.chunking`` (about 220
words): ``--n-en`` units from FinanceBench 10-K PDFs and ``--n-zh`` units from an A-share annual report,
on however many cores the machine has (2 here). Load time is reported separately. Passages per CPU
second are printed too: on a shared, loaded machine wall-clock figures drop while the CPU figure
holds (a provider using both cores fully does ~2x its per-CPU-second figure in wall time). Also prints the
share of English units longer than 256 / 512 MiniLM word pieces.

Recall probe (``--recall``): for each question of ``us/financebench/questions_dev.jsonl`` its document's
pages are chunked once and embedded (through an ``EmbeddingCache``, default .bench/embed-cache in the repo,
so a rerun is cheap); the question is embedded as a query and ranked against that document's units
only. A question is a hit at k when a page of one of its top-k units is an evidence page
(``evidence_page_num`` is 0-indexed; our pages are 1-based). Prints hit@1/5/20 per provider, with a
plain BM25 over the same units for reference. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from bench.common import REPO, corpus_root, financebench_dev, print_table  # noqa: E402
from parsers.pdf_pages import read_pages  # noqa: E402
from schema.models import DocumentInfo  # noqa: E402
from vectorstore.chunking import chunk, words  # noqa: E402
from vectorstore.embedding_cache import EmbeddingCache, embed_cached  # noqa: E402
from vectorstore.embeddings import minilm_dir, provider_for  # noqa: E402

EN_DOCS = ["AMCOR_2023Q2_10Q", "3M_2022_10K", "PEPSICO_2022_10K"]
ZH_DOC = "cn/600080_jinhuagufen_2024_annual.pdf"


def units_of(path: Path, lang: str, form: str = "10-K"):
    pages = read_pages(path, ocr=False)
    info = DocumentInfo(document_id=path.stem, form=form, language=lang)
    units, _ = chunk(info, pages, [], path.stem)
    return pages, units


def sample_units(root: Path, n_en: int, n_zh: int) -> tuple[list[str], list[str]]:
    en: list[str] = []
    for name in EN_DOCS:
        p = root / "us" / "financebench" / "pdfs" / f"{name}.pdf"
        if p.exists():
            _, units = units_of(p, "en")
            en += [u.text for u in units if u.kind == "narrative" and words(u.text) >= 150]
        if len(en) >= n_en:
            break
    _, units = units_of(root / ZH_DOC, "zh-Hans", "annual")
    zh = [u.text for u in units if u.kind == "narrative" and words(u.text) >= 150]
    return en[:n_en], zh[:n_zh]


def speed(names: list[str], n_en: int, n_zh: int) -> None:
    root = corpus_root()
    en, zh = sample_units(root, n_en, n_zh)
    print(f"{len(en)} English units (median {np.median([words(t) for t in en]):.0f} words), "
          f"{len(zh)} Chinese units (median {np.median([len(t) for t in zh]):.0f} chars); cores: {os.cpu_count()}")
    try:
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
        tok.no_truncation()
        lens = np.array([len(e.ids) for e in tok.encode_batch(en)])
        print(f"MiniLM word pieces per English unit: median {np.median(lens):.0f}, p90 {np.percentile(lens, 90):.0f}, "
              f"> 256: {np.mean(lens > 256):.0%}, > 512: {np.mean(lens > 512):.0%}")
    except Exception as exc:  # pragma: no cover - informational only
        print("token count skipped:", exc)
    rows = []
    for name in names:
        t = time.perf_counter()
        p = provider_for(name)
        load = time.perf_counter() - t
        p.embed_passages(en[:4])  # warm-up
        t, c = time.perf_counter(), time.process_time()
        p.embed_passages(en)
        t_en, c_en = time.perf_counter() - t, time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        p.embed_passages(zh)
        t_zh, c_zh = time.perf_counter() - t, time.process_time() - c
        row = [name, p.name, load, len(en) / t_en, len(en) / c_en, len(zh) / t_zh, len(zh) / c_zh]
        rows.append(row)
        print(f"  {name}: load {load:.1f}s, en {row[3]:.1f}/s wall {row[4]:.1f}/cpu-s, zh {row[5]:.1f}/s wall "
              f"{row[6]:.1f}/cpu-s; load average {os.getloadavg()[0]:.1f}", flush=True)
    print_table(["provider", "name", "load s", "en /s wall", "en /cpu-s", "zh /s wall", "zh /cpu-s"], rows,
                title="embedding speed (passages per wall second and per CPU second)")


# ---------------------------------------------------------------------------------------------- recall

_TOK = re.compile(r"[a-z0-9]+")
_STOP = set("the a an of and or in on to for is are was were be by with as at from that this what which how did does do "
            "its it their has have had than per based fy".split())


def _bm25_rank(query: str, docs: list[str]) -> list[int]:
    toks = [[t for t in _TOK.findall(d.lower()) if t not in _STOP] for d in docs]
    q = [t for t in _TOK.findall(query.lower()) if t not in _STOP]
    n = len(docs)
    avg = sum(map(len, toks)) / max(n, 1)
    df = Counter(t for ts in toks for t in set(ts))
    scores = []
    for ts in toks:
        tf = Counter(ts)
        s = 0.0
        for t in q:
            if t in tf:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * len(ts) / avg))
        scores.append(s)
    return list(np.argsort(-np.array(scores), kind="stable"))


def recall(names: list[str], max_questions: int | None, cache_dir: str, max_doc_units: int | None = None,
           max_pages: int | None = None) -> None:
    root = corpus_root()
    fb = root / "us" / "financebench"
    questions = financebench_dev()
    if max_questions:
        questions = questions[:max_questions]
    if max_pages:  # only questions on documents of at most max_pages pages (documents.jsonl)
        pages_of = {}
        for line in (fb / "documents.jsonl").read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                pages_of[d["doc_name"]] = d["pages"]
        questions = [q for q in questions if pages_of.get(q["doc_name"], 10**9) <= max_pages]
    docs = sorted({q["doc_name"] for q in questions})
    t = time.perf_counter()
    doc_units = {}
    for d in docs:
        _, units = units_of(fb / "pdfs" / f"{d}.pdf", "en")
        doc_units[d] = units
    if max_doc_units:  # only questions on small documents (to probe slow providers)
        docs = [d for d in docs if len(doc_units[d]) <= max_doc_units]
        questions = [q for q in questions if q["doc_name"] in docs]
    n_units = sum(len(doc_units[d]) for d in docs)
    print(f"{len(questions)} questions over {len(docs)} documents: {n_units} units, read + chunked in "
          f"{time.perf_counter() - t:.1f}s", flush=True)
    ks = (1, 5, 20)

    from bench.financebench_retrieval import split

    half_of = split(financebench_dev())
    halves = [half_of[q["company"]] for q in questions]

    def hits(ranked_pages: list[list[int]], gold: list[set[int]]) -> list[float]:
        """hit@1/5/20 on all questions, then hit@5/20 on the tuning and on the checking half."""
        got = [[bool(set(r[:k]) & g) for k in ks] for r, g in zip(ranked_pages, gold)]
        out = [float(np.mean([x[i] for x in got])) for i in range(len(ks))]
        for half in ("tuning", "checking"):
            part = [x for x, h in zip(got, halves) if h == half] or [[False] * len(ks)]
            out += [round(float(np.mean([x[i] for x in part])), 3) for i in (1, 2)]
        return out

    gold = [{e["evidence_page_num"] + 1 for e in q["evidence"]} for q in questions]
    rows = []
    bm = [[doc_units[q["doc_name"]][i].page for i in _bm25_rank(q["question"], [u.text for u in doc_units[q["doc_name"]]])]
          for q in questions]
    rows.append(["bm25 (units)", "-", "-", *hits(bm, gold)])
    print("  bm25:", rows[-1][3:], flush=True)
    cache = EmbeddingCache(cache_dir)
    for name in names:
        p = provider_for(name)
        t = time.perf_counter()
        vecs = {}
        for i, d in enumerate(docs):
            vecs[d] = embed_cached(p, [u.text for u in doc_units[d]], cache)
            print(f"    {name}: {i + 1}/{len(docs)} documents embedded ({time.perf_counter() - t:.0f}s)", flush=True)
        t_embed = time.perf_counter() - t
        qv = p.embed_queries([q["question"] for q in questions])
        ranked = []
        for q, v in zip(questions, qv):
            order = np.argsort(-(vecs[q["doc_name"]] @ v), kind="stable")
            ranked.append([doc_units[q["doc_name"]][i].page for i in order])
        rows.append([name, p.name, t_embed, *hits(ranked, gold)])
        print(f"  {name}: hit@1/5/20 {rows[-1][3:]}  (embed {t_embed:.0f}s)", flush=True)
    print_table(["provider", "name", "embed s (uncached)", "hit@1", "hit@5", "hit@20", "tuning @5", "tuning @20",
                 "checking @5", "checking @20"], rows,
                title=f"FinanceBench dev, within-document unit search ({len(questions)} questions)")


def _fold(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _suite_units(cases: list[dict]) -> dict[str, list]:
    """doc_name -> prose search units (the index's own chunking of the parsed document; table units have no dense
    vector) of the suite's evidence documents."""
    from vectorstore.index import NarrativeIndex
    from warehouse.parse_pool import parse_job

    root = corpus_root()
    files = {p.stem: p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in {".pdf", ".htm", ".html",
                                                                                       ".txt", ".json", ".xml"}}
    index = NarrativeIndex(REPO / ".bench" / "suite-probe")
    out = {}
    for name in sorted({e["doc_name"] for c in cases for e in c["expected"]["evidence"]}):
        parsed, _error = parse_job(files[name]) if name in files else (None, None)
        if parsed is not None:
            out[name] = [u for u in index.units_of(parsed, name) if u.kind != "table"]  # what gets dense vectors
    return out


def suite_recall(names: list[str], cache_dir: str, lang: str | None = None) -> None:
    """The eval suite's narrative questions (every case with evidence quotes), per language: each question ranked
    against its evidence document's units by the dense model alone; a hit at k when one of the top-k units holds
    one of the expected quotes (whitespace folded)."""
    from router.evaluate import load_suite

    cases = [c for c in load_suite() if c["expected"].get("evidence") and (lang is None or c["lang"] == lang)]
    t = time.perf_counter()
    doc_units = _suite_units(cases)
    probes = []  # (lang, question, doc, gold unit indexes)
    for c in cases:
        for doc in dict.fromkeys(e["doc_name"] for e in c["expected"]["evidence"]):
            quotes = [_fold(e["quote"]) for e in c["expected"]["evidence"] if e["doc_name"] == doc]
            units = doc_units.get(doc, [])
            gold = {i for i, u in enumerate(units) if any(q in _fold(u.text) for q in quotes)}
            if gold:
                probes.append((c["lang"], c["question"], doc, gold))
                break
    langs = sorted({p[0] for p in probes})
    print(f"{len(probes)} of {len(cases)} suite questions have a unit holding an expected quote "
          f"({', '.join(f'{lang} {sum(p[0] == lang for p in probes)}' for lang in langs)}); "
          f"{sum(len(v) for v in doc_units.values())} units of {len(doc_units)} documents, "
          f"{time.perf_counter() - t:.0f}s", flush=True)
    ks = (1, 5, 20)
    cache = EmbeddingCache(cache_dir)
    rows = []
    for name in names:
        p = provider_for(name)
        t = time.perf_counter()
        vecs = {d: embed_cached(p, [u.text for u in doc_units[d]], cache) for d in {pr[2] for pr in probes}}
        t_embed = time.perf_counter() - t
        qv = p.embed_queries([pr[1] for pr in probes])
        for lang in langs:
            got = [[bool(set(np.argsort(-(vecs[d] @ v), kind="stable")[:k]) & gold) for k in ks]
                   for (lg, _q, d, gold), v in zip(probes, qv) if lg == lang]
            rows.append([name, lang, len(got), *np.mean(got, axis=0).round(3).tolist(), round(t_embed)])
            print("  ", rows[-1], flush=True)
    print_table(["provider", "lang", "questions", "hit@1", "hit@5", "hit@20", "embed s"], rows,
                title="eval-suite narrative questions, within the evidence document, dense only")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--providers", default=None)
    ap.add_argument("--n-en", type=int, default=200)
    ap.add_argument("--n-zh", type=int, default=100)
    ap.add_argument("--recall", action="store_true")
    ap.add_argument("--suite", action="store_true", help="the eval suite's narrative questions, per language")
    ap.add_argument("--lang", default=None, help="with --suite: only the questions in this language (en / zh)")
    ap.add_argument("--max-questions", type=int, default=None)
    ap.add_argument("--cache", default=str(REPO / ".bench" / "embed-cache"))
    ap.add_argument("--max-doc-units", type=int, default=None, help="only questions on documents with <= N units")
    ap.add_argument("--max-pages", type=int, default=None, help="only questions on documents with <= N pages")
    a = ap.parse_args()
    if a.suite:
        suite_recall((a.providers or "minilm-onnx,e5-small").split(","), a.cache, a.lang)
    elif a.recall:
        names = (a.providers or "minilm-onnx,minilm-onnx@256,e5-small").split(",")
        recall(names, a.max_questions, a.cache, a.max_doc_units, a.max_pages)
    else:
        names = (a.providers or "minilm-onnx,minilm-onnx@256,minilm,minilm@256,e5-small,hashing").split(",")
        speed(names, a.n_en, a.n_zh)


if __name__ == "__main__":
    main()
