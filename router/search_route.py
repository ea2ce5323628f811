"""The search route: evidence from the one search pipeline (``router.search``: the plan's filters, widening
within the asked year, per-company groups for comparisons) and an extractive answer: the best sentences of
each passage quoted verbatim with their citation. No number is ever computed from search text.
(``filters_for`` is re-exported for ``router.answer``.)"""

from __future__ import annotations

import re
from router.search import EVIDENCE, SearchPipeline, broad_question, content_query, filters_for  # noqa: F401
from schema.models import Passage, QueryPlan
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


class EvidenceSearcher:
    """The search route's evidence: passages of the one search pipeline (``router.search``) for a plan, each
    quoted by its best sentences; nothing when neither the words nor the meaning of the question are found.
    ``keywords_only(filters)``: how many units in that scope have no dense vector yet (the answer says so)."""

    def __init__(self, pipeline: SearchPipeline, k: int = 8, per_company: int = 3,
                 min_evidence: float = MIN_EVIDENCE):
        self.pipeline, self.k, self.per_company, self.min_evidence = pipeline, k, per_company, min_evidence

    def keywords_only(self, filters: dict | None) -> int:
        return self.pipeline.keywords_only(filters)

    def __call__(self, plan: QueryPlan, filters: dict) -> list[Passage]:
        broad = broad_question(plan)
        # "which companies ...": many companies, one passage each; one company: its best passages
        n, cap = (12, 1) if broad else (self.k, self.per_company if len(plan.companies) != 1 else None)
        hits, applied = self.pipeline.run(plan, EVIDENCE, k=n, filters=filters, per_company=cap)
        if not hits:
            return []
        query = content_query(plan)
        terms = set(tokenize(query))
        best_text = max(hits, key=lambda h: h.score).payload["text"]
        lexical = len(terms & set(tokenize(best_text))) / len(terms) if terms else 0.0
        asked_section = bool(filters.get("section")) and bool(filters.get("company_id"))
        # the meaning is measured where the hits were found (the filters after widening), not where nothing was
        if not asked_section and lexical < 0.5 and self.pipeline.index.evidence_strength(query, applied) < self.min_evidence:
            return []  # neither the words nor the meaning of the question are found: too weak to answer
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
