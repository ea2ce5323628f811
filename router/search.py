"""The one search pipeline. `filings search`, the search route of `ask`, the notebook facade, the web viewer
and the MCP server all call :class:`SearchPipeline`; nothing else decides filters, widening, statement hints,
fusion or diversification.

    pipeline = SearchPipeline(con, index, planner)
    result = pipeline.search("supply chain risks Apple 2024", k=20)      # what `filings search` shows
    result.as_json()   # {"query", "filters_applied", "hits"} (DESIGN.md section 4)
    hits, applied = pipeline.run(plan, EVIDENCE, k=32)                  # what the search route quotes from

Steps, in order:
1. **Filters** from the question's plan (companies, fiscal years, sections, report forms named in it; quarters
   for calls) and the caller's explicit arguments (which win). ``raw`` turns the question's filters off.
2. **Groups**: a question naming several companies is searched once per company, so one company's pages never
   crowd out another's.
3. **Ranked lists**, fused by weighted reciprocal rank (:data:`FUSION_WEIGHTS`): dense over prose (the whole
   question, embedded with the collection's model), BM25 over every unit and BM25 over statement / table pages
   (the question without its filter words), and one BM25 list per primary statement the question points at
   (its words plus the words every such statement prints: ``mappings/statements.yaml``).
4. **Widening** when a group finds nothing: the next year's report (it carries the year as comparatives), the
   years around it and any year (search only: an answer about a year keeps to that year's reports), then any
   report form, section, quarter. ``filters_applied`` states the filters that found the hits.
5. **Diversification**: without a company filter, at most :data:`PER_COMPANY` hits per company in round-robin
   order; several companies share the ``k`` places evenly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import duckdb

from mappings.statements import statements, statements_named
from mappings.vocabulary import fold, form_words, words
from schema import limits
from schema.errors import FilingsError
from mappings.metrics import CJK, printed_names
from router.search_result import SearchResult
from router.search_words import content_query, other_language_words  # noqa: F401  (content_query: public)
from schema.models import QueryPlan
from vectorstore.engines import Hit
from vectorstore.hybrid import diversify
from vectorstore.index import NarrativeIndex, RankedList
from warehouse import lookup
from warehouse.fiscal_labels import label_offsets

# Fusion of ranked lists per collection: dense over prose, BM25 over every unit, BM25 over statement / table
# pages (which carry no dense vector), and one list per statement the question points at. Measured on the
# FinanceBench dev questions inside the right document: dense alone R@20 0.30, BM25 alone 0.61, dense+BM25 RRF
# 0.29, the first three lists 0.81; in the shared store (178 documents) adding the statement lists took R@20
# 0.75 -> 0.82 (weight 1.0: 0.80; 1.5, 2 and 3 the same). Those weights were chosen on all 84 dev questions,
# before the tuning / checking split. Re-tuned on the tuning half only (a grid of 54 settings over dense 0.25-1,
# bm25 0.5-1, bm25_tables 0.5-1.5, statement 1-2.5; the rule, fixed before looking at the checking half: the best
# tuning R@5 among settings that lose at most one tuning question at R@20): bm25_tables 1.0 -> 0.5 took the tuning
# half's R@5 / R@20 from 0.667 / 0.952 to 0.786 / 0.929, and the checking half's from 0.500 / 0.881 to 0.643 /
# 0.833 (bench/financebench_retrieval.py). Table pages still come first when the question names a statement.
# The grid again after BM25 word pairs (bench/fusion_grid.py, store of 2026-12-03): current weights tuning 0.810 /
# 0.905, checking 0.643 / 0.881; the rule's pick (dense 1.0, statement 2.5) wins one tuning question at R@5 (0.833 /
# 0.905) and loses four checking questions at R@20 (0.667 / 0.786): a one-question gain is noise, so not kept.
# A proximity second look was tried and not kept (store of 2026-12-03 with prose runs on table pages): adding w x
# (the share of the question's rarity-weighted words held by a unit's best one or two sentences, + 1 when they hold
# the kind of answer asked for) to the fused scores gave tuning R@5 / R@20 0.810 / 0.929 (w 0.003), 0.833 / 0.905
# (0.006), 0.786 / 0.905 (0.012), 0.738 / 0.905 (0.024) against 0.833 / 0.929 without it, and cost ~4x the latency.
FUSION_WEIGHTS = {"dense": 0.5, "bm25": 1.0, "bm25_tables": 0.5, "statement": 1.5}
# Without statement pages in play (narrative answers), dense and BM25 weigh the same.
PROSE_WEIGHTS = {"dense": 1.0, "bm25": 1.0}
# Earnings calls: an analyst's question repeats the words of its topic, the operator's turns only hand the line on;
# the answer is management's. A turn's fused score is scaled by its speaker (``SearchUnit.speaker``); plain-text
# calls without speaker labels are left as they are.
SPEAKER_WEIGHTS = {"analyst": 0.85, "operator": 0.5}
PER_COMPANY = 3  # hits per company when no company is asked for, so a broad query lists several companies
CANDIDATES = 3  # the engine is asked for CANDIDATES x k hits per group, before diversification cuts to k
ANSWER_KINDS = ["narrative", "transcript"]  # answers quote prose and calls; statement pages are for search
# The reports that cover a period a question names, by their own fiscal_period: a 10-Q of the second quarter prints
# the six months too, an interim report the second quarter's figures, a Q3 report the nine months, and the fourth
# quarter is read from the year's report or a fourth-quarter release.
REPORT_PERIODS = {"Q1": ["Q1"], "Q2": ["H1", "Q2"], "H1": ["H1", "Q2"], "Q3": ["9M", "Q3"], "9M": ["9M", "Q3"],
                  "Q4": ["FY", "Q4"]}


@dataclass(frozen=True)
class Purpose:
    """What a search is for. ``kinds``: unit kinds searched (None: every kind, statement pages included);
    ``any_year``: widening may leave the asked years for any year."""

    name: str
    kinds: tuple[str, ...] | None
    any_year: bool


HITS = Purpose("hits", None, any_year=True)  # `filings search`: pages, statement pages too
EVIDENCE = Purpose("evidence", tuple(ANSWER_KINDS), any_year=False)  # quotes for an answer


# the filters that say whose passages are in scope (sections, forms and kinds narrow the ranking, not the scope)
SCOPE_FIELDS = ("company_id", "stock_code", "document_id", "fiscal_year", "market")


# ------------------------------------------------------------------------------------ filters from a plan
def forms_named(question: str) -> list[str]:
    """Document forms of the reports a question names ("in its 10-K" -> 10-K, 20-F, annual, summary)."""
    text = fold(question)
    return sorted({f for phrases, forms in form_words() if phrases.search(text) for f in forms})


def filters_for(plan: QueryPlan, purpose: Purpose = EVIDENCE) -> dict:
    """The filters a question's plan names: companies, fiscal years, sections, report forms; unit kinds by
    purpose; a call's fiscal quarter; the annual reports for the reasons behind annual figures (mixed)."""
    filters: dict = {}
    forms = forms_named(plan.question)
    if forms:
        filters["report_type"] = forms
    if plan.companies:
        filters["company_id"] = [c.company_id for c in plan.companies]
    # a year the company names otherwise is searched both ways: analysts write Ulta's "FY2023" for the year that
    # ends in January 2023 as often as for the company's own fiscal 2023 (PeriodRef.stored_year)
    years = sorted({y for p in plan.periods if p.fiscal_year for y in (p.fiscal_year, p.stored_year) if y})
    ahead = years and all(p.fiscal_period in (None, "FY") for p in plan.periods) and words("outlook").search(plan.question)
    if ahead:  # what it expects of 2025 is written in its 2024 report, and updated in 2025's interim and quarterly ones
        years = sorted({*years, *(y - 1 for y in years)})
    if years:
        filters["fiscal_year"] = years
    sections = [s for s in plan.sections if s != "transcript"]
    if sections:
        filters["section"] = sorted({s for sec in sections
                                     for s in ([sec, "principal_risks"] if sec == "risk_factors" else [sec])})
    if purpose.kinds is not None:
        filters["kind"] = list(purpose.kinds)
    if plan.intent == "mixed" and "transcript" not in plan.sections and not ahead and plan.periods and all(
            p.fiscal_year and p.fiscal_period in (None, "FY") for p in plan.periods):
        # the reasons behind annual figures: the year's own reports first (widening drops this when they say nothing)
        filters["fiscal_period"] = ["FY"]
    if "transcript" in plan.sections:
        filters["kind"] = ["transcript"]
        quarters = sorted({p.fiscal_period for p in plan.periods if p.fiscal_period and p.fiscal_period.startswith("Q")})
        if quarters and words("outlook").search(plan.question):
            # what a company expects of a quarter is said on the call of the quarter before ("the Q4 outlook" on the
            # Q3 call; Q1's on the year before's Q4 call)
            before = {f"Q{int(q[1]) - 1}" if q != "Q1" else "Q4" for q in quarters}
            if "Q1" in quarters and filters.get("fiscal_year"):
                filters["fiscal_year"] = sorted({*filters["fiscal_year"], *(y - 1 for y in filters["fiscal_year"])})
            quarters = sorted({*quarters, *before})
        if quarters:  # a call is about one fiscal quarter
            filters["fiscal_period"] = quarters
    elif plan.companies and plan.periods and all(p.fiscal_year and p.fiscal_period in REPORT_PERIODS for p in plan.periods):
        # a company's quarter, half year or nine months: the reports of that period first (a 10-Q, an interim
        # report, a release), the year's report only when they say nothing (widening). Without a company the
        # period would only pick whichever companies filed such a report.
        filters["fiscal_period"] = sorted({r for p in plan.periods for r in REPORT_PERIODS[p.fiscal_period]})
    return filters


