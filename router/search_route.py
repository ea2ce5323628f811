"""The search route: evidence from the one search pipeline (``router.search``: the plan's filters, widening
within the asked year, per-company groups for comparisons) and an extractive answer: the best sentences of
each passage quoted verbatim with their citation (``router.quotes``). No number is ever computed from search text.
(``filters_for`` is re-exported for ``router.answer``.)"""

from __future__ import annotations

from router.quotes import TOPIC_SHARE, cues, phrase_length, roots, term_weights, scored_quote, topic_share, topic_terms
from mappings.metrics import CJK
from router.search import EVIDENCE, HITS, SearchPipeline, broad_question, content_query, filters_for  # noqa: F401
from schema.models import Passage, QueryPlan
from vectorstore.hybrid import diversify
from vectorstore.sparse import tokenize

BROAD_COMPANIES = 12  # companies a "which companies" answer names at most
BROAD_LOOK = 3  # passages of each company a "which companies" answer chooses its quote from (ranked, and by keywords)
KEYWORD_LOOK = 200  # units of the ranked passages' documents a "which companies" answer reads by its keywords
# A one-company answer looks at LOOK x k passages and quotes the best-ranked half of k and, for the rest, the
# passages whose sentences answer best (``quotes.scored_quote``: the question's rarer words, the kind of answer
# asked for): a call's figure sentence ranked 10-12 by a turn that only repeats the question's words is quoted.
# Set before measuring (LOOK 2, half kept). Eval suite (`filings eval`, store of 2026-12-03): 96.1% -> 98.4%
# (LOOK 3 / half 98.4%; LOOK 2 / 6 kept 97.6%; LOOK 3 / 6 kept 96.9%). FinanceBench dev, evidence page among the
# quoted passages (bench/financebench_quotes.py): tuning half 0.286 -> 0.286, checking 0.286 -> 0.262 (one question).
# Re-measured 2026-12-04 on a fresh whole-corpus store: LOOK 1 tuning 0.310 / checking 0.310, LOOK 2 0.286 / 0.238
# (eval suite 96.1% / 97.6%). The tuning half decides and the checking half agrees: LOOK 1, the look not kept.
LOOK = 1
MIN_EVIDENCE = 1.0  # evidence_strength of the best unit; below it the evidence is too weak to answer


class Evidence(list):
    """The passages of an answer (a list of :class:`Passage`), with ``widened``: what the search had to leave of the
    question's scope to find them (a year or quarter the warehouse has nothing for), for the answer to say so."""

    widened: str | None = None
    quarter_missing: bool = False  # the quarter asked was left: nothing of it is in the warehouse


def widening_note(asked: dict, applied: dict) -> str | None:
    """How the filters that found the passages differ from the asked ones in period: the answer's caveat."""
    years, periods = asked.get("fiscal_year"), asked.get("fiscal_period")
    year_left = bool(years) and not set(years) <= set(applied.get("fiscal_year") or ())
    period_left = bool(periods) and applied.get("fiscal_period") != periods
    if not (year_left or period_left):
        return None
    what = " ".join(x for x in ("/".join(periods) if period_left else "",
                                f"fiscal {'/'.join(map(str, years))}" if years else "") if x)
    where = (f"fiscal {'/'.join(map(str, applied['fiscal_year']))}" if applied.get("fiscal_year") else "any year")
    if applied.get("fiscal_period"):
        where = f"{'/'.join(applied['fiscal_period'])} {where}"
    return f"nothing in the warehouse for {what} as asked: the passages are from {where}"


def in_scope(evidence: list) -> list:
    """The passages found, or none when the search had to leave the period asked to find any (another year's table
    is no answer for a year the warehouse has no report of)."""
    return [] if getattr(evidence, "widened", None) else list(evidence)


FIGURE_POOL = 24  # units read when a printed figure is looked for (router.fallback.search_for_figures)


