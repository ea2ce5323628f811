"""Plan -> Answer: the SQL route's rows (``router.metric_answer``) and the search route's passages, with
citations and caveats; every answer passes the honesty checks (``router.honesty``) or is returned as
no_data with the reason."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import duckdb

from mappings.metrics import metrics, ratios
from mappings.vocabulary import fold, longest_first, non_gaap_words, not_company_words, section_words, words
from router.entities import unknown_subject
from router.counts import (HEADCOUNT_TERMS, asks_headcount, counted, each_year, headcount_quotes, headcount_span,
                           how_many, prints_count, qualified_count)
from router.fallback import (consolidated_first, figure_filters, figure_span, labels_of, prints_amount,
                             search_for_figures, span_passage)
from router.generic_reading import generic_reading
from router.measure_names import by_reference, measure_passages
from router.reasons import HINT as REASON_HINT, printed_reasons, reason_passages, why_labels, with_cause
from router.line_items import (asks_amount, asks_line_item, line_item_passages, measure_labels, other_language_labels,
                               prints_a_figure, topic_labels)
from router import statement_items, xbrl_items
from router.other_language_names import printed_labels
from router.name_headings import own_heading_first
from router.outlook import outlook_quotes, period_ends
from router.quote_reading import looks_ahead, names_quarter, read_on, with_years
from router.part_columns import column_readings
from router.part_names import (ends_at_part, heading_over, is_part, named_segment, names_part, part_heading,
                               segment_scoped)
from router.part_rows import part_row_passages
from router.segment_facts import part_facts
from router.honesty import checked, unsupported_numbers  # noqa: F401  (unsupported_numbers: public API)
from router.metric_answer import LIMITED_COVERAGE, MetricAnswerer
from router.quote_scope import (each_company_first, not_holding, part_of_year_note, rate_first, whole_company_first,
                                whole_year_first)
from router.periods import years_named
from router.plan import Planner, find_metrics
from router.search import broad_question
from router.search_words import content_query
from router.search_route import filters_for, in_scope
from router.sql_route import is_computed
from warehouse import lookup
from schema.models import Answer, Passage, QueryPlan

OWN_FIGURES = 2  # printed figures quoted beside a computed company-defined measure
PRINTED_EACH = 3  # printed figures quoted per metric and company when no row is stored
REASONS_EACH = 2  # printed reasons for a metric's change quoted per metric and company
STATEMENT_ROW = ("a line item of the consolidated statements, read from its printed row: not one of the warehouse's "
                 "standard metrics, so no other company's or market's figure is mapped to it")
XBRL_ITEM = ("a line item of the filing's XBRL facts (its concept's own fact): not one of the warehouse's standard "
             "metrics, so no other company's or market's figure is mapped to it")
TAGGED_PART = ("a part of the company's figure (a segment, product or region): the XBRL fact its filing tags with the "
               "part's member, not the company's total")
DEDUCTION = ("figures keep the sign the statement prints them with: one in parentheses is negative in the statement's "
             "own arithmetic (a deduction, or a reversal on a cost line)")


def cited(p: Passage, section: bool = False) -> str:
    """A quote as answers print it: "text" [doc_name pN(, section)]."""
    where = f", {p.source['section']}" if section and p.source.get("section") else ""
    return f"\"{p.text}\" [{p.source.get('doc_name')} p{p.source.get('page')}{where}]"


def first(found: list[Passage], passages: list[Passage]) -> list[Passage]:
    """``found`` (printed rows, reasons) before ``passages``, each quote once (same page, same text)."""
    seen = {(p.source.get("document_id"), p.source.get("page"), p.text) for p in found}
    return [*found, *(p for p in passages if (p.source.get("document_id"), p.source.get("page"), p.text) not in seen)]


def _asks_parts_amount(plan: QueryPlan) -> bool:
    """An amount of a part asked (a segment's revenue), not a company-defined measure ("comparable sales") nor a
    growth: passages that name such a part without any amount or change are no answer for it."""
    return asks_amount(plan) and not words("growth").search(fold(plan.question)) and all(
        m in metrics() and metrics()[m].kind == "money" and not non_gaap_words().search(w) for w, m in plan.non_gaap)


class Router:
    """Answers questions over one warehouse. ``searcher(query, filters, k)`` returns passages for the
    search route (None: narrative questions answer no_data until the search index is built)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, searcher: Callable | None = None, home=None):
        self.con = con
        self.planner = Planner(con)
        self.searcher = searcher
        self.metrics = MetricAnswerer(con, home)

    # ------------------------------------------------------------------------------------------
    def ask(self, question: str) -> Answer:
        plan, reading = generic_reading(self.planner.plan(question))
        if plan.market_measures:
            why = (f"{', '.join(plan.market_measures)}: a market measure needs the share price, which filings do not "
                   "carry")
            if not plan.metrics:
                return self._base(plan, status="no_data", reason=f"{why}; the warehouse holds the reported figures "
                                  "(for example EPS, net income, equity) that such a measure divides into")
            plan = plan.model_copy(update={"notes": [*plan.notes, f"not answered: {why}"]})
        unknown = None if plan.companies or broad_question(plan) else unknown_subject(question, not_company_words())
        if unknown and (find_metrics(unknown) or any(p.search(fold(unknown)) for p in section_words().values())
                        or words("narrative").search(fold(unknown))):
            unknown = None  # a topic the vocabulary knows ("风险因素2024年..."), not a name
        if unknown and plan.route != "sql":  # the metric route says the same in its own words
            hints = lookup.suggest_in_question(self.con, question)
            return self._base(plan, status="no_data", reason=f"no company in the warehouse matches {unknown!r}; " +
                              (f"did you mean {' or '.join(hints)}? " if hints else "") +
                              "`filings companies` lists the companies available")
        if plan.route == "sql":
            answer = self._sql(plan)
        elif plan.route == "search":
            answer = self._search(plan)
        else:
            answer = self._mixed(plan)
        if reading:
            answer = answer.model_copy(update={"caveats": [f"reading: {reading}", *answer.caveats]})
        return checked(answer, self._page_text)

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
    def _sql(self, plan: QueryPlan) -> Answer:
        m = self.metrics.answer(plan)
        invalid = any(p.relative == "invalid" for p in plan.periods)
        if m.status == "no_data" and plan.metrics and plan.companies and self.searcher is not None and not invalid:
            printed = self._printed_figures(plan, m.reason)
            if printed is not None:
                return printed
        passages, own = self._own_definitions(plan, m.rows or []) if m.status == "answered" else ([], [])
        # the filing's own figure first (its definition, its basis), the one computed from the statements after it
        text = "\n".join([*(f"as the filing prints it: {cited(p)}" for p in passages), m.text or ""]).strip()
        return self._base(plan, status=m.status, answer=text or m.text, rows=m.rows, passages=passages,
                          caveats=[*m.caveats, *own], reason=m.reason)

    def _own_definitions(self, plan: QueryPlan, rows: list) -> tuple[list, list[str]]:
        """A measure companies define their own way (free cash flow, EBITDA: ``company_defined`` in ratios.yaml),
        answered with the figure computed from the statements: say so, and quote the filing's own figure for it
        where a report of the asked period prints one (Amazon's free cash flow nets proceeds from asset sales
        off its capex)."""
        defined = [mid for mid in plan.metrics if ratios().get(mid, {}).get("company_defined")]
        # a ratio reports print on their own basis (a bank's return on average equity on monthly balances): computed
        # here from year-end figures, and the printed one quoted beside it where a report of the period has one
        computed = {row.metric for row in rows if is_computed(row.original_label)}
        printed = [mid for mid in plan.metrics if ratios().get(mid, {}).get("quote_printed") and mid in computed]
        if not defined and not printed:
            return [], []
        caveats = [f"{ratios()[mid]['name_en']} is a measure each company defines its own way: the figure above is "
                   f"computed from the statements as {ratios()[mid]['formula']}" for mid in defined]
        if self.searcher is None or not plan.companies:
            return [], caveats
        asked = {c.company_id for c in plan.companies}
        passages = [with_years(p, self._page_text) for p in search_for_figures(self.searcher, plan.model_copy(
            update={"metrics": defined + printed}), whole_line=True) if p.company_id in asked][:OWN_FIGURES]
        if passages:
            caveats.append("the filing prints its own figure for it (quoted): compare the definitions before using "
                           "either" if defined else "the filing prints its own figure (quoted), on its own basis "
                           "(average balances, rounding): the figure above is computed from the statements")
        return passages, caveats

    def _printed_figures(self, plan: QueryPlan, sql_reason: str | None) -> Answer | None:
        """No stored row: a passage that prints the metric's own figure (its label and a number) answers,
        quoted with its page; nothing else does (``router.fallback``)."""
        # several years asked: the whole printed row (a report prints the years before it beside the year's figure)
        years = plan.intent == "trend" or bool(plan.last_n_years) or len(plan.periods) > 1
        passages = search_for_figures(self.searcher, plan, whole_line=years, each=PRINTED_EACH)
        if not passages:
            return None
        text = "\n".join(cited(p) for p in passages)
        return Answer(question=plan.question, route="mixed", plan=self.plan_dict(plan), status="answered",
                      answer=text, passages=passages,
                      caveats=[f"numbers: {sql_reason}", "quoted as printed in the filing: not a stored value"])

    def _coverage(self, company_ids: list[str]) -> list[str]:
        return self.metrics._coverage(company_ids)

    # ---------------------------------------------------------------------------- search route
    def _search(self, plan: QueryPlan) -> Answer:
        # a line item, or a qualified one ("merchandise inventories", "accrued income taxes"), that a consolidated
        # statement prints as a row: the row stored when the statement was read, exact, with its page
        headcount = not plan.metrics and asks_headcount(plan.question)
        labels = [] if headcount else topic_labels(plan) if asks_line_item(plan) else measure_labels(plan) if (
            plan.non_gaap and not plan.metrics and len(plan.companies) == 1 and asks_amount(plan)) else []
        # (a line item asked in the language the filings do not print: its label as they print it, too)
        other = other_language_labels(plan, labels, lambda f: printed_labels(self.con, f), self.searcher)
        if labels:
            item = statement_items.answer_parts(self.con, plan, labels, other)
            fact = None if item is not None else xbrl_items.answer_parts(self.con, plan, labels + other)  # its own fact
            if item is not None or fact is not None:
                item = item or fact
                return self._base(plan, status="answered", answer=item.text, rows=item.rows, passages=item.passages,
                                  caveats=[XBRL_ITEM if fact else STATEMENT_ROW, *([DEDUCTION] if item.deductions else []),
                                           *(f"not available: {', '.join(item.missing)}" for _ in item.missing[:1])]
                                  + self._coverage([c.company_id for c in plan.companies]))
        # a part of a metric (a segment's, product's or region's) its filings tag in XBRL: the tagged fact, exact
        tagged = part_facts(self.con, plan, [(w, m) for w, m in self._part_pairs(plan) if is_part(w)])
        if tagged is not None:
            return self._base(plan, status="answered", answer=tagged.text, rows=tagged.rows, passages=[],
                              caveats=[TAGGED_PART, *(f"not available: {', '.join(tagged.missing)}" for _ in tagged.missing[:1])]
                              + self._coverage([c.company_id for c in plan.companies]))
        if self.searcher is None:
            return self._base(plan, status="no_data",
                              reason="the narrative search index is not built for this warehouse")
        # a headcount is printed in either language ("165 full-time employees" under 全職僱員人數)
        searched = plan.model_copy(update={"question": f"{plan.question} {HEADCOUNT_TERMS}"}) if headcount else plan
        passages = self.searcher(searched, filters_for(plan))
        why = bool(words("why").search(fold(plan.question)))  # (quotes stopped short are read on: ``read_on``)
        passages[:] = [read_on(p, self._page_text, why) for p in passages]
        if getattr(passages, "quarter_missing", False) and "transcript" in plan.sections:
            # a call is one quarter's: another quarter's call does not answer for it
            asked = ", ".join(f"{p.fiscal_period} {p.fiscal_year}" for p in plan.periods if p.fiscal_period)
            held = self.con.execute(
                "SELECT string_agg(DISTINCT fiscal_period || ' ' || fiscal_year, ', ' ORDER BY fiscal_period || ' ' || "
                "fiscal_year) FROM documents WHERE form = 'transcript' AND company_id IN (SELECT unnest(?))",
                [[c.company_id for c in plan.companies]]).fetchone()[0]
            return self._base(plan, status="no_data", reason=f"no earnings call of {asked} in the warehouse"
                              + (f"; calls held: {held}" if held else ""))
        reasons = [] if plan.metrics else self._reasons(plan)  # why a line item moved: the reason printed beside it
        if reasons:
            passages[:] = first(reasons, passages)
            measure_caveats = []
        elif plan.non_gaap:  # a company-defined measure or a part is quoted only where a filing names it
            asked = ", ".join(f"{word} {metric}" for word, metric in plan.non_gaap)
            # a part's row of a breakdown table, with its header; by its name in the filing's language if need be
            parts = part_row_passages(self.searcher, plan, lambda f, prose=False: printed_labels(self.con, f, prose=prose))
            named = measure_passages(list(passages), plan.non_gaap)
            if not named:  # a quote cut from its unit may leave the part's name out: the units whole, each cut to
                # the part's name and the sentence that gives its figure by reference
                named = [span_passage(p, *(by_reference(p.text, *plan.non_gaap[0]) or (0, len(p.text))))
                         for p in measure_passages(in_scope(self.searcher(plan, filters_for(plan), whole=True)),
                                                   plan.non_gaap)]
            if not named and not parts:
                return self._refused(plan, f"no passage in the indexed filings in scope names the measure asked for "
                                     f"({asked}); the reported figure is not given in its place")
            rows = line_item_passages(self.searcher, plan, measure_labels(plan))  # its printed row, with the figure
            if not rows and not parts and _asks_parts_amount(plan) and not any(
                    prints_amount(p.text, or_change=True) for p in named):
                return self._refused(plan, f"no passage in the indexed filings prints an amount for the measure asked "
                                     f"for ({asked}): the passages found name it without one")
            named = [p for p in named if not any(ends_at_part(p.text, word) for word in self._parts(plan))]
            passages[:] = first(rows + parts, named)  # in place: the evidence keeps what the search says of its scope
            measure_caveats = column_readings(plan, parts) + part_of_year_note(self.con, plan, passages)
        else:
            measure_caveats = []
        if headcount and not reasons:  # how many people: a passage that prints a number of them, or no_data
            counts = [] if why else [span_passage(p, *span) for p in passages if (span := headcount_span(p.text))]
            # (the question's own words may find other staff pages: a headcount's own words alone, last; each year
            # asked apart, so that one year's report does not crowd out another's: 2016 and 2023)
            queries = [searched, plan.model_copy(update={"question": HEADCOUNT_TERMS})]
            for scope in each_year(filters_for(plan)):
                counts += [c for c in headcount_quotes(self.searcher, queries, scope, self._page_text,
                                                       lambda text, span: with_cause(text, *span) if why else span)
                           if c.text not in {q.text for q in counts}]
            if not counts:
                return self._refused(plan, "no passage in the indexed filings prints a number of employees: the "
                                     "passages found are about staff, not a count of them")
            passages[:] = first(counts, not_holding(counts, passages))
        elif asks_line_item(plan):  # a line item without a metric: the row that prints it with its figure, first
            own_first = partial(own_heading_first, self.con, plan, page_text=self._page_text, lex=lambda: self.planner.lexicon)
            rows = [with_years(p, self._page_text) for p in line_item_passages(  # each figure's year seen
                self.searcher, plan, labels, other, own_first)]
            if not rows and passages and asks_amount(plan) and not any(prints_a_figure(p.text, plan) for p in passages):
                return self._refused(plan, f"no passage in the indexed filings prints a figure for "
                                     f"{topic_labels(plan)[0]!r}: the passages found mention it without an amount")
            passages[:] = own_first(first(rows, passages))
        if parts := self._parts(plan) or named_segment(plan):  # a part asked: nothing under another segment's heading
            passages[:] = [p for p in passages if self._part_heading(parts[0], p) is not False]
        elif asks_amount(plan) or plan.non_gaap:  # the whole company's figure: a segment's after it
            passages[:] = sorted(passages, key=lambda p: segment_scoped(p, self._page_text))
        if not passages:
            return self._refused(plan, "no passage in the indexed filings is close enough to the question (evidence "
                                 "below the threshold)")
        things = counted(plan.question) if not plan.metrics else None
        if things and not any(prints_count(p.text, things) for p in passages):
            return self._refused(plan, f"no passage in the indexed filings prints a count of {things}: the passages "
                                 "found are about them, not a number of them")
        asked = things or how_many(plan.question)  # the count of the very things asked first ("Primary school 26,874")
        passages[:] = sorted(passages, key=lambda p: not (asked and qualified_count(p.text, asked)))
        ahead = bool(words("outlook").search(fold(plan.question)))  # what a filing expects is asked
        if not ahead and not words("narrative").search(fold(plan.question)):  # (why questions are narrative)
            # an amount of a period that has ended: what a filing expects of a later one (guidance, a forecast) is
            # quoted after what it reports
            quarters = {p.fiscal_period for p in plan.periods if (p.fiscal_period or "").startswith("Q")}
            topic = content_query(plan)  # (the question without the company's names: "China Creative Global")
            reported_first = sorted(whole_company_first(topic, whole_year_first(topic, passages)), key=lambda p: looks_ahead(
                p, self._page_text) and not names_quarter(p.text, quarters))
            passages[:] = rate_first(plan.question, reported_first)
        elif ahead:  # what is expected, read on to its figures; of a metric, the quotes that print its figure ahead of
            # time first, the newest report's first ("Capital expenditures $400 million to $475 million" under "Outlook")
            labels = [label for metric in plan.metrics for label in labels_of(metric)]
            passages[:] = outlook_quotes(passages, labels, self._page_text, lambda ps: period_ends(self.con, ps))
        passages[:] = each_company_first(passages, [c.company_id for c in plan.companies])  # (each side of a comparison)
        text = "\n".join(cited(p, section=True) for p in passages[:5])
        widened = [w] if (w := getattr(passages, "widened", None)) else []
        return self._base(plan, status="answered", answer=text, passages=list(passages),
                          caveats=widened + measure_caveats + self._keywords_only(plan)
                          + self._coverage([c.company_id for c in plan.companies]))

    def _refused(self, plan: QueryPlan, reason: str) -> Answer:
        return self._base(plan, status="no_data", reason=reason,
                          caveats=self._coverage([c.company_id for c in plan.companies]))

    def _keywords_only(self, plan: QueryPlan) -> list[str]:
        count = getattr(self.searcher, "keywords_only", None)
        n = count(filters_for(plan)) if count else 0
        return [f"{n:,} passage(s) in scope are searched by keywords only: their dense vectors are not built yet "
                "(`filings index` builds them)"] if n else []

    def _reasons(self, plan: QueryPlan) -> list[Passage]:
        """A why-question about a metric (or a line item the vocabulary has no metric for: 主营业务收入, 财务费用): the
        reason the report prints beside its change (an A-share report's 主要原因 row, "increased ... primarily due
        to"), from the asked period's reports."""
        if self.searcher is None or not plan.companies or not words("why").search(fold(plan.question)):
            return []
        if plan.metrics:
            found = search_for_figures(self.searcher, plan, each=REASONS_EACH, cut=reason_passages, hint=REASON_HINT)
        else:
            query = plan.model_copy(update={"sections": [], "question": f"{plan.question} {REASON_HINT}"})
            units = consolidated_first(list(self.searcher(query, figure_filters(plan), whole=True)))
            parts = self._parts(plan)
            found = []
            # a part's reason: its metric's labels, the part named beside them or its own heading above them; then
            # the question's own words as a label (临床试验技术服务, 主营业务收入); never under another segment's heading
            for labels, named in ((self._part_labels(plan) if parts else [], True), (why_labels(plan), False)):
                if not labels:
                    continue
                pool = [u for u in units if not named or names_part(u.text, parts[0]) or self._part_heading(parts[0], u)]
                found = [p for p in printed_reasons(pool, labels)
                         if not parts or self._part_heading(parts[0], p) is not False]
                if found:
                    break
            found = found[:REASONS_EACH * len(plan.companies)]
        # a reason given for another year ("decreased by $227 million in 2021 compared with 2020") after the asked one's
        asked = {p.fiscal_year for p in plan.periods if p.fiscal_year}
        return sorted(found, key=lambda p: bool(asked and (named := years_named(p.text)) and not named & asked))

    @staticmethod
    def _part_pairs(plan: QueryPlan) -> list[tuple[str, str]]:  # (part, metric): qualifiers that are no non-GAAP word
        return [(word, metric) for word, metric in plan.non_gaap if not non_gaap_words().search(word)]

    def _parts(self, plan: QueryPlan) -> list[str]:  # the parts asked about
        return [word for word, _ in self._part_pairs(plan)]

    def _part_labels(self, plan: QueryPlan) -> list[str]:
        """The labels of the metric the first part asked about belongs to ("Domestic gross profit rate": the gross
        margin's labels), read beside the part's own name (``_reasons``)."""
        metrics_ = [metric for _, metric in self._part_pairs(plan)][:1]
        return longest_first({label.casefold() for metric in metrics_ for label in labels_of(metric)})

    def _part_heading(self, part: str, p: Passage) -> bool | None:
        """Is a passage under the part's heading (True), another segment's (False) or none (None)?"""
        return heading_over(p, self._page_text, lambda page, at: part_heading(page, at, part))

    def _mixed(self, plan: QueryPlan) -> Answer:
        # what a filing expects is asked ("what revenue outlook did NVIDIA give"): its words first, the figures after
        ahead = bool(words("outlook").search(fold(plan.question)))
        numbers = self._sql(plan)
        reasons = self._reasons(plan)
        quoted = self._search(plan)
        if reasons:  # the printed reason first; passages that repeat it are not quoted twice
            quoted = quoted.model_copy(update={
                "status": "answered", "answer": "\n".join(filter(None, [
                    "\n".join(cited(p) for p in reasons),
                    quoted.answer if quoted.status == "answered" else None])),
                "passages": first(reasons, quoted.passages),
                "reason": None})
        # (what a filing expects is asked: the figures it reported for the periods named alone do not answer it)
        status = "answered" if quoted.status == "answered" or numbers.status == "answered" and not ahead else "no_data"
        answer = "\n".join(t for t in ((quoted.answer, numbers.answer) if ahead else (numbers.answer, quoted.answer)) if t)
        reason = None if status == "answered" else "; ".join(r for r in (numbers.reason, quoted.reason) if r)
        caveats = list(dict.fromkeys(numbers.caveats + quoted.caveats))
        caveats += [f"{name}: {part.reason}" for name, part in (("numbers", numbers), ("passages", quoted))
                    if part.status != "answered" and part.reason]
        done = status == "answered"
        return self._base(plan, status=status, answer=answer if done else "", rows=numbers.rows if done else [],
                          passages=[*numbers.passages, *quoted.passages], caveats=caveats, reason=reason)

    # ----------------------------------------------------------------------------- honesty
    def _page_text(self, document_id: str, page: int) -> str | None:
        row = self.con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [document_id, page]).fetchone()
        return row[0] if row else None


__all__ = ["LIMITED_COVERAGE", "Router", "unsupported_numbers"]
