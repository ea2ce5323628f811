"""The words a question searches with: its keywords without what became filters (:func:`content_query`), and the
metric names of the language it is not written in (:func:`other_language_names`)."""

from __future__ import annotations

import re

from mappings.metrics import CJK, printed_names
from mappings.vocabulary import filter_words, fold, words
from schema.models import QueryPlan
from vectorstore.sparse import tokenize

def content_query(plan: QueryPlan) -> str:
    """The question without what became filters (company names, periods, "earnings call", "10-K"), question
    words and the words that ask for a quote ("which companies mentioned"), so BM25 ranks by the topic, not by
    boilerplate that repeats the company and period on every page."""
    text = fold(plan.question)
    for piece in [c.matched for c in plan.companies] + [p.matched for p in plan.periods if p.matched]:
        text = text.replace(fold(piece), " ")
    text = re.sub(r"[（(]\s*(?:[A-Za-z]{2}:?)?\d{3,6}(?:\.[A-Za-z]{2})?\s*[)）]", " ", text)  # a code after a name: "(6068)"
    text = filter_words().sub(" ", text)
    for asks in ("broad", "quote_verbs"):  # "which companies", "mentioned", 提及: how it is asked, not what about
        text = words(asks).sub(" ", text)
    text = re.sub(r"(?<![A-Za-z])['’]s\b", " ", text)  # the possessive left behind by a removed name
    text = re.sub(r"\s+", " ", text).strip(" ?？，,。")
    return text if tokenize(text) else plan.question




def other_language_names(plan: QueryPlan) -> str:
    """The names of the plan's metrics in the language the question is not written in: an English question about
    an A-share issuer's 净息差 finds its pages by keywords too."""
    other = "en" if CJK.search(plan.question) else "zh"
    return " ".join(filter(None, (printed_names(mid).get(other) for mid in plan.metrics)))
