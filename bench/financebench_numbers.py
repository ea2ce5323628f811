"""FinanceBench dev questions whose answer is a number: the share `filings ask` answers with the right number
and an evidence page, by question type.

    .venv/bin/python bench/financebench_numbers.py [--home DIR] [--skip-ingest] [--failures]

Ingests the FinanceBench PDFs (numbers only: --no-index) unless --skip-ingest, asks every dev question whose
answer is a number, and compares the answer's rows with the dataset:

- the number: the dataset's answer is its first number ("$5818.00" in USD millions, "10.3%", "24.26"). A row
  matches when its value, read in the unit the question asks for (units, thousands, millions, billions; a
  fraction as a percent), equals the dataset's figure at the dataset's precision (rounded half up), or lies
  within ``REL_TOLERANCE`` of it (FinanceBench rounds some inputs before computing, and states some
  answers to fewer digits than its own arithmetic);
- the evidence page: one of the answer's citations (its rows' sources, ``source`` and ``source["also_in"]``: a
  computed value's stored inputs are rows of their own, a figure printed by two reports cites both) is in the dataset's evidence document on an evidence page (``evidence_page_num`` is 0-indexed; ours
  are 1-based).

A question counts as right only with both. Prints the share by question type, by half of the tuning protocol
(``financebench_retrieval.split``: by company, fixed; mappings are tuned on the tuning half only and the
checking half is the figure that counts) and overall.
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from common import REPO, corpus_root, financebench_dev, print_table
from financebench_retrieval import split

from filings import Filings

# FinanceBench answers are rounded from inputs that are sometimes rounded themselves (a 3-year average of
# margins each rounded to 0.1%): 1% relative covers that and nothing a different line item would give.
REL_TOLERANCE = Decimal("0.01")
_NUMBER = re.compile(r"-?\$?\s?\(?-?\d[\d,]*(?:\.\d+)?\)?\s?%?")
_SCALES = {"thousand": Decimal(10) ** 3, "million": Decimal(10) ** 6, "billion": Decimal(10) ** 9}


def expected_number(answer: str) -> tuple[Decimal, int, bool] | None:
    """(value, decimal places, is a percent) of the answer's first number, None when it has none."""
    m = _NUMBER.search(answer or "")
    if not m:
        return None
    token = m.group(0)
    negative = "-" in token or "(" in token
    digits = re.sub(r"[^\d.]", "", token)
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    places = len(digits.split(".")[1]) if "." in digits else 0
    return (-value if negative else value), places, token.strip().endswith("%")


def number_question(q: dict) -> bool:
    """A question whose answer is a number: the answer starts with it ("$5818.00", "10.3%", "0.54")."""
    return bool(re.match(r"^\s*[-$(]?\s?\$?\d", q.get("answer") or ""))


def unit_scale(question: str) -> Decimal:
    m = re.search(r"\bin\s+(?:usd\s+|us\$\s*|\$\s*)?(thousand|million|billion)s?\b", question, re.I) or \
        re.search(r"\b(?:usd|us\$)\s+(thousand|million|billion)s?\b", question, re.I)
    return _SCALES[m.group(1).lower()] if m else Decimal(1)


def matches(row_value: Decimal, expected: tuple[Decimal, int, bool], scale: Decimal) -> bool:
    want, places, percent = expected
    candidates = [row_value / scale]
    if percent or abs(row_value) < 10:  # a fraction answered as a percent
        candidates.append(row_value * 100)
    for c in candidates:
        rounded = c.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        if rounded == want or (want != 0 and abs(c - want) <= abs(want) * REL_TOLERANCE):
            return True
    return False


def judge(q: dict, answer) -> tuple[bool, bool, str]:
    """(right number, right number with an evidence page, why not)."""
    if answer.status != "answered":
        return False, False, f"no_data: {(answer.reason or '')[:120]}"
    expected = expected_number(q["answer"])
    scale = unit_scale(q["question"])
    evidence = {(e.get("doc_name") or q["doc_name"], int(e["evidence_page_num"]) + 1) for e in q.get("evidence") or []}
    # the answer's citations: every row's source (a computed value's inputs are rows of their own)
    cited = {(s.get("doc_name"), s.get("page")) for r in answer.rows for s in [r.source, *r.source.get("also_in", [])]}
    number_ok = any(matches(Decimal(r.value), expected, scale) for r in answer.rows)
    if number_ok and cited & evidence:
        return True, True, ""
    if number_ok:
        return True, False, "right number, no evidence page among its sources"
    return False, False, "wrong number: " + "; ".join(f"{r.metric} {r.fiscal_period}{r.fiscal_year} {r.value}"
                                                      for r in answer.rows[:4])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, default=REPO / ".bench" / "financebench_numbers")
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--failures", action="store_true", help="print every question not answered right")
    args = ap.parse_args()
    fb = corpus_root() / "us" / "financebench"
    questions = financebench_dev()
    halves = split(questions)  # over every dev question, as the retrieval bench splits them
    questions = [q for q in questions if number_question(q)]
    if not args.skip_ingest:
        with Filings(args.home) as f:
            report = f.ingest(fb / "pdfs", index=False)
            print(f"ingest: added {report.count('added')}, unchanged {report.count('unchanged')}, "
                  f"failed {report.count('failed')}")
    by_type: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    by_half: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    failures = []
    with Filings(args.home, read_only=True) as f:
        for q in questions:
            answer = f.ask(q["question"])
            number_ok, both, why = judge(q, answer)
            by_type[q["question_type"]].append((number_ok, both))
            by_half[f"{halves[q['company']].upper()} half"].append((number_ok, both))
            if not both:
                failures.append((q["financebench_id"], halves[q["company"]], q["question_type"], q["doc_name"],
                                 q["answer"][:40], why))
    rows = []
    groups = sorted(by_type.items()) + sorted(by_half.items(), reverse=True) + \
        [("all", [x for v in by_type.values() for x in v])]
    for qtype, results in groups:
        n = len(results)
        rows.append([qtype, n, sum(a for a, _ in results), sum(b for _, b in results),
                     f"{sum(b for _, b in results) / n:.1%}" if n else "n/a"])
    print_table(["question type / half", "number questions", "right number", "right number + evidence page", "share"],
                rows, title="FinanceBench dev: number answers from `filings ask`")
    if args.failures:
        for f_ in failures:
            print(" | ".join(f_))


if __name__ == "__main__":
    main()