class EvidenceSearcher:
    """The search route's evidence: passages of the one search pipeline (``router.search``) for a plan, each
    quoted by its best sentences; nothing when neither the words nor the meaning of the question are found.
    ``keywords_only(filters)``: how many units in that scope have no dense vector yet (the answer says so)."""

    def __init__(self, pipeline: SearchPipeline, k: int = 8, per_company: int = 3,
                 min_evidence: float = MIN_EVIDENCE):
        self.pipeline, self.k, self.per_company, self.min_evidence = pipeline, k, per_company, min_evidence

    def keywords_only(self, filters: dict | None) -> int:
        return self.pipeline.keywords_only(filters)

    def __call__(self, plan: QueryPlan, filters: dict, whole: bool = False, pool: int = FIGURE_POOL) -> list[Passage]:
        """Passages for a plan, each quoted by its best sentences (``whole``: each unit's whole text, for a caller
        that cuts its own quote from it, as the printed-figure search does, from at least ``pool`` units)."""
        broad = broad_question(plan)
        # "which companies ...": many companies, one passage each; one company: its best passages
        # (a broad question looks at a company's best three, and quotes the best that speaks of the topic)
        one = len(plan.companies) == 1 and not broad
        n, cap = (BROAD_COMPANIES * BROAD_LOOK, BROAD_LOOK) if broad else (self.k * (LOOK if one else 1), self.per_company if not one else None)
        if whole:  # a caller looking for a printed figure reads more units (the row may rank below prose about it)
            n = max(n, pool)
        # a printed figure is looked for as `filings search` looks: statement and table rows ranked too
        hits, applied = self.pipeline.run(plan, HITS if whole else EVIDENCE, k=n, filters=filters, per_company=cap)
        out = Evidence()
        if not hits:
            return out
        _, query = self.pipeline.query_words(plan)  # the content words, and the other language's where filings print it
        weights = term_weights(query, [h.payload["text"] for h in hits])
        terms = set(tokenize(query))
        if plan.companies and not self.pipeline.written_in(plan):  # only the filings' language is found in them
            terms = {t for t in terms if bool(CJK.search(t)) == (not CJK.search(plan.question))} or terms
        best_text = max(hits, key=lambda h: h.score).payload["text"]
        lexical = len(terms & set(tokenize(best_text))) / len(terms) if terms else 0.0
        asked_section = bool(filters.get("section")) and bool(filters.get("company_id"))
        # the meaning is measured where the hits were found (the filters after widening), not where nothing was; a
        # caller reading whole units for a printed figure checks each for the metric's label and figure itself
        if not whole and not asked_section and lexical < 0.5 and self.pipeline.index.evidence_strength(query, applied) < self.min_evidence:
            return out  # neither the words nor the meaning of the question are found: too weak to answer
        out.widened = widening_note(filters, applied)
        asked = set(filters.get("fiscal_period") or ())
        # (several companies are searched apart: the quarter is missing when no passage found is of it)
        out.quarter_missing = bool(asked) and not any(h.payload.get("fiscal_period") in asked for h in hits)
        wanted = cues(plan.question)
        if broad:  # one passage per company, and only companies whose passage speaks of the topic
            hits = self._broad(hits, query, weights, applied)
        quotes = {id(h): (0, len(h.payload["text"]), h.score) if whole else scored_quote(h.payload["text"], weights, wanted)
                  for h in hits}
        if one and len(hits) > self.k and not whole:  # the best-ranked half, and the passages that answer best of the rest
            keep = self.k // 2
            rest = sorted(hits[keep:], key=lambda h: -quotes[id(h)][2])[: self.k - keep]
            hits = hits[:keep] + sorted(rest, key=hits.index)
        for h in hits:
            p = h.payload
            text = p["text"]
            a, b, _ = quotes[id(h)]
            out.append(Passage(
                text=text[a:b], company_id=p.get("company_id"), score=h.score,
                source={"document_id": p["document_id"], "doc_name": p["doc_name"], "page": p["page"],
                        "section": p.get("section"), "char_start": p["char_start"] + a, "char_end": p["char_start"] + b},
            ))
        return out

    def _broad(self, hits: list, query: str, weights: dict, applied: dict) -> list:
        """A "which companies ..." answer: one passage per company, only companies with a passage that speaks of
        the topic, each quoted by its passage that names most of the topic, in the question's words where one
        prints them together, then the best ranked. The passages are the best-ranked ones and, from the same
        documents, those the question's keywords rank first: a call whose one sentence on the topic sits in a long
        prepared remark ("navigating the pandemic, industrywide supply chain disruptions, inflation ...") or in a
        turn about something else ranks below other turns that repeat one of its words. A passage found only by
        its keywords ranks where its company's best passage ranked."""
        found = set().union(*(roots(h.payload["text"]) for h in hits))  # words no passage has tell none apart
        topic = {t: w for t, w in weights.items() if t in topic_terms(query) and t in found}
        scope = {key: applied[key] for key in ("kind", "section") if applied.get(key)}
        docs = sorted({h.payload["document_id"] for h in hits})
        best: dict = {}  # each company's best-ranked score
        for h in hits:
            best[h.payload.get("company_id")] = max(best.get(h.payload.get("company_id"), h.score), h.score)
        seen = {h.id for h in hits}
        extra = diversify([h for h in self.pipeline.keyword_hits(query, dict(scope, document_id=docs), k=KEYWORD_LOOK)
                           if h.id not in seen],
                          per_company=BROAD_LOOK, round_robin_order=False)
        for h in extra:
            h.score = best[h.payload.get("company_id")]
        share = {id(h): topic_share(h.payload["text"], topic) for h in hits + extra}
        on_topic = [h for h in hits + extra if share[id(h)] >= TOPIC_SHARE] or hits[:1]
        companies = diversify(sorted(on_topic, key=lambda h: -h.score), per_company=1, k=BROAD_COMPANIES)
        ranked = {id(h) for h in hits}
        return [max((h for h in on_topic if h.payload.get("company_id") == c.payload.get("company_id")),
                    key=lambda h: (share[id(h)], phrase_length(h.payload["text"], query), id(h) in ranked, h.score))
                for c in companies]
