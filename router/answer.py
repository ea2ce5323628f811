"""Plan -> Answer: the SQL route's rows and the search route's passages, with citations, caveats and the
honesty checks (every quote an exact substring of its source, every number in the text found in the rows
or quotes). An answer that fails a check is not returned as answered."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

import duckdb

from mappings.fx import convert, load_rates
from mappings.metrics import metrics, ratios
from router import sql_route as S
from router.plan import Planner
from router.search_route import filters_for
from schema.models import Answer, AnswerRow, Passage, QueryPlan

LIMITED_COVERAGE = 5  # fewer documents than this for a company -> a caveat
# Asked for one, shown with the other: "净利润" / net income is read as both the consolidated figure and
# the parent's share, so neither reading is silently chosen.
COMPANIONS = {"net_income": ["net_income_parent"]}
# numbers as a reader sees them; digits glued to letters (H1, Q2, p82, f-66) are labels, not numbers
_NUM = re.compile(r"(?<![A-Za-z0-9.,\-])-?\d[\d,]*(?:\.\d+)?")


def _metric_name(mid: str, zh: bool) -> str:
    base = mid.removesuffix("_yoy").removesuffix("_change_pp")
    if base in ratios():
        name = ratios()[base]["name_zh" if zh else "name_en"]
    else:
        m = metrics()[base]
        name = m.name_zh if zh else m.name_en
    if mid.endswith("_yoy"):
        name += " 同比变动" if zh else " YoY change"
    elif mid.endswith("_change_pp"):
        name += " 变动(百分点)" if zh else " change (percentage points)"
    return name


def plain(value: Decimal, places: int | None = None) -> str:
    """An exact decimal without exponent or trailing zeros (or rounded to ``places``)."""
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
        return f"{value:f}"
    text = f"{value.normalize():f}" if value == value.to_integral() else f"{value:f}".rstrip("0").rstrip(".")
    return text if "." in text or "E" not in text else f"{value:f}"


def _money(value: Decimal) -> str:
    places = 2 if value != value.to_integral() else 0
    return f"{value:,.{places}f}"


def format_value(v: S.Value) -> str:
    if v.derived in {"yoy"} or (v.derived == "ratio" and ratios()[v.metric].get("unit") == "percent"):
        return f"{v.value * 100:.2f}%"
    if v.derived == "pp":
        return f"{v.value:+.2f} pp"
    if v.derived == "ratio" and ratios()[v.metric].get("unit") == "ratio":
        return f"{v.value:.2f}x"
    kind = metrics()[v.metric].kind if v.metric in metrics() else "money"
    if kind == "per_share":
        return f"{v.currency or ''} {plain(v.value)} per share".strip()
    if kind == "shares":
        return f"{_money(v.value)} shares"
    return f"{v.currency or ''} {_money(v.value)}".strip()


def _period_text(v: S.Value, zh: bool) -> str:
    end = f", to {v.period_end}" if v.period_end else ""
    if zh:
        name = {"FY": "年度", "H1": "上半年", "9M": "前三季度", "Q1": "第一季度", "Q2": "第二季度", "Q3": "第三季度",
                "Q4": "第四季度"}[v.fiscal_period]
        return f"{v.fiscal_year}{name}" + (f"（截至{v.period_end}）" if v.period_end else "")
    return f"{v.fiscal_period} {v.fiscal_year}{end}"


def _source_text(v: S.Value) -> str:
    def one(s: dict) -> str:
        page = s.get("page")
        return f"{s['doc_name']} {'p' + str(page) if str(page).isdigit() else page}"
    return "; ".join(one(s) for s in v.sources[:3])


def _row(v: S.Value, converted: dict | None) -> AnswerRow:
    first = v.sources[0]
    page = first.get("page")
    return AnswerRow(
        company_id=v.company_id, stock_code=v.stock_code, market=v.market, fiscal_year=v.fiscal_year,
        fiscal_period=v.fiscal_period, period_end=v.period_end, metric=v.metric,
        value=plain(v.value.quantize(Decimal("1e-10")) if v.derived else v.value),
        currency=v.currency, accounting_standard=v.standard, original_label=v.label,
        source={"document_id": first["document_id"], "doc_name": first["doc_name"],
                "page": int(page) if str(page).isdigit() else page},
        converted=converted,
    )


class Router:
    """Answers questions over one warehouse. ``searcher(query, filters, k)`` returns passages for the
    search route (None: narrative questions answer no_data until the search index is built)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, searcher: Callable | None = None, home=None):
        self.con = con
        self.planner = Planner(con)
        self.searcher = searcher
        self.rates = load_rates(home)

    # ------------------------------------------------------------------------------------------
    def ask(self, question: str) -> Answer:
        plan = self.planner.plan(question)
        if plan.route == "sql":
            answer = self._sql(plan)
        elif plan.route == "search":
            answer = self._search(plan)
        else:
            answer = self._mixed(plan)
        return self._checked(answer)

    def _base(self, plan: QueryPlan, **kw) -> Answer:
        # the plan's notes (a non-GAAP measure not answered with the GAAP one, the reading of EBIT) are caveats
        kw["caveats"] = list(dict.fromkeys([*plan.notes, *kw.get("caveats", [])]))
        return Answer(question=plan.question, route=plan.route, plan=self.plan_dict(plan), **kw)

    @staticmethod
    def plan_dict(plan: QueryPlan) -> dict:
        return {
            "companies": [c.company_id for c in plan.companies],
            "periods": [f"{p.fiscal_period or 'FY'}{p.fiscal_year}" if p.fiscal_year else p.relative for p in plan.periods]
            + ([f"last_{plan.last_n_years}_years"] if plan.last_n_years else []),
            "metrics": plan.metrics,
            "intent": plan.intent,
            "sections": plan.sections,
            "matched": {c.company_id: c.matched for c in plan.companies},
        }

    # ------------------------------------------------------------------------------- SQL route
    def _coverage(self, company_ids: list[str]) -> list[str]:
        caveats = []
        for cid in company_ids:
            n = self.con.execute("SELECT count(*) FROM documents WHERE company_id = ?", [cid]).fetchone()[0]
            if n < LIMITED_COVERAGE:
                caveats.append(f"limited coverage: {n} document{'s' if n != 1 else ''} indexed for {cid}")
        return caveats

    def _targets(self, plan: QueryPlan, keys: list[tuple], metric: str, index) -> tuple[list[tuple], list[str]]:
        """Which (stock_code, fiscal_year, fiscal_period) keys answer the plan for one company and metric."""
        have = [k for k in keys if S.metric_at(metric, k, index) is not None]
        fy = sorted({k for k in have if k[3] == "FY"}, key=lambda k: k[2], reverse=True)
        missing: list[str] = []
        explicit = S.plan_periods(plan)
        if explicit:
            out = []
            for year, period in explicit:
                want = period or "FY"
                hits = [k for k in have if k[2] == year and k[3] == want]
                if not hits and period is None:  # "2024年" with no annual figure yet: nothing guessed
                    pass
                if hits:
                    out += hits
                else:
                    missing.append(f"{want}{year}")
            return out, missing
        if plan.last_n_years:
            years = sorted({k[2] for k in fy}, reverse=True)[: plan.last_n_years]
            return [k for k in fy if k[2] in years], missing
        if fy:
            latest = fy[0][2]
            return [k for k in fy if k[2] == latest], missing
        if have:
            latest = max(have, key=lambda k: (str(S.metric_at(metric, k, index).period_end), k[3]))
            return [latest], missing
        return [], missing

    def _sql_values(self, plan: QueryPlan) -> tuple[list[S.Value], list[str], list[str]]:
        company_ids = [c.company_id for c in plan.companies]
        wanted = list(dict.fromkeys(m for mid in plan.metrics for m in [mid, *COMPANIONS.get(mid, [])]))
        rows = S.fetch(self.con, company_ids, S.base_metrics_of(wanted))
        index = S.index_rows(rows)
        values: list[S.Value] = []
        gaps: list[str] = []
        available: list[str] = []
        for cid in company_ids:
            keys = [k for k in index if k[0] == cid]
            for metric in wanted:
                targets, missing = self._targets(plan, keys, metric, index)
                for k in sorted(targets, key=lambda k: (k[2], k[3], k[1])):
                    v = S.metric_at(metric, k, index)
                    values.append(v)
                    if plan.growth:
                        prev = S.metric_at(metric, (k[0], k[1], k[2] - 1, k[3]), index)
                        g = S.growth(v, prev) if prev else None
                        if g:
                            values.append(g)
                            if all((x.metric, x.stock_code, x.fiscal_year, x.fiscal_period)
                                   != (prev.metric, prev.stock_code, prev.fiscal_year, prev.fiscal_period) for x in values):
                                values.append(prev)  # the base of the change, with its own source
                if (missing or not targets) and metric in plan.metrics:
                    gaps.append(f"{metric} for {cid}" + (f" ({', '.join(missing)})" if missing else ""))
                    periods = [f"{p}{y}" for y, p in sorted({(k[2], k[3]) for k in keys if S.metric_at(metric, k, index)})]
                    available.append(f"{cid} {metric}: " + (", ".join(periods[-8:]) if periods else "none"))
        return values, gaps, available

    def _convert(self, values: list[S.Value]) -> tuple[dict[int, dict], list[str]]:
        money = [v for v in values if v.currency and S.is_money(v.metric)]
        currencies = {v.currency for v in money}
        if len(currencies) <= 1:
            return {}, []
        target = "USD"
        out, caveats = {}, []
        for v in money:
            if v.currency == target:
                continue
            res = convert(v.value, v.currency, target, v.period_end, self.rates)
            if res is None:
                caveats.append(f"no FX rate for {v.currency}->{target}: {v.company_id} shown in {v.currency} only")
                continue
            amount, rate, direct = res
            out[id(v)] = {"value": f"{amount.quantize(Decimal('0.01')):,}", "currency": target,
                          "fx_rate": plain(rate.rate), "fx_pair": f"{rate.base}/{rate.quote}",
                          "fx_date": rate.date.isoformat(), "fx_source": rate.source}
        caveats.append(f"different currencies ({', '.join(sorted(currencies))}): converted to {target} at query time; "
                       "original values kept")
        return out, caveats

    def _component_rows(self, values: list[S.Value], plan: QueryPlan) -> list[AnswerRow]:
        """The stored values a ratio was computed from, each with its own source."""
        shown = {(v.stock_code, v.fiscal_year, v.fiscal_period, v.metric) for v in values}
        rows = S.fetch(self.con, [c.company_id for c in plan.companies],
                       sorted({m for v in values if v.derived == "ratio" for m in v.components}))
        out = []
        for v in values:
            if v.derived != "ratio":
                continue
            for r in rows:
                key = (r["stock_code"], r["fiscal_year"], r["fiscal_period"], r["metric_name"])
                if key[:3] == (v.stock_code, v.fiscal_year, v.fiscal_period) and key[3] in v.components \
                        and key not in shown:
                    shown.add(key)
                    out.append(_row(S._value(r), None))
        return out

    def _sql(self, plan: QueryPlan) -> Answer:
        zh = plan.language == "zh"
        if not plan.companies:
            return self._base(plan, status="no_data", reason="no company in the warehouse matches the question; "
                              "`filings companies` lists the companies available")
        invalid = [p.matched for p in plan.periods if p.relative == "invalid"]
        if invalid:
            return self._base(plan, status="no_data", reason=f"no such period: {invalid[0]!r}")
        values, gaps, available = self._sql_values(plan)
        if not values:
            return self._base(plan, status="no_data", caveats=self._coverage([c.company_id for c in plan.companies]),
                              reason=f"not in the warehouse: {'; '.join(gaps)}. Available: {'; '.join(available)}")
        converted, caveats = self._convert(values)
        standards = {v.standard for v in values if v.standard}
        if len(standards) > 1:
            caveats.append(f"different accounting standards: {' vs '.join(sorted(standards))}")
        if any(v.restated for v in values):
            caveats.append("a value marked restated: reports of that period disagree; the period's own report is used")
        listings = {}
        for v in values:
            listings.setdefault(v.company_id, set()).add(v.stock_code)
        for cid in {c.company_id for c in plan.companies}:
            codes = [r[0] for r in self.con.execute("SELECT stock_code FROM securities WHERE company_id = ?", [cid]).fetchall()]
            if len(codes) > 1 and cid in listings:
                caveats.append(f"{cid} has listings {', '.join(sorted(codes))}: numbers are from the "
                               f"{', '.join(sorted(listings[cid]))} report(s)")
        if gaps:
            caveats.append(f"not available: {'; '.join(gaps)}")
        caveats += self._coverage([c.company_id for c in plan.companies])
        lines = []
        names = {c.company_id: c.matched for c in plan.companies}
        for v in values:
            conv = converted.get(id(v))
            extra = f" (≈ {conv['currency']} {conv['value']} at {conv['fx_pair']} {conv['fx_rate']} on {conv['fx_date']})" if conv else ""
            std = f"{v.standard}; " if v.standard else ""
            lines.append(f"{names.get(v.company_id, v.company_id)} ({v.stock_code}) {_metric_name(v.metric, zh)}, "
                         f"{_period_text(v, zh)}: {format_value(v)}{extra} [{std}{_source_text(v)}]")
        rows = [_row(v, converted.get(id(v))) for v in values]
        rows += self._component_rows(values, plan)
        return self._base(plan, status="answered", answer="\n".join(lines), rows=rows, caveats=caveats)

    # ---------------------------------------------------------------------------- search route
    def _search(self, plan: QueryPlan) -> Answer:
        if self.searcher is None:
            return self._base(plan, status="no_data",
                              reason="the narrative search index is not built for this warehouse")
        passages = self.searcher(plan, filters_for(plan))
        if not passages:
            return self._base(plan, status="no_data", reason="no passage in the indexed filings is close enough to "
                              "the question (evidence below the threshold)",
                              caveats=self._coverage([c.company_id for c in plan.companies]))
        text = "\n".join(f"\"{p.text}\" [{p.source.get('doc_name')} p{p.source.get('page')}"
                         f"{', ' + p.source['section'] if p.source.get('section') else ''}]" for p in passages[:5])
        return self._base(plan, status="answered", answer=text, passages=passages,
                          caveats=self._coverage([c.company_id for c in plan.companies]))

    def _mixed(self, plan: QueryPlan) -> Answer:
        numbers = self._sql(plan)
        words = self._search(plan)
        status = "answered" if numbers.status == "answered" or words.status == "answered" else "no_data"
        answer = "\n".join(t for t in (numbers.answer, words.answer) if t)
        reason = None if status == "answered" else "; ".join(r for r in (numbers.reason, words.reason) if r)
        caveats = list(dict.fromkeys(numbers.caveats + words.caveats))
        if numbers.status != "answered" and numbers.reason:
            caveats.append(f"numbers: {numbers.reason}")
        if words.status != "answered" and words.reason:
            caveats.append(f"passages: {words.reason}")
        return self._base(plan, status=status, answer=answer, rows=numbers.rows, passages=words.passages,
                          caveats=caveats, reason=reason)

    # ----------------------------------------------------------------------------- honesty
    def _page_text(self, document_id: str, page: int) -> str | None:
        row = self.con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [document_id, page]).fetchone()
        return row[0] if row else None

    def _checked(self, answer: Answer) -> Answer:
        if answer.status != "answered":
            return answer
        problems = []
        for p in answer.passages:
            src = p.source
            page_text = self._page_text(src["document_id"], src["page"])
            if page_text is None or p.text not in page_text:
                problems.append(f"quote not found in {src.get('doc_name')} p{src.get('page')}")
        bad = unsupported_numbers(answer)
        if bad:
            problems.append(f"numbers not in rows or quotes: {', '.join(bad[:5])}")
        if problems:
            return answer.model_copy(update={"status": "no_data", "reason": "answer failed its checks: " + "; ".join(problems)})
        return answer


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "").lstrip("+") for n in _NUM.findall(text or "")}


