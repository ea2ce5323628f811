"""Question -> QueryPlan: companies, periods, metrics, intent and route, by small rules over data
(mappings' aliases, the company master in the warehouse). No model, no network."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import duckdb

from mappings.metrics import metrics, ratios
from router.entities import Lexicon, build_lexicon, find_companies
from router.periods import find_periods
from schema.models import QueryPlan

_CJK = re.compile(r"[\u4e00-\u9fff]")

# Abbreviations users type, expanded before metric matching.
_EXPAND = {
    r"\br\s?&\s?d\b": "research and development",
    r"\bcap\s?ex\b": "capital expenditure",
    r"\bsg&a\b": "selling general and administrative",
    r"\beps\b": "earnings per share",
    r"\bdiluted earnings per share\b": "diluted eps",
}

_NARRATIVE = re.compile(
    r"\b(how|why|what (?:did|does|do|are|were|is) .{0,40}(?:say|said|describe|discuss|mention|expect|plan|risk|strateg)|"
    r"describe[sd]?|discuss(?:ed|es)?|explain|mention(?:s|ed)?|comment(?:s|ed)?|said|say|says|outlook|guidance|"
    r"strategy|strategies|risks?|risk factors|uncertaint\w*|challenges?|drivers?|reasons?|pricing power|tariffs?|"
    r"competition|litigation|management|md&a|narrative|headwinds?|tailwinds?|impact|affect(?:ed)?|according to)\b|"
    r"如何|为什么|為什麼|原因|描述|提到|提及|说明|說明|表示|战略|戰略|展望|风险|風險|挑战|影响|影響|管理层|管理層|讨论|討論|"
    r"主要业务|经营情况|业务|業務",
    re.I)
_WHY = re.compile(r"\b(why|reasons?|drivers?|driven by|explain|because|due to|what (?:drove|caused))\b|为什么|為什麼|原因|驱动|由于",
                  re.I)
_TREND = re.compile(r"\b(trend|over time|history|historical|series|each year|per year|by year|year over year|"
                    r"evolution|trajectory)\b|趋势|趨勢|历年|歷年|逐年|各年|变化|變化|走势", re.I)
_COMPARE = re.compile(r"\b(compare|comparison|versus|vs\.?|against|relative to|higher|lower|bigger|larger|smaller|"
                      r"more than|less than|which (?:company|one))\b|对比|對比|比较|比較|相比|哪家|高于|低于", re.I)
_GROWTH = re.compile(r"\b(how much (?:did|has|have) .{0,60}(?:increase|decrease|grow|rise|fall|decline|drop)|growth|grow|grows|growing|grew|increase[sd]?|decrease[sd]?|decline[sd]?|change[sd]?|yoy|year[- ]over[- ]year|"
                     r"rose|fell)\b|增长|增長|增速|同比|变动|下降|上升|增减|扭亏|减少|增加", re.I)
_SECTIONS = [
    # "risk factors", "risks" (plural: the risks a company faces); a singular "risk" names one risk (credit risk,
    # VaR risk) that MD&A or the notes discuss, so it is no section filter
    (re.compile(r"risk factors?|\brisks\b|风险|風險|uncertaint", re.I), "risk_factors"),
    (re.compile(r"md&a|management'?s discussion|管理层讨论|管理層討論|经营情况讨论", re.I), "mdna"),
    (re.compile(r"chairman|主席報告|主席报告|董事长致辞", re.I), "chairman_statement"),
    (re.compile(r"legal proceedings|litigation|诉讼", re.I), "legal"),
    # "analysts" alone is no call ("answer as an equity analyst would", "an analyst would ask about"); "analysts
    # asked", "analyst questions" are
    (re.compile(r"earnings calls?|conference calls?|\bcalls?\b|analysts?['’]?\s+(?:ask|asked|asking|questions?)|"
                r"q&a|transcripts?|业绩会|電話會議|电话会", re.I), "transcript"),
]


@lru_cache(maxsize=1)
def metric_lexicon() -> list[tuple[str, str]]:
    """(alias as matched, metric or ratio id), longest alias first."""
    out: dict[str, str] = {}
    for m in metrics().values():
        for a in (m.name_zh, *m.aliases):
            out.setdefault(_norm(a), m.id)
    for rid, spec in ratios().items():
        for a in (spec.get("name_zh"), *spec.get("aliases", [])):
            if a:
                out[_norm(a)] = rid  # a ratio alias wins over a metric alias ("gross margin")
    # ids and display names last: explicit aliases decide ("net income" is the parent's, as in us-gaap)
    for m in metrics().values():
        for a in (m.id.replace("_", " "), m.name_en):
            out.setdefault(_norm(a), m.id)
    for rid, spec in ratios().items():
        for a in (rid.replace("_", " "), spec.get("name_en")):
            if a:
                out.setdefault(_norm(a), rid)
    # bare words too ambiguous to name a metric on their own
    for word in ("assets", "liabilities", "cash", "sales", "收入", "收益", "income", "earnings"):
        out.pop(word, None)
    out["sales"] = "revenue"
    return sorted(out.items(), key=lambda kv: -len(kv[0]))


@lru_cache(maxsize=1)
def _t2s():
    from opencc import OpenCC

    return OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional Chinese to Simplified for matching (營業收入 -> 营业收入); other text unchanged."""
    return _t2s().convert(text) if _CJK.search(text) else text


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", to_simplified(text)).casefold()).strip()