def widenings(filters: dict, any_year: bool = True) -> list[dict]:
    """Looser filters to retry with, in order, when the strict ones find nothing: the next year's report too (it
    carries the year as comparatives); with ``any_year`` the years around it (a report looks one year ahead and
    shows two years back), then any year; then any report form, any section, any quarter."""
    out, current = [], dict(filters)
    if "fiscal_year" in current:
        years = current["fiscal_year"]
        for offsets in ((0, 1), (-1, 0, 1, 2)) if any_year else ((0, 1),):
            current = dict(current, fiscal_year=sorted({y + d for y in years for d in offsets}))
            out.append(current)
            if offsets == (0, 1) and "fiscal_period" in current:  # the year's other reports before other years
                current = {k: v for k, v in current.items() if k != "fiscal_period"}
                out.append(current)
        if any_year:
            current = {k: v for k, v in current.items() if k != "fiscal_year"}
            out.append(current)
    for key in ("report_type", "section", "fiscal_period"):
        if key in current:
            current = {k: v for k, v in current.items() if k != key}
            out.append(current)
    return out


def statement_lists(plan: QueryPlan, keywords: str) -> list[RankedList]:
    """One BM25 list per primary statement the question points at, over that statement's pages, ranked by the
    question's words plus the words every such statement prints."""
    out = []
    for sid in statements_named(plan.question, plan.metrics):
        text = " ".join([keywords, *statements()[sid].expansion])
        out.append(RankedList("sparse", text, FUSION_WEIGHTS["statement"], {"kind": "table", "statement": sid}))
    return out