def _forms(value: str) -> set[str]:
    """Textual forms a row value may take in the answer text."""
    d = Decimal(value)
    forms = {plain(d), plain(d, 2), plain(d, 0), plain(d * 100, 2), plain(d, 4)}
    return {f.lstrip("-") for f in forms} | forms


def unsupported_numbers(answer: Answer) -> list[str]:
    allowed: set[str] = set()
    for r in answer.rows:
        allowed |= _forms(r.value)
        allowed |= {str(r.fiscal_year), r.stock_code}
        allowed |= _numbers(str(r.period_end)) | _numbers(str(r.source.get("page"))) | _numbers(r.source.get("doc_name", ""))
        allowed |= _numbers(r.stock_code) | _numbers(r.original_label or "")
        if r.converted:
            allowed |= _forms(r.converted["value"].replace(",", "")) | _forms(r.converted["fx_rate"]) | _numbers(r.converted["fx_date"])
    for p in answer.passages:
        allowed |= _numbers(p.text) | _numbers(str(p.source.get("page"))) | _numbers(p.source.get("doc_name", ""))
    allowed |= _numbers(" ".join(answer.plan.get("matched", {}).values()))
    return sorted(n for n in _numbers(answer.answer) if n not in allowed and n.lstrip("-") not in allowed)
