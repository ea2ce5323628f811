"""The SQL route's answer: which stored periods answer a plan, the values (metrics, printed or computed
ratios, changes, CAGR, N-year averages, trailing twelve months), FX conversion by period, caveats, and the
rows with every input's source."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import duckdb

from mappings.analysis import analysis
from mappings.fx import FxTable
from router import calendar, growth
from router import sql_route as S
from router.answer_text import line, plain
from router.fx_convert import convert_values
from router.trailing import ttm
from schema.models import AnswerRow, QueryPlan
from warehouse import lookup

LIMITED_COVERAGE = 5  # fewer documents than this for a company -> a caveat
# Asked for one, shown with the other: "净利润" / net income is read as both the consolidated figure and
# the parent's share, so neither reading is silently chosen.
COMPANIONS = {"net_income": ["net_income_parent"]}
# Asked for one and not stored, shown with the other and said so: a filer that prints only its consolidated net
# income (no non-controlling interests) has no separate parent's share; the answer names the figure it shows.
FALLBACKS = {"net_income_parent": ["net_income"]}


@dataclass
class MetricAnswer:
    status: str
    text: str = ""
    rows: list[AnswerRow] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    reason: str | None = None


def _citation(s: dict) -> dict:
    page = s.get("page")
    return {"document_id": s["document_id"], "doc_name": s["doc_name"], "page": int(page) if str(page).isdigit() else page}


def answer_row(v: S.Value, converted: dict | None) -> AnswerRow:
    """One answer row; ``source`` is its first source, ``source["also_in"]`` the others (a computed value's
    other inputs, the period's own report when it prints the same figure)."""
    first = v.sources[0]
    page = first.get("page")
    return AnswerRow(
        company_id=v.company_id, stock_code=v.stock_code, market=v.market, fiscal_year=v.fiscal_year,
        fiscal_period=v.fiscal_period, period_end=v.period_end, metric=v.metric,
        value=plain(v.value.quantize(Decimal("1e-10")) if v.derived else v.value),
        currency=v.currency, accounting_standard=v.standard, original_label=v.label,
        source={"document_id": first["document_id"], "doc_name": first["doc_name"],
                "page": int(page) if str(page).isdigit() else page,
                **({"also_in": [_citation(s) for s in v.sources[1:]]} if len(v.sources) > 1 else {})},
        converted=converted,
        fiscal_year_label=v.fiscal_label if v.fiscal_label != v.fiscal_year else None,
    )


def period_name(key: tuple, index) -> str:
    """A stored period as a gap list names it: FY2023, with the company's own name when it differs
    ("FY2023 (its fiscal 2022)")."""
    name = f"{key[3]}{key[2]}"
    label = S.label_at(key, index)
    return name if label == key[2] else f"{name} (its fiscal {label})"


def span_years(plan: QueryPlan, op: str, available: list[int], offset: int = 0) -> list[int]:
    """The fiscal years a CAGR or an average runs over: the range the question names, or N years ("3 year",
    "last three years") ending at the year it names or at the latest stored year. ``offset``: the company's
    label minus fiscal_year, for years named as the company names them ("fiscal 2022-2024")."""
    explicit = sorted({p.fiscal_year - (offset if calendar.company_named(p) else 0) for p in plan.periods
                       if p.relative is None and p.fiscal_year})
    n = analysis().years_spanned(plan.question) or plan.last_n_years
    points = (n + 1 if op == "cagr" else n) if n else None
    if len(explicit) >= 2:
        return list(range(explicit[0], explicit[-1] + 1))
    end = explicit[0] if explicit else (max(available) if available else None)
    if end is None:
        return []
    if points:
        return list(range(end - points + 1, end + 1))
    return sorted(y for y in available if y <= end)


class MetricAnswerer:
    def __init__(self, con: duckdb.DuckDBPyConnection, home=None):
        self.con = con
        self.home = home
        self._fx: FxTable | None = None

    @property
    def fx(self) -> FxTable:
        if self._fx is None:  # the FX history loads on the first cross-currency answer only
            self._fx = FxTable(self.home)
        return self._fx

    # ------------------------------------------------------------------------------- periods
    def _targets(self, plan: QueryPlan, keys: list[tuple], metric: str, index) -> tuple[list[tuple], list[str]]:
        """Which (company, listing, fiscal_year, fiscal_period) keys answer the plan for one metric."""
        have = [k for k in keys if S.metric_at(metric, k, index) is not None]
        fy = sorted({k for k in have if k[3] == "FY"}, key=lambda k: k[2], reverse=True)
        missing: list[str] = []
        own = plan.company_periods.get(keys[0][0]) if keys else None  # the periods the question pairs with it
        explicit = [p for i, p in enumerate(plan.periods) if p.relative is None and (own is None or i in own)]
        if explicit:
            out = []
            for ref in explicit:  # a date, the company's own "fiscal N", or the fiscal year ending in N
                hits = calendar.keys_for(ref, have, lambda k: S.label_at(k, index),
                                         lambda k: S.metric_at(metric, k, index).period_end)
                if not hits and calendar.loosely_named(ref):
                    hits = calendar.keys_for(ref.model_copy(update={"fiscal": False}), have,
                                             lambda k: S.label_at(k, index), lambda k: None)
                    if hits:  # the other reading, said so
                        missing.append(f"{ref.matched} as the company names its years is not stored; shown: the "
                                       f"fiscal year ending in {ref.fiscal_year}, which {ref.matched} also names")
                if hits:
                    out += hits
                else:
                    missing.append(ref.matched if ref.period_end is not None or calendar.company_named(ref)
                                   else f"{ref.fiscal_period or 'FY'}{ref.fiscal_year}")
            return list(dict.fromkeys(out)), missing
        if plan.last_n_years:
            years = sorted({k[2] for k in fy}, reverse=True)[: plan.last_n_years]
            return [k for k in fy if k[2] in years], missing
        latest_period = any(p.relative == "latest_period" for p in plan.periods)
        if have and (latest_period or (S.is_instant(metric) and any(p.relative == "latest" for p in plan.periods))):
            # the newest report's figure: a balance at the latest date stored; a flow over the newest report's own
            # period (its year to date before a single quarter of the same end)
            order = {"FY": 0, "9M": 1, "H1": 2}
            return [max(have, key=lambda k: (str(S.metric_at(metric, k, index).period_end), -order.get(k[3], 3)))], missing
        if fy:
            latest = fy[0][2]
            return [k for k in fy if k[2] == latest], missing
        if have:
            latest = max(have, key=lambda k: (str(S.metric_at(metric, k, index).period_end), k[3]))
            return [latest], missing
        return [], missing

    def _span(self, plan: QueryPlan, op: str, keys, metric: str, index) -> tuple[list[S.Value], list[str]]:
        """CAGR or average of one metric per listing over the span of years."""
        periods = {p for _, p in S.plan_periods(plan) if p} or {"FY"}
        period = sorted(periods)[0]
        out, missing = [], []
        for code in sorted({k[1] for k in keys}):
            available = sorted({k[2] for k in keys if k[1] == code and k[3] == period
                                and S.metric_at(metric, k, index) is not None})
            offset = calendar.year_offset([k for k in keys if k[1] == code], lambda k: S.label_at(k, index))
            years = span_years(plan, op, available, offset)
            if len(years) < 2:
                missing.append(f"{op} needs at least two fiscal years of {metric} for {code}")
                continue
            cid = keys[0][0]
            series = [S.metric_at(metric, (cid, code, y, period), index) for y in years]
            gaps = [f"{period}{y}" for y, v in zip(years, series) if v is None]
            if gaps:
                missing.append(f"{metric} for {code} ({', '.join(gaps)})")
                continue
            if op == "cagr":
                out += [series[0], series[-1], growth.cagr(series[0], series[-1])]
            else:
                out += series + [growth.average(series)]
        return out, missing

    def values(self, plan: QueryPlan) -> tuple[list[S.Value], list[str], list[str]]:
        """(values to show, gaps, what is available instead)."""
        op = analysis().operation(plan.question)
        company_ids = [c.company_id for c in plan.companies]
        wanted = list(dict.fromkeys(m for mid in plan.metrics for m in [mid, *COMPANIONS.get(mid, [])]))
        fallbacks = [m for mid in plan.metrics for m in FALLBACKS.get(mid, []) if m not in wanted]
        index = S.index_rows(S.fetch(self.con, company_ids, S.base_metrics_of(wanted + fallbacks)))
        values: list[S.Value] = []
        gaps: list[str] = []
        available: list[str] = []
        for cid in company_ids:
            keys = [k for k in index if k[0] == cid]
            for metric in wanted:
                found, missing = self._metric_values(plan, op, keys, metric, index)
                shown = ""
                if not found and metric in plan.metrics:
                    for alt in (m for m in FALLBACKS.get(metric, []) if m not in wanted):
                        found, _ = self._metric_values(plan, op, keys, alt, index)
                        if found:
                            shown = f"; {alt} shown instead"
                            break
                values += [v for v in found if all(v is not x for x in values)]
                if (missing or not found or shown) and metric in plan.metrics:
                    gaps.append(f"{metric} for {cid}" + (f" ({'; '.join(missing)}{shown})" if missing else
                                                         f" ({shown[2:]})" if shown else ""))
                    periods = [period_name(k, index) for k in sorted({k for k in keys if S.metric_at(metric, k, index)},
                                                                     key=lambda k: (k[2], k[3]))]
                    periods = list(dict.fromkeys(periods))
                    available.append(f"{cid} {metric}: " + (", ".join(periods[-8:]) if periods else "none"))
        return values, gaps, available

    def _metric_values(self, plan: QueryPlan, op: str | None, keys, metric: str, index) -> tuple[list[S.Value], list[str]]:
        if not keys:
            return [], []
        if op in {"cagr", "average"}:
            return self._span(plan, op, keys, metric, index)
        if op == "ttm":
            out, missing = [], []
            named = [p for p in plan.periods if p.relative is None]
            for code in sorted({k[1] for k in keys}):
                mine = [k for k in keys if k[1] == code]
                stored = [k for k in mine if metric in (index.get(k) or {})]
                ends = [k for ref in named[:1] for k in calendar.keys_for(
                    ref, stored, lambda k: S.label_at(k, index), lambda k: index[k][metric]["period_end"])]
                if named and not ends:
                    missing.append(f"TTM to {named[0].matched}: no stored period of {code} there")
                    continue
                v, why = ttm(metric, mine, index, at=ends[0] if ends else None)
                if v is None:
                    missing.append(why)
                else:
                    out += [*v.inputs, v] if len(v.inputs) > 1 else [v]
            return out, missing
        targets, missing = self._targets(plan, keys, metric, index)
        out: list[S.Value] = []
        for k in sorted(targets, key=lambda k: (k[2], k[3], k[1])):
            v = S.metric_at(metric, k, index)
            out.append(v)
            if plan.growth:
                prev = S.metric_at(metric, (k[0], k[1], k[2] - 1, k[3]), index)
                if prev is not None:
                    out.append(growth.change(v, prev))
                    if all((x.metric, x.key) != (prev.metric, prev.key) for x in out):
                        out.append(prev)  # the base of the change, with its own source
                else:  # the change asked for is not silently left out
                    missing.append(f"change on a year earlier: {metric} for {k[3]} {k[2] - 1} is not stored")
        return out, missing

    # ------------------------------------------------------------------------------- caveats
    def _coverage(self, company_ids: list[str]) -> list[str]:
        caveats = []
        for cid in company_ids:
            n = self.con.execute("SELECT count(*) FROM documents WHERE company_id = ?", [cid]).fetchone()[0]
            if n < LIMITED_COVERAGE:
                caveats.append(f"limited coverage: {n} document{'s' if n != 1 else ''} indexed for {cid}")
        return caveats

    def _caveats(self, plan: QueryPlan, values: list[S.Value]) -> list[str]:
        caveats = []
        standards = {v.standard for v in values if v.standard}
        if len(standards) > 1:
            caveats.append(f"different accounting standards: {' vs '.join(sorted(standards))}")
        restated = [v for v in values if v.restated]
        if any(v.source_kind != "comparative" for v in restated):
            caveats.append("a value marked restated: reports of that period disagree; the period's own report is used")
        later = sorted({f"{v.fiscal_period}{v.fiscal_year}" for v in restated if v.source_kind == "comparative"})
        if later:
            caveats.append(f"restated by a later report: {', '.join(later)} shown as last reported (the cited report); "
                           "the period's own report printed another figure (table financial_metrics_as_reported)")
        for v in values:
            if v.fiscal_label is not None and v.fiscal_label != v.fiscal_year and not v.derived:
                named = any(analysis().fiscal_named(p.matched) for p in plan.periods)
                note = (f"{v.company_id} names the fiscal year ended {v.period_end} “fiscal {v.fiscal_label}” "
                        f"(fiscal_year {v.fiscal_year} here: the year it ends in)")
                if not named:
                    note += f"; a year without “fiscal” is read by period end (ask for “fiscal {v.fiscal_year}” " \
                            "for the company's own naming)"
                if note not in caveats:
                    caveats.append(note)
        caveats += calendar.calendar_caveats(plan, values)
        listings: dict[str, set[str]] = {}
        for v in values:
            listings.setdefault(v.company_id, set()).add(v.stock_code)
        for cid in dict.fromkeys(c.company_id for c in plan.companies):
            codes = [r[0] for r in self.con.execute("SELECT stock_code FROM securities WHERE company_id = ?", [cid]).fetchall()]
            if len(codes) > 1 and cid in listings:
                caveats.append(f"{cid} has listings {', '.join(sorted(codes))}: numbers are from the "
                               f"{', '.join(sorted(listings[cid]))} report(s)")
        return caveats

    # -------------------------------------------------------------------------------- answer
    def answer(self, plan: QueryPlan) -> MetricAnswer:
        zh = plan.language == "zh"
        company_ids = [c.company_id for c in plan.companies]
        if not plan.companies:
            hints = lookup.suggest_in_question(self.con, plan.question)
            return MetricAnswer("no_data", reason="no company in the warehouse matches the question; " +
                                (f"did you mean {' or '.join(hints)}? " if hints else "") +
                                "`filings companies` lists the companies available")
        invalid = [p.matched for p in plan.periods if p.relative == "invalid"]
        if invalid:
            return MetricAnswer("no_data", reason=f"no such period: {invalid[0]!r}")
        values, gaps, available = self.values(plan)
        if not values:
            return MetricAnswer("no_data", caveats=self._coverage(company_ids),
                                reason=f"not in the warehouse: {'; '.join(gaps)}. Available: {'; '.join(available)}")
        converted, caveats = convert_values(values, self.fx if self._needs_fx(values) else None)
        caveats = self._caveats(plan, values) + caveats
        if gaps:
            caveats.append(f"not available: {'; '.join(gaps)}")
        caveats += self._coverage(company_ids)
        names = {c.company_id: c.matched for c in plan.companies}
        lines = [line(v, names.get(v.company_id, v.company_id), zh, converted.get(id(v))) for v in values]
        rows = [answer_row(v, converted.get(id(v))) for v in values]
        shown = {(v.metric, v.key) for v in values}
        pending = [i for v in values for i in v.inputs]
        while pending:  # the stored inputs of computed values (and of their inputs), each with its own source
            i = pending.pop(0)
            if (i.metric, i.key) not in shown:
                shown.add((i.metric, i.key))
                rows.append(answer_row(i, None))
            pending += i.inputs
        return MetricAnswer("answered", "\n".join(lines), rows, caveats)

    @staticmethod
    def _needs_fx(values: list[S.Value]) -> bool:
        return len({v.currency for v in values if v.currency and S.is_money(v.metric)}) > 1