def ranked_lists(plan: QueryPlan, query: str, keywords: str, tables: bool) -> list[RankedList]:
    if not tables:
        return [RankedList("dense", query, PROSE_WEIGHTS["dense"]), RankedList("sparse", keywords, PROSE_WEIGHTS["bm25"])]
    lists = [RankedList("dense", query, FUSION_WEIGHTS["dense"]), RankedList("sparse", keywords, FUSION_WEIGHTS["bm25"]),
             RankedList("sparse", keywords, FUSION_WEIGHTS["bm25_tables"], {"kind": "table"})]
    return lists + statement_lists(plan, keywords)


def _merge_applied(applied: list[dict]) -> dict:
    """One filters_applied for several per-company groups: a key that some group dropped is not applied; lists
    are the union of what the groups used."""
    if len(applied) == 1:
        return applied[0]
    keys = set.intersection(*(set(a) for a in applied))
    out = {}
    for key in sorted(keys, key=lambda k: list(applied[0]).index(k) if k in applied[0] else 99):
        values: list = []
        for a in applied:
            for v in a[key] if isinstance(a[key], list) else [a[key]]:
                if v not in values:
                    values.append(v)
        out[key] = sorted(values) if key == "fiscal_year" else values
    return out


class SearchPipeline:
    """Search over one warehouse's index. ``planner`` reads questions (router.plan.Planner)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, index: NarrativeIndex | None, planner):
        self.con = con
        self.index = index
        self.planner = planner
        self._offsets: dict[str, int] | None = None
        self._year_ends: dict[str, int] | None = None
        self._languages: dict[str, set[str]] | None = None  # company -> the languages its filings print

    @property
    def available(self) -> bool:
        return self.index is not None and self.index.exists()

    # -------------------------------------------------------------------------------- the surface
    def search(self, query: str, company: str | None = None, year: int | None = None, section: str | None = None,
               k: int = 20, raw: bool = False, document: str | None = None) -> SearchResult:
        """`filings search`: companies, years, sections and reports named in the query become filters unless
        ``raw``; explicit arguments are filters too and win; ``document`` (doc_name or id) searches inside one
        document. Raises FilingsError for an unknown company or document, or a ``k`` out of 1..limits.SEARCH_K."""
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= limits.SEARCH_K.value():
            raise FilingsError(f"k must be a whole number from 1 to {limits.SEARCH_K.value()} (got {k!r})")
        plan = self.planner.plan(query)
        filters = {} if raw else filters_for(plan, HITS)
        if document:
            filters = {key: v for key, v in filters.items() if key in ("section", "kind")}
            filters["document_id"] = [self.document_id(document)]
        if company:
            filters["company_id"] = [self.company_id(company)]
        if year:
            filters["fiscal_year"] = [int(year)]
        if section:
            filters["section"] = [section]
        hits, applied = self.run(plan, HITS, k=k, filters=filters, raw=raw)
        return SearchResult(query=query, filters_applied=applied, hits=hits, filters_asked=filters,
                            keywords_only=self.keywords_only(applied))

    def keywords_only(self, filters: dict | None) -> int:
        """Prose units under ``filters`` whose dense vectors are not in yet: found by keywords only until
        `filings index` embeds them."""
        scope = {key: v for key, v in (filters or {}).items() if key in SCOPE_FIELDS}
        return self.index.pending_dense(scope) if self.available else 0

    def company_id(self, company: str) -> str:
        return lookup.require_company(self.con, company)

    def document_id(self, document: str) -> str:
        row = self.con.execute("SELECT document_id FROM documents WHERE document_id = ? OR doc_name = ? "
                               "ORDER BY ingested_at DESC LIMIT 1", [document, document]).fetchone()
        if row is None:
            raise FilingsError(f"unknown document {document!r}: give a doc_name or document id as listed by "
                               "`filings sql \"SELECT doc_name, document_id FROM documents\"`")
        return row[0]

    # ---------------------------------------------------------------------------------- the pipeline
    def run(self, plan: QueryPlan, purpose: Purpose, k: int = 20, filters: dict | None = None,
            raw: bool = False, per_company: int | None = PER_COMPANY) -> tuple[list[Hit], dict]:
        """(hits best first, filters applied) for a plan. ``filters`` default to the plan's own."""
        if filters is None:
            filters = filters_for(plan, purpose)
        if not self.available:
            return [], filters
        filters = lookup.filings_printing(self.con, filters)
        tables = purpose.kinds is None or "table" in purpose.kinds
        if "kind" in filters:
            tables = tables and "table" in filters["kind"]
        query, keywords = (plan.question, plan.question) if raw else self.query_words(plan)
        lists = ranked_lists(plan, query, keywords, tables)
        companies = filters.get("company_id") or []
        groups = [dict(filters, company_id=[c]) for c in companies] if len(companies) > 1 else [filters]
        hits: list[Hit] = []
        applied: list[dict] = []
        speakers = {} if words("analyst_asks").search(fold(plan.question)) else SPEAKER_WEIGHTS
        for group in groups:
            found, used = self._fused(lists, group, k * CANDIDATES, speakers), group
            for looser in widenings(group, any_year=purpose.any_year):
                if found:
                    break
                found, used = self._fused(lists, looser, k * CANDIDATES, speakers), looser
            hits += found
            applied.append(used)
        if len(groups) > 1:  # the companies share the places
            hits = diversify(sorted(hits, key=lambda h: -h.score), per_company=math.ceil(k / len(groups)), k=k)
        elif not filters.get("company_id") and not filters.get("document_id") and per_company:
            hits = diversify(hits, per_company=per_company, k=k)
        return hits[:k], _merge_applied(applied)

    def keyword_hits(self, keywords: str, filters: dict, k: int) -> list[Hit]:
        """The units under ``filters`` that BM25 ranks first for ``keywords`` (no meaning, no fusion weights)."""
        if not self.available:
            return []
        return self.index.fused([RankedList("sparse", keywords)], filters, k=k, prefetch_k=k)

    def query_words(self, plan: QueryPlan) -> tuple[str, str]:
        """(the text embedded, the keywords) a plan searches with: the question and its content words; for companies
        whose filings print only the other language, both lead with that language's words for its metrics and what
        it asks (an English-only model reads a Chinese question's meaning from them; BM25 finds the pages' words)."""
        keywords = content_query(plan)
        if not plan.companies or self.written_in(plan):
            return plan.question, _with_printed_names(plan, keywords)
        other = other_language_words(plan)
        return f"{other} {plan.question}".strip(), f"{keywords} {other}".strip()

    def written_in(self, plan: QueryPlan) -> bool:
        """Does any filing of the companies the plan names print the question's language (English, Chinese)?"""
        if self._languages is None:
            self._languages = {}
            for company, language in self.con.execute("SELECT DISTINCT company_id, language FROM documents").fetchall():
                self._languages.setdefault(company, set()).update(
                    part.split("-")[0] for part in (language or "").split("+") if part)
        asked = "zh" if CJK.search(plan.question) else "en"
        return any(asked in self._languages.get(c.company_id, set()) for c in plan.companies)  # (none filed: no)

    # -------------------------------------------------------------------------- years as companies name them
    def _fused(self, lists: list[RankedList], filters: dict, k: int, speakers: dict[str, float] | None = None) -> list[Hit]:
        """The fused ranking under ``filters``. Without a company (or document) filter, an asked year is the year as
        each company names it: Home Depot's "fiscal 2021" ends in January 2022 (stored fiscal_year 2022), so its
        calls of fiscal_year 2022 answer "2021 earnings calls" and those of fiscal_year 2021 (its fiscal 2020) do not.
        A named company's years are already resolved by the planner with that company's calendar."""
        unscoped = "fiscal_year" in filters and not any(
            filters.get(key) for key in ("company_id", "stock_code", "document_id"))
        offsets = self.year_name_offsets() if unscoped else {}
        calls = unscoped and filters.get("kind") == ["transcript"]
        if not offsets and not calls:
            return speaker_prior(self.index.fused(lists, filters, k=k), speakers)
        asked = set(filters["fiscal_year"])
        stored = sorted({y - off for y in asked for off in {0, *offsets.values(), *((-1,) if calls else ())}})
        hits = self.index.fused(lists, dict(filters, fiscal_year=stored), k=2 * k)

        def named(h: Hit) -> bool:
            year = h.payload.get("fiscal_year") or 0
            return year + offsets.get(h.payload.get("company_id"), 0) in asked or (
                calls and self.call_year(h.payload.get("company_id"), year, h.payload.get("fiscal_period")) in asked)

        return speaker_prior([h for h in hits if named(h)][:k], speakers)

    def call_year(self, company_id: str | None, fiscal_year: int, quarter: str | None) -> int | None:
        """The calendar year in which a fiscal quarter ends (a call is an event in time: Nvidia's first quarter of
        fiscal 2026 ends in April 2025, so its call is one of "the 2025 calls" too)."""
        if self._year_ends is None:
            self._year_ends = dict(self.con.execute(
                "SELECT company_id, mode(fiscal_year_end_month) FROM documents WHERE fiscal_year_end_month IS NOT NULL "
                "GROUP BY 1").fetchall())
        if not quarter or not quarter.startswith("Q") or not quarter[1:].isdigit():
            return None
        month = self._year_ends.get(company_id, 12) - 3 * (4 - int(quarter[1:]))  # the quarter's last month
        return fiscal_year + (month - 1) // 12 if month >= 1 else fiscal_year - 1

    def year_name_offsets(self) -> dict[str, int]:
        """company_id -> (the company's own name for a fiscal year) - fiscal_year, for the companies whose names
        differ (``warehouse.fiscal_labels``: the XBRL filings' fiscal year focus, or the company master's rule)."""
        if self._offsets is None:
            self._offsets = label_offsets(self.con)
        return self._offsets


