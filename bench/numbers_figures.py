"""The figures of the answer side, over one warehouse (default: a whole-corpus ingest):

    .venv/bin/python bench/numbers_figures.py --home DIR [--suite router/eval_suite.jsonl]

- printed ratios stored, per market and metric (加权平均净资产收益率 and the like), with example answers and
  the page each cites;
- trailing twelve months computable at query time (company x flow metric), and the identity
  Q1 + Q2 + Q3 + Q4 = FY over every stored fiscal year that has all four quarters (derived ones included);
- FX: every conversion the eval suite's answers make, with the distance of its rate from the period
  (closing: days from the rate's fixing to the period end; average: days its first / last fixing lie from the
  period's start / end), the count and the maximum.
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections import Counter

from common import REPO, print_table

from filings import Filings
from router.calendar import period_start
from router.evaluate import load_suite
from router.trailing import ttm
from router import sql_route as S

FLOWS = ["revenue", "net_income_parent", "operating_cash_flow"]


def printed_ratios(f: Filings) -> None:
    rows = f.sql("SELECT market, metric_name, count(*) AS n, count(DISTINCT company_id) AS companies "
                 "FROM financial_metrics WHERE metric_name IN ('roe_weighted', 'roe_weighted_excl_nonrecurring') "
                 "GROUP BY ALL ORDER BY 1, 2")
    print_table(["market", "metric", "values", "companies"], rows.values.tolist(), title="printed ratios stored")
    eps = f.sql("SELECT market, count(*) FROM financial_metrics WHERE metric_name = 'eps_basic' GROUP BY 1 ORDER BY 1")
    print_table(["market", "basic EPS values (as printed)"], eps.values.tolist())
    for q in ("金花股份2024年净资产收益率", "药明康德2025年上半年净资产收益率", "华润三九2024年净资产收益率"):
        a = f.ask(q)
        cite = [(r.metric, r.value, r.source.get("doc_name"), r.source.get("page")) for r in a.rows[:1]]
        print(f"{q} -> {a.status}: {a.answer.splitlines()[0] if a.answer else a.reason} {cite}")


def ttm_and_quarters(f: Filings) -> None:
    companies = [r[0] for r in f.con.execute("SELECT DISTINCT company_id FROM financial_metrics").fetchall()]
    index = S.index_rows(S.fetch(f.con, companies, FLOWS))
    done, refused = Counter(), Counter()
    for cid in companies:
        for code in sorted({k[1] for k in index if k[0] == cid}):
            keys = [k for k in index if k[:2] == (cid, code)]
            for metric in FLOWS:
                if not any(metric in index[k] for k in keys):
                    continue
                v, _why = ttm(metric, keys, index)
                (done if v is not None else refused)[metric] += 1
    print_table(["metric", "TTM computable (listings)", "not computable"],
                [[m, done[m], refused[m]] for m in FLOWS], title="trailing twelve months at query time")
    checks = f.sql("""
        WITH q AS (SELECT stock_code, fiscal_year, metric_name,
                          sum(metric_value) FILTER (WHERE fiscal_period IN ('Q1','Q2','Q3','Q4')) AS quarters,
                          count(*) FILTER (WHERE fiscal_period IN ('Q1','Q2','Q3','Q4')) AS n,
                          count(*) FILTER (WHERE fiscal_period IN ('Q1','Q2','Q3','Q4') AND source_kind = 'derived') AS derived,
                          any_value(metric_value) FILTER (WHERE fiscal_period = 'FY') AS fy
                   FROM financial_metrics WHERE metric_name IN ('revenue', 'net_income_parent', 'operating_cash_flow')
                   GROUP BY ALL)
        SELECT metric_name, count(*) AS years, sum(derived) AS derived_quarters,
               count(*) FILTER (WHERE quarters = fy) AS equal,
               count(*) FILTER (WHERE abs(quarters - fy) <= 1000 AND quarters <> fy) AS within_rounding,
               count(*) FILTER (WHERE abs(quarters - fy) > 1000) AS differ
        FROM q WHERE n = 4 AND fy IS NOT NULL GROUP BY 1 ORDER BY 1""")
    print_table(["metric", "years with Q1-Q4 and FY", "derived quarters among them", "Q1+Q2+Q3+Q4 = FY",
                 "within 1,000 (rounding)", "differ"], checks.values.tolist(), title="quarters add up to the year")


def fx(f: Filings, suite) -> None:
    distances: list[tuple[int, str]] = []
    refused = 0
    for case in load_suite(suite):
        a = f.ask(case["question"])
        refused += sum(1 for c in a.caveats if c.startswith("not converted"))
        for r in a.rows:
            c = r.converted
            if not c or r.period_end is None:
                continue
            end = r.period_end
            if c["fx_kind"] == "closing":
                days = (end - dt.date.fromisoformat(c["fx_date"])).days
            else:
                start = period_start(end, r.fiscal_period)
                days = max(abs((dt.date.fromisoformat(c["fx_start"]) - start).days),
                           abs((end - dt.date.fromisoformat(c["fx_date"])).days))
            distances.append((days, f"{case['id']} {r.stock_code} {r.metric} {r.fiscal_period}{r.fiscal_year} "
                                    f"{c['fx_kind']} {c['fx_pair']} {c['fx_rate']} {c.get('fx_start') or ''} {c['fx_date']}"))
    print(f"FX conversions in the eval suite: {len(distances)}; refused (no rate near the period): {refused}")
    if distances:
        worst = max(distances)
        print(f"max distance of a rate from its period: {worst[0]} days ({worst[1]})")
        for d, what in sorted(distances)[-5:]:
            print(f"  {d:>3} days  {what}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True)
    ap.add_argument("--suite", default=str(REPO / "router" / "eval_suite.jsonl"))
    args = ap.parse_args()
    with Filings(args.home, read_only=True) as f:
        printed_ratios(f)
        ttm_and_quarters(f)
        fx(f, args.suite)


if __name__ == "__main__":
    main()