def find_metrics(question: str) -> list[str]:
    text = _norm(question)
    for pattern, repl in _EXPAND.items():
        text = re.sub(pattern, repl, text)
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    for alias, mid in metric_lexicon():
        if _CJK.search(alias):
            spans = [(m.start(), m.end()) for m in re.finditer(re.escape(alias), text)]
        else:
            spans = [(m.start(), m.end()) for m in
                     re.finditer(r"(?<![A-Za-z0-9&])" + re.escape(alias) + r"(?![A-Za-z0-9&])", text)]
        for span in spans:
            if not any(span[0] < b and a < span[1] for a, b in taken):
                taken.append(span)
                found.append((span[0], mid))
    found.sort()
    out: list[str] = []
    for _, mid in found:
        if mid not in out:
            out.append(mid)
    return out


class Planner:
    """Plans questions against one warehouse (its company master and listings)."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self._lexicon: Lexicon | None = None

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = build_lexicon(self.con)
        return self._lexicon

    def plan(self, question: str) -> QueryPlan:
        companies = find_companies(question, self.lexicon)
        if _CJK.search(question):  # Traditional names too: 藥明康德, 凱萊英
            simplified = to_simplified(question)
            if simplified != question:
                known = {c.company_id for c in companies}
                companies += [c for c in find_companies(simplified, self.lexicon) if c.company_id not in known]
        periods, last_n = find_periods(question)
        metric_ids = find_metrics(question)
        language = "zh" if _CJK.search(question) else "en"
        narrative = bool(_NARRATIVE.search(question))
        why = bool(_WHY.search(question))
        growth = bool(_GROWTH.search(question))
        if metric_ids:
            if why or (narrative and not _COMPARE.search(question) and re.search(
                    r"\b(how|why|describe|discuss|explain|said|say)\b|如何|为什么|描述|说明|讨论", question, re.I)):
                intent = "mixed"
            elif len(companies) >= 2:
                intent = "comparison"
            elif last_n or len({p.fiscal_year for p in periods}) >= 2 or _TREND.search(question):
                intent = "trend"
            else:
                intent = "metric"
        else:
            intent = "narrative"
        route = {"metric": "sql", "comparison": "sql", "trend": "sql", "narrative": "search", "mixed": "mixed"}[intent]
        sections = [sid for rx, sid in _SECTIONS if rx.search(question)] if route != "sql" else []
        return QueryPlan(question=question, companies=companies, periods=periods, metrics=metric_ids, intent=intent,
                         route=route, sections=sections, last_n_years=last_n, growth=growth, language=language)