def speaker_prior(hits: list[Hit], weights: dict[str, float] | None = None) -> list[Hit]:
    """Hits re-ordered with each transcript turn's score scaled by its speaker (``weights``, default
    :data:`SPEAKER_WEIGHTS`; a question about what analysts asked passes none)."""
    weights = SPEAKER_WEIGHTS if weights is None else weights
    if not any(h.payload.get("speaker") in weights for h in hits):
        return hits
    for h in hits:
        h.score *= weights.get(h.payload.get("speaker"), 1.0)
    return sorted(hits, key=lambda h: -h.score)


def _with_printed_names(plan: QueryPlan, keywords: str) -> str:
    """The keywords with each asked metric's name as pages print it in the question's language, where the question
    names it by shorthand, none of that name's words ("capex": "Capital expenditure"; "FCF": "Free cash flow"; not
    "loss attributable to owners", which pages print as asked)."""
    lang = "zh" if CJK.search(plan.question) else "en"
    text = fold(plan.question).casefold()
    names = [name for mid in plan.metrics if (name := printed_names(mid).get(lang)) and not any(
        w in text for w in (re.findall(r"[a-z]{3,}", name.casefold()) if lang == "en" else [name]))]
    return " ".join([keywords, *names]).strip()


def broad_question(plan: QueryPlan) -> bool:
    """"Which companies ...": many companies, one passage each."""
    return not plan.companies and bool(words("broad").search(fold(plan.question)))
