"""The eval suite runner: a labelled suite (JSON lines, ``router/eval_suite.jsonl``) -> per-category
answer accuracy, router accuracy, citation validity, refusal precision and recall.

Expected values in the suite were read from the corpus documents, never from this code's output."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from schema.models import Answer

SUITE = Path(__file__).resolve().parent / "eval_suite.jsonl"


@dataclass
class CaseResult:
    id: str
    category: str
    question: str
    expected_status: str
    status: str
    route_ok: bool
    correct: bool
    citations_ok: bool
    seconds: float
    why: str = ""
    lang: str = "en"


@dataclass
class Report:
    results: list[CaseResult] = field(default_factory=list)

    def figures(self) -> dict:
        r = self.results
        refused = [x for x in r if x.status == "no_data"]
        should_refuse = [x for x in r if x.expected_status == "no_data"]
        by_cat: dict[str, list[CaseResult]] = defaultdict(list)
        for x in r:
            by_cat[x.category].append(x)
        answered = [x for x in r if x.status == "answered"]
        return {
            "cases": len(r),
            "answer_accuracy": _ratio(sum(x.correct for x in r), len(r)),
            "router_accuracy": _ratio(sum(x.route_ok for x in r), len(r)),
            "citation_validity": _ratio(sum(x.citations_ok for x in answered), len(answered)),
            "refusal_precision": _ratio(sum(x.expected_status == "no_data" for x in refused), len(refused)),
            "refusal_recall": _ratio(sum(x.status == "no_data" for x in should_refuse), len(should_refuse)),
            "by_category": {c: {"cases": len(xs), "accuracy": _ratio(sum(x.correct for x in xs), len(xs)),
                                "router": _ratio(sum(x.route_ok for x in xs), len(xs))}
                            for c, xs in sorted(by_cat.items())},
            # each category per question language (the narrative suite in English and in Chinese)
            "by_category_language": {f"{c}/{lang}": {"cases": len(ys), "accuracy": _ratio(sum(y.correct for y in ys), len(ys))}
                                     for c, xs in sorted(by_cat.items())
                                     for lang in sorted({x.lang for x in xs})
                                     for ys in [[x for x in xs if x.lang == lang]]},
            "p50_seconds": sorted(x.seconds for x in r)[len(r) // 2] if r else None,
        }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def load_suite(path: str | Path | None = None) -> list[dict]:
    path = Path(path or SUITE)
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return cases


def _value_matches(expected: dict, rows: list) -> bool:
    want = Decimal(str(expected["value"]))
    tol = Decimal(str(expected.get("tolerance", "0")))
    for r in rows:
        if r.metric != expected["metric"]:
            continue
        if expected.get("fiscal_year") is not None and r.fiscal_year != expected["fiscal_year"]:
            continue
        if expected.get("fiscal_period") and r.fiscal_period != expected["fiscal_period"]:
            continue
        if expected.get("company_id") and r.company_id != expected["company_id"]:
            continue
        if expected.get("stock_code") and r.stock_code != expected["stock_code"]:
            continue
        if abs(Decimal(r.value) - want) <= tol:
            return True
    return False


def _evidence_matches(evidence: list[dict], answer: Answer, page_text) -> bool:
    """At least one expected evidence item is cited: a passage from the same document on the expected page, or
    (where the suite gives no page: iXBRL filings, transcripts) on a page that contains the expected quote."""
    for ev in evidence:
        for p in answer.passages:
            src = p.source
            if ev.get("doc_name") and src.get("doc_name") != ev["doc_name"]:
                continue
            if ev.get("page") is not None:
                if src.get("page") == ev["page"]:
                    return True
                continue
            quote = " ".join((ev.get("quote") or "").split())
            if not quote or quote[:80] in " ".join(page_text(src["document_id"], src["page"]).split()):
                return True
    return False


def judge(case: dict, answer: Answer, citations_ok: bool, page_text=lambda d, p: "") -> tuple[bool, bool, str]:
    exp = case["expected"]
    route_ok = answer.route == exp.get("route", answer.route)
    if exp["status"] == "no_data":
        return answer.status == "no_data", route_ok, "" if answer.status == "no_data" else "should refuse"
    if answer.status != "answered":
        return False, route_ok, f"refused: {answer.reason}"
    cited = {p.company_id for p in answer.passages}
    for cid in exp.get("companies", []):
        # a named company must be resolved; for "which companies ..." questions it must be covered by passages
        if cid not in answer.plan.get("companies", []) and cid not in cited:
            return False, route_ok, f"company {cid} neither resolved nor cited"
    missing = [v for v in exp.get("values", []) if not _value_matches(v, answer.rows)]
    if missing:
        return False, route_ok, f"missing value {missing[0]}"
    if exp.get("evidence") and not _evidence_matches(exp["evidence"], answer, page_text):
        return False, route_ok, "expected evidence not cited"
    return citations_ok, route_ok, "" if citations_ok else "invalid citation"


def citations_valid(con, answer: Answer) -> bool:
    for r in answer.rows:
        doc = r.source.get("document_id")
        if not con.execute("SELECT 1 FROM documents WHERE document_id = ?", [doc]).fetchone():
            return False
    for p in answer.passages:
        row = con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?",
                          [p.source["document_id"], p.source["page"]]).fetchone()
        if row is None or p.text not in row[0]:
            return False
    return True


def _page_text(con, document_id: str, page: int) -> str:
    row = con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [document_id, page]).fetchone()
    return row[0] if row else ""


def run(router, con, cases: list[dict], on_case=None) -> Report:
    report = Report()
    for case in cases:
        t0 = time.perf_counter()
        answer = router.ask(case["question"])
        seconds = time.perf_counter() - t0
        ok_cites = citations_valid(con, answer) if answer.status == "answered" else True
        correct, route_ok, why = judge(case, answer, ok_cites, lambda d, p: _page_text(con, d, p))
        result = CaseResult(case["id"], case["category"], case["question"], case["expected"]["status"], answer.status,
                            route_ok, correct, ok_cites, seconds, why, case.get("lang", "en"))
        report.results.append(result)
        if on_case:
            on_case(result)
    return report
