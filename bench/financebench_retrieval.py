"""FinanceBench evidence-page retrieval in the shared store (all FinanceBench PDFs, the US iXBRL filings,
the transcripts and the CN / HK reports in one warehouse), with the question text as the query.

    .venv/bin/python bench/financebench_retrieval.py [--home DIR] [--skip-ingest] [--fb-only]

Prints the ingest time of the FinanceBench set including embeddings, then Recall@1/5/10/20 and MRR of
evidence pages (``evidence_page_num`` is 0-indexed in the dataset; our pages are 1-based), overall, by question
type and by half of the tuning protocol, for: the shared store with the filters the query names (what
`filings search` does), the shared store without filters (--raw), and inside the right document.

Tuning protocol: the dev questions are split by company (:func:`split`, fixed): companies in order of their
question count (most first, then by name) go to whichever half has fewer questions so far, the tuning half on a
tie. Weights and vocabulary are tuned on the tuning half only; every kept change reports both halves, and the
checking half is the figure that counts.
"""

from __future__ import annotations

import argparse
import logging
import time
from collections import defaultdict
from pathlib import Path

from common import REPO, corpus_root, evidence_pages, financebench_dev, print_table

from filings import Filings

KS = (1, 5, 10, 20)


def _ingest(f: Filings, paths: list[Path], label: str) -> None:
    t0 = time.perf_counter()
    report = f.ingest(*paths)
    print(f"ingest {label}: added {report.count('added')}, unchanged {report.count('unchanged')}, "
          f"failed {report.count('failed')} in {time.perf_counter() - t0:.1f} s", flush=True)
    for r in report.failed:
        print("  failed:", r.reason)


def _score(ranked: list[tuple[str, int]], evidence: set[tuple[str, int]]) -> dict:
    first = next((i for i, hit in enumerate(ranked) if hit in evidence), None)
    out = {f"R@{k}": float(first is not None and first < k) for k in KS}
    out["MRR"] = 1.0 / (first + 1) if first is not None and first < 20 else 0.0
    return out


def split(questions: list[dict]) -> dict[str, str]:
    """Company -> "tuning" | "checking": the fixed split of the tuning protocol (see the module docstring)."""
    counts: dict[str, int] = defaultdict(int)
    for q in questions:
        counts[q["company"]] += 1
    halves = {"tuning": 0, "checking": 0}
    out = {}
    for company in sorted(counts, key=lambda c: (-counts[c], c)):
        half = "tuning" if halves["tuning"] <= halves["checking"] else "checking"
        out[company] = half
        halves[half] += counts[company]
    return out


def main() -> None:
    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", default=str(REPO / ".bench" / "shared"))
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--fb-only", action="store_true", help="only the FinanceBench PDFs in the store")
    args = ap.parse_args()
    corpus = corpus_root()
    fb = corpus / "us" / "financebench"
    with Filings(args.home) as f:
        if not args.skip_ingest:
            _ingest(f, [fb / "pdfs"], "FinanceBench PDFs (pages, sections, statements, embeddings)")
            if not args.fb_only:
                _ingest(f, [corpus / "us" / "ixbrl", corpus / "transcripts", corpus / "cn", corpus / "hk"],
                        "rest of the shared store")
        units = sum(f.index.engine.count(name) for _m, name in f.index.collections())
        print(f"search units in the store: {units:,}", flush=True)
        questions = financebench_dev()
        doc_ids = dict(f.con.execute("SELECT doc_name, document_id FROM documents").fetchall())
        missing = sorted({q["doc_name"] for q in questions} - set(doc_ids))
        if missing:
            print(f"documents of dev questions not in the store: {missing}")
        halves = split(questions)
        print("tuning half:", ", ".join(sorted(c for c, h in halves.items() if h == "tuning")))
        print("checking half:", ", ".join(sorted(c for c, h in halves.items() if h == "checking")))
        modes = {"shared, query filters": {}, "shared, raw": {"raw": True}, "inside the right document": {}}
        results: dict[str, list[tuple[str, dict]]] = defaultdict(list)
        latencies = []
        for q in questions:
            evidence = evidence_pages(q)
            for mode, kw in modes.items():
                t0 = time.perf_counter()
                if mode == "inside the right document":
                    kw = {"document": doc_ids.get(q["doc_name"], "?")}
                res = f.search(q["question"], k=20, **kw)
                ranked = [(h["doc_name"], h["page"]) for h in res["hits"]]
                if mode == "shared, query filters":
                    latencies.append(time.perf_counter() - t0)
                results[mode].append((q.get("question_type", "?"), halves[q["company"]], _score(ranked, evidence)))
    for mode, rows in results.items():
        table = []
        by_type: dict[str, list[dict]] = defaultdict(list)
        for qtype, half, s in rows:
            by_type[qtype].append(s)
            by_type["ALL"].append(s)
            by_type[f"{half.upper()} half"].append(s)
        order = ["ALL", "TUNING half", "CHECKING half"]
        for qtype, ss in sorted(by_type.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else 9, kv[0])):
            table.append([qtype, len(ss)] + [f"{sum(s[m] for s in ss) / len(ss):.3f}" for m in [*(f'R@{k}' for k in KS), 'MRR']])
        print_table(["question type", "n", "R@1", "R@5", "R@10", "R@20", "MRR"], table,
                    title=f"FinanceBench dev evidence-page retrieval: {mode}")
    latencies.sort()
    print(f"search latency (shared store, with filters): p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, "
          f"p95 {latencies[int(len(latencies) * 0.95)] * 1000:.0f} ms over {len(latencies)} queries")


if __name__ == "__main__":
    main()
