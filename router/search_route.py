"""The search route: hybrid search with the plan's filters, evidence per company for comparisons, and an
extractive answer: the best sentences of each passage quoted verbatim with their citation. No number is
ever computed from search text."""

from __future__ import annotations

import re
from collections.abc import Callable

from mappings.statements import statements_named
from schema.models import Passage, QueryPlan
from vectorstore.hybrid import diversify
from vectorstore.index import NarrativeIndex
from vectorstore.sparse import tokenize

_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s+|(?<=[。！？；])|\n")
MIN_EVIDENCE = 1.0  # evidence_strength of the best unit; below it the evidence is too weak to answer


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences (or lines) of a unit."""
    spans, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def best_quote(text: str, query_terms: set[str], max_chars: int = 420) -> tuple[int, int]:
    """The span of the 1-2 consecutive sentences that share most terms with the query."""
    spans = sentences(text)
    if not spans:
        return 0, len(text)
    best, best_score = spans[0], -1.0
    for i, (a, b) in enumerate(spans):
        for j in (i, i + 1):
            if j >= len(spans):
                continue
            end = spans[j][1]
            if end - a > max_chars and j > i:
                continue
            terms = set(tokenize(text[a:end]))
            length = end - a
            cjk = sum(1 for ch in text[a:end] if "\u4e00" <= ch <= "\u9fff")
            # a heading alone ("4、质量安全风险") is no quote: favour sentences of some substance
            substance = min(1.0, (length + cjk * 2) / 120)
            score = (len(terms & query_terms) + 0.5) * substance / (1 + 0.002 * length)
            if score > best_score:
                best, best_score = (a, end), score
    a, b = best
    if b - a > max_chars:  # one long sentence: keep its head
        b = a + max_chars
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


_FILTER_WORDS = re.compile(
    r"\b(?:earnings|conference)\s+calls?\b|\bcalls?\b|\b10-?[KQ]\b|\bannual report\b|\bfiscal(?: year)?\b|"
    r"\b(?:first|second|third|fourth) quarter\b|\bquarter\b|\b(?:in|on|its|their|the|of|for|did|does|do|what|how|"
    r"say|said|describe|described|according to)\b|年报|年度报告|半年报|业绩会|电话会|如何|怎样|怎么|描述|哪些|什么|"
    r"是否|评价|提到|提及|说明|面临|主要|的|了|吗", re.I)


def widenings(filters: dict, any_year: bool = True) -> list[dict]:
    """Looser filters to retry with, in order, when the strict ones find nothing: the next year's report too
    (it carries the year as comparatives); with ``any_year`` (search, not answers: an answer about a year
    must come from that year's reports) the years around it (a report looks one year ahead and shows two
    years back), then any year; then any report type; any section; any quarter."""
    out, current = [], dict(filters)
    if "fiscal_year" in current:
        years = current["fiscal_year"]
        for offsets in ((0, 1), (-1, 0, 1, 2)) if any_year else ((0, 1),):
            current = dict(current, fiscal_year=sorted({y + d for y in years for d in offsets}))
            out.append(current)
        if any_year:
            current = {k: v for k, v in current.items() if k != "fiscal_year"}
            out.append(current)
    for key in ("report_type", "section", "fiscal_period"):
        if key in current:
            current = {k: v for k, v in current.items() if k != key}
            out.append(current)
    return out


def statements_hint(plan: QueryPlan) -> list[str]:
    """The primary statements a question points at (see ``mappings.statements.statements_named``)."""
    return statements_named(plan.question, plan.metrics)


def content_query(plan: QueryPlan) -> str:
    """The question without what became filters (company names, periods, "earnings call", "10-K"), so the
    ranking looks at the topic, not at boilerplate that repeats the company and period on every page."""
    text = plan.question
    for piece in [c.matched for c in plan.companies] + [p.matched for p in plan.periods if p.matched]:
        text = text.replace(piece, " ")
    text = _FILTER_WORDS.sub(" ", text)
    text = re.sub(r"(?<![A-Za-z])['’]s\b", " ", text)  # the possessive left behind by a removed name
    text = re.sub(r"\s+", " ", text).strip(" ?？，,。")
    return text if len(tokenize(text)) >= 1 else plan.question


# A report the question names ("in its 10-K", 半年报): the forms (documents.form) that are that report.
_FORMS = [
    (re.compile(r"\b10-?K\b|\b20-?F\b|\bannual reports?\b|(?<!半)年报|(?<!半)年度报告|(?<!半)年報", re.I), ["10-K", "20-F", "annual", "summary"]),
    (re.compile(r"\b10-?Q\b|\bquarterly reports?\b|季报|季度报告|季報", re.I), ["10-Q", "q1", "q3"]),
    (re.compile(r"\binterim reports?\b|半年报|半年度报告|中期报告|中期報告", re.I), ["interim", "interim_summary"]),
    (re.compile(r"\b8-?K\b", re.I), ["8-K"]),
    (re.compile(r"\b(?:earnings|press) releases?\b", re.I), ["earnings_release"]),
]


def forms_named(question: str) -> list[str]:
    return sorted({f for pattern, forms in _FORMS if pattern.search(question) for f in forms})


def filters_for(plan: QueryPlan) -> dict:
    filters: dict = {}
    forms = forms_named(plan.question)
    if forms:
        filters["report_type"] = forms
    if plan.companies:
        filters["company_id"] = [c.company_id for c in plan.companies]
    years = sorted({p.fiscal_year for p in plan.periods if p.fiscal_year})
    if years:  # the year's own report; `widen` adds the next year's report (comparatives) when that finds nothing
        filters["fiscal_year"] = years
    sections = [s for s in plan.sections if s != "transcript"]
    if sections:
        filters["section"] = sorted({s for sec in sections for s in ([sec, "principal_risks"] if sec == "risk_factors" else [sec])})
    # narrative answers quote prose and call transcripts; statement pages are for `filings search`
    filters["kind"] = ["narrative", "transcript"]
    if "transcript" in plan.sections:
        filters["kind"] = ["transcript"]
        quarters = sorted({p.fiscal_period for p in plan.periods if p.fiscal_period and p.fiscal_period.startswith("Q")})
        if quarters:  # a call is about one fiscal quarter
            filters["fiscal_period"] = quarters
    return filters


_BROAD = re.compile(r"\b(which|what) (companies|firms|issuers|retailers|banks|ones)\b|哪些公司|哪几家|哪些企业", re.I)


def make_searcher(index: NarrativeIndex, k: int = 8, per_company: int = 3,
                  min_evidence: float = MIN_EVIDENCE) -> Callable[[QueryPlan, dict], list[Passage]]:
    def search(plan: QueryPlan, filters: dict) -> list[Passage]:
        query = content_query(plan)
        broad = not plan.companies and bool(_BROAD.search(query))
        # "which companies ...": many companies, one passage each; one company: its best passages
        n, cap = (12, 1) if broad else (k, per_company if len(plan.companies) != 1 else None)
        groups = [dict(filters, company_id=[c.company_id]) for c in plan.companies] if len(plan.companies) > 1 \
            else [filters]
        hits = []
        for f in groups:  # per company, so one company's passages never crowd out another's
            found = index.search(query, f, k=n * 4)
            for looser in widenings(f, any_year=False):
                if found:
                    break
                found = index.search(query, looser, k=n * 4)
            hits += found[: n * 4]
        if not hits:
            return []
        terms = set(tokenize(query))
        best_text = max(hits, key=lambda h: h.score).payload["text"]
        lexical = len(terms & set(tokenize(best_text))) / len(terms) if terms else 0.0
        asked_section = bool(filters.get("section")) and bool(filters.get("company_id"))
        if not asked_section and lexical < 0.5 and index.evidence_strength(query, filters) < min_evidence:
            return []  # neither the words nor the meaning of the question are found: too weak to answer
        hits = diversify(sorted(hits, key=lambda h: -h.score), per_company=cap, k=n)
        out = []
        for h in hits:
            p = h.payload
            text = p["text"]
            a, b = best_quote(text, terms)
            out.append(Passage(
                text=text[a:b], company_id=p.get("company_id"), score=h.score,
                source={"document_id": p["document_id"], "doc_name": p["doc_name"], "page": p["page"],
                        "section": p.get("section"), "char_start": p["char_start"] + a, "char_end": p["char_start"] + b},
            ))
        return out

    return search
