"""Typed records that flow between parsers, the warehouse and the router.

Parsers produce a :class:`ParsedDocument` (document identity, pages, raw facts); the warehouse turns
facts into :class:`FinancialMetric` rows through ``mappings``. Money values are ``Decimal`` in base
units (yuan, HK$, US$; never thousands) from the moment a parser emits them.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Market = Literal["US", "A", "HK"]
FiscalPeriod = Literal["FY", "Q1", "Q2", "Q3", "Q4", "H1", "9M"]
Standard = Literal["US_GAAP", "IFRS", "HKFRS", "CAS"]
SourceKind = Literal["own_report", "comparative", "derived"]
Basis = Literal["latest", "as_reported"]
# Which statement a printed (PDF) fact was read from. XBRL facts leave it None.
Statement = Literal["key_figures", "balance", "income", "cashflow", "other"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid")


class Company(_Model):
    company_id: str  # stable slug, e.g. "apple", "wuxi_apptec"
    name_en: str | None = None
    name_zh: str | None = None
    cik: str | None = None
    aliases: list[str] = Field(default_factory=list)


class Security(_Model):
    stock_code: str  # AAPL, 600080, 2359.HK
    company_id: str
    market: Market
    listing: Literal["A", "H", "ADR", "US"]
    exchange: str | None = None


class Page(_Model):
    page: int  # 1-based physical page number, blank pages included
    text: str  # whitespace folded
    ocr: bool = False  # text came from OCR, not the text layer


class Fact(_Model):
    """One raw fact with its source, as read from the filing (nothing mapped or dropped)."""

    concept: str | None = None  # XBRL qname ("us-gaap:Revenues"); None for printed PDF rows
    label: str | None = None  # label linkbase / printed row label ("减：营业成本", "Total net sales")
    value: Decimal | None = None  # numeric value in base units (scale already applied)
    value_text: str | None = None  # the text as printed / the fact's text value
    unit: str | None = None  # ISO currency ("USD", "CNY"), "shares", "USD/shares", "pure"
    decimals: int | None = None  # XBRL decimals attribute
    scale: int | None = None  # power of ten applied to the printed number (3 for '000, 4 for 万元)
    original_unit: str | None = None  # as printed: "万元", "HK$'000", "millions"
    period_start: dt.date | None = None  # None for instants
    period_end: dt.date | None = None  # the instant date for instants
    period_type: Literal["duration", "instant"] | None = None
    dimensions: dict[str, str] = Field(default_factory=dict)  # axis -> member
    statement: Statement | None = None
    consolidated: bool = True  # False for parent-only (母公司) statements
    page: int | None = None  # 1-based physical page for PDF facts
    locator: str | None = None  # XBRL fact id / "p12 r5 c3" for PDF facts
    column: str | None = None  # printed column header the value sat under ("本期发生额", "2024")


NameKind = Literal["name_zh", "name_en", "short_name", "abbreviation", "former_name", "code", "ticker", "cik"]


class IssuerName(_Model):
    """A name form a filing prints about its own issuer (full names, 证券简称, English name, former names,
    listing codes, CIK), with the page it is printed on (None for an XBRL cover fact)."""

    kind: NameKind
    text: str
    page: int | None = None


class DocumentInfo(_Model):
    """What recognition found out about a document (content first, file name second)."""

    document_id: str = ""  # sha256 of the file bytes; the warehouse fills it in
    file_name: str = ""
    market: Market | None = None
    company_name: str | None = None
    company_id: str | None = None  # resolved against mappings' company master when known
    stock_code: str | None = None  # primary listing of this report
    other_codes: list[str] = Field(default_factory=list)  # other listings printed in the report
    cik: str | None = None
    form: str | None = None  # 10-K, 10-Q, 20-F, 8-K, annual, interim, q1, q3, summary,
    # results_announcement, mda_extract, fund_fs, transcript, earnings_release
    fiscal_year: int | None = None  # year in which the fiscal year ends
    fiscal_period: FiscalPeriod | None = None
    period_end: dt.date | None = None
    fiscal_year_end_month: int | None = None  # 12 for A-shares; 9 for Apple; 1 for Nvidia / Walmart
    language: str | None = None  # en, zh-Hans, zh-Hant, en+zh-Hant
    currency: str | None = None  # ISO 4217
    accounting_standard: Standard | None = None
    pages: int | None = None
    company_metrics: bool = True  # False for ETF fund statements / MD&A extracts: pages only
    names: list[IssuerName] = Field(default_factory=list)  # name forms the document prints about its issuer


class SectionSpan(_Model):
    """A named narrative section found in a document, as a span over its pages.

    Offsets are character offsets into ``Page.text`` of the start / end page (end exclusive). A transcript's
    "pages" are its speaker turns, so a span there covers turns."""

    section: str  # canonical id: business, risk_factors, mdna, market_risk, financial_statements, legal,
    # controls, chairman_statement, principal_risks, significant_events (重要事项), prepared_remarks, qa, ...
    title: str | None = None  # the heading as printed ("Item 1A. Risk Factors", "第三节 管理层讨论与分析")
    page_start: int
    char_start: int = 0
    page_end: int
    char_end: int | None = None  # None: to the end of page_end
    confidence: float = 1.0  # 0..1
    pointer: bool = False  # the section only points elsewhere ("incorporated herein by reference", 详见…)
    attrs: dict[str, str] = Field(default_factory=dict)  # e.g. speaker, role, exchange id for Q&A


class StatementRead(_Model):
    """What a PDF statement parser made of one primary statement of a report: found and read, found but not
    readable (with the reason), or not found. One record per (statement, consolidated) looked for; coverage
    reports read these to tell a parser gap from a row the report does not print."""

    statement: Statement
    consolidated: bool = True
    status: Literal["read", "unreadable", "not_found"]
    page: int | None = None  # first page of the statement (None when not found)
    pages: list[int] = Field(default_factory=list)  # every page it was read from
    rows: int = 0  # printed rows that became facts
    reason: str | None = None  # why it is unreadable / not found


class ParsedDocument(_Model):
    info: DocumentInfo
    pages: list[Page] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    sections: list[SectionSpan] = Field(default_factory=list)
    parser: str  # parser module name and version, e.g. "us_xbrl/1"
    warnings: list[str] = Field(default_factory=list)
    statement_reads: list[StatementRead] = Field(default_factory=list)  # PDF reports: see StatementRead


class FinancialMetric(_Model):
    company_id: str | None
    stock_code: str
    market: Market
    fiscal_year: int
    fiscal_period: FiscalPeriod
    period_end: dt.date
    report_type: str
    metric_name: str
    metric_value: Decimal
    currency: str | None
    accounting_standard: Standard | None
    original_label: str | None
    original_unit: str | None
    document_id: str
    page: str | None  # physical page number or XBRL locator
    source_kind: SourceKind
    restated: bool = False
    fiscal_year_label: int | None = None  # the company's own name for the fiscal year (Home Depot FY2025 -> 2024)
    basis: Basis = "latest"
    other_basis_value: Decimal | None = None
    derivation: dict[str, Any] | None = None  # derived rows: formula and inputs (period, value, document, page)


class SearchUnit(_Model):
    """A small search unit (~220 words; Chinese by characters) inside a larger context window (~650 words).

    ``text`` is an exact substring of the page text: ``pages.text[char_start:char_end]`` of its page."""

    unit_id: str  # stable: sha256 of (document_id, page, char_start, char_end)[:32]
    document_id: str
    doc_name: str
    page: int  # 1-based physical page (a transcript turn number for transcripts)
    char_start: int
    char_end: int
    text: str
    window_id: str  # the context window this unit sits in
    section: str | None = None
    kind: Literal["narrative", "table", "transcript"] = "narrative"
    statement: str | None = None  # income / balance / cashflow / equity for a primary statement's page
    context: str | None = None  # the heading lines above the unit on its page (vectorstore.headings), for BM25
    speaker: str | None = None  # a transcript turn's speaker: management / analyst / operator (schema.page_text)
    company_id: str | None = None
    stock_code: str | None = None
    market: Market | None = None
    fiscal_year: int | None = None
    fiscal_period: str | None = None
    report_type: str | None = None
    language: str | None = None


class Citation(_Model):
    document_id: str
    doc_name: str
    page: int | None = None
    section: str | None = None
    char_start: int | None = None
    char_end: int | None = None


def as_jsonable(value: Any) -> Any:
    """Decimals as exact strings, dates as ISO: for ``--json`` output."""
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: as_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_jsonable(v) for v in value]
    return value


# ------------------------------------------------------------------------------------------ router
Intent = Literal["metric", "comparison", "trend", "narrative", "mixed"]
Route = Literal["sql", "search", "mixed"]


class CompanyRef(_Model):
    company_id: str
    matched: str  # the words of the question that named it
    via: str  # name, alias, ticker, code


class PeriodRef(_Model):
    fiscal_year: int | None = None  # None with relative="latest"
    fiscal_period: FiscalPeriod | None = None  # None: any period of that year (FY preferred)
    matched: str = ""
    relative: str | None = None  # "latest", "last_n", "invalid"
    fiscal: bool = False  # the question named a fiscal year ("fiscal 2024", "FY2024", 财年), not a calendar one
    instant: bool = False  # a point in time (a balance sheet "as of" a date or at a period end)
    period_end: dt.date | None = None  # the date the question named ("as of September 28, 2024", "the March 2025
    # quarter"); the planner places it in the company's fiscal calendar (router.periods.resolve)
    span: Literal["FY", "9M", "H1", "Q"] | None = None  # what a period named by its end date lasts
    # the warehouse's fiscal_year (the year the period ends in) of a year the one named company calls otherwise:
    # Ulta's "fiscal 2022" ends in January 2023 (stored 2023); set by the planner; search looks under both years
    stored_year: int | None = None


class QueryPlan(_Model):
    question: str
    companies: list[CompanyRef] = Field(default_factory=list)
    periods: list[PeriodRef] = Field(default_factory=list)
    metrics: list[str] = Field(default_factory=list)  # canonical metric ids or ratio ids
    intent: Intent = "narrative"
    route: Route = "search"
    sections: list[str] = Field(default_factory=list)  # narrative section filters (risk_factors, mdna...)
    last_n_years: int | None = None
    growth: bool = False  # the question asks for a change / growth
    language: str = "en"
    notes: list[str] = Field(default_factory=list)  # what was ignored or ambiguous
    market_measures: list[str] = Field(default_factory=list)  # P/E, market cap ...: need prices no filing carries
    # metrics named only as one side of a share whose other side is no metric ("staff costs as a percentage of
    # revenue"): never answered in the share's place
    set_aside: list[str] = Field(default_factory=list)
    # company-defined (non-GAAP) measures asked for: (qualifier as asked, the metric it qualifies) - ("adjusted", "eps_diluted")
    non_gaap: list[tuple[str, str]] = Field(default_factory=list)
    # each company's own periods when the question pairs them ("Apple's revenue in fiscal 2024 with Nvidia's in
    # fiscal 2025"): company_id -> indexes into ``periods``; empty: every period for every company
    company_periods: dict[str, list[int]] = Field(default_factory=dict)


class AnswerRow(_Model):
    company_id: str | None
    stock_code: str
    market: str
    fiscal_year: int
    fiscal_period: str
    period_end: dt.date | None
    metric: str
    value: str  # exact decimal as a string
    currency: str | None
    accounting_standard: str | None
    original_label: str | None
    source: dict[str, Any]  # document_id, doc_name, page
    converted: dict[str, Any] | None = None  # value, currency, fx_rate, fx_pair, fx_kind, fx_date, fx_start, fx_source
    fiscal_year_label: int | None = None  # the company's own name for the fiscal year, when it differs


class Passage(_Model):
    text: str
    company_id: str | None
    source: dict[str, Any]  # document_id, doc_name, page, section, char_start, char_end
    score: float | None = None


class Answer(_Model):
    """The answer of ``filings ask --json``; ``to_frame()`` gives its rows as a DataFrame of exact values."""

    question: str
    status: Literal["answered", "no_data"]
    route: Route
    plan: dict[str, Any]
    answer: str = ""
    rows: list[AnswerRow] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)
    reason: str | None = None

    def to_frame(self):
        """The rows as a pandas DataFrame: ``value`` (and ``converted_value``) as Decimal, source flattened."""
        import pandas as pd

        records = []
        for r in self.rows:
            rec = r.model_dump(exclude={"source", "converted"})
            rec["value"] = Decimal(r.value)
            rec.update({"document_id": r.source.get("document_id"), "doc_name": r.source.get("doc_name"),
                        "page": r.source.get("page")})
            conv = r.converted or {}
            rec.update({"converted_value": Decimal(conv["value"].replace(",", "")) if conv else None,
                        "converted_currency": conv.get("currency"), "fx_rate": Decimal(conv["fx_rate"]) if conv else None,
                        "fx_kind": conv.get("fx_kind"), "fx_date": conv.get("fx_date")})
            records.append(rec)
        return pd.DataFrame.from_records(records)
