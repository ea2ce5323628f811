"""Whose part of a page a quote is in, where one report holds several companies' statements: an umbrella fund's
report heads each sub-fund's notes with its name ("AMUNDI Hang Seng HK 35 Index ETF" / ... "Net asset value per unit
21.0504" / "AMUNDI FTSE China A50 Index ETF" / ... "Net asset value per unit 15.5351"), and a row quoted under a
sibling's heading is the sibling's figure. Asked about a fund without a filing of its own (read in its siblings'
filings: ``warehouse.lookup.filings_printing``), the quotes under its own name come first, those under no name next,
those under another company's name last."""

from __future__ import annotations

import re
from collections.abc import Callable

import duckdb

from router.entities import Lexicon, find_companies
from schema.models import Passage, QueryPlan
from warehouse import lookup

HEADING_LINE = 80  # a name heading is a short line of its own
LINES_UP = 60  # lines of the page above a quote looked at


def heading_company(p: Passage, page_text: Callable[[str, int], str | None], lex: Lexicon) -> str | None:
    """The company named by the nearest line above a quote's last line on its page (a heading the quote holds, or
    one above it) that names exactly one company and says nothing else much (no sentence, no figures but a name's
    own), or None."""
    end = p.source.get("char_end")
    page = page_text(p.source.get("document_id"), p.source.get("page")) if end is not None else None
    if not page:
        return None
    for line in reversed(page[:end].split("\n")[-LINES_UP:]):
        line = line.strip()
        if not line or len(line) > HEADING_LINE or re.search(r"[.。;；:：]\s*$|\d[\d,]{3,}", line):
            continue
        found = find_companies(line, lex)
        if len(found) == 1:
            return found[0].company_id
    return None


def own_heading_first(con: duckdb.DuckDBPyConnection, plan: QueryPlan, passages: list[Passage],
                      page_text: Callable[[str, int], str | None], lex: Callable[[], Lexicon]) -> list[Passage]:
    """For one company asked that is read in its siblings' filings: the quotes under its own name heading first, under
    none next, under another company's last; ``passages`` as they are otherwise."""
    if len(plan.companies) != 1:
        return passages
    asked = plan.companies[0].company_id
    if "company_id" in lookup.filings_printing(con, {"company_id": [asked]}):
        return passages  # (filings of its own: each page is its own)
    lexicon = lex()

    def rank(p: Passage) -> int:
        company = heading_company(p, page_text, lexicon)
        return 0 if company == asked else 1 if company is None else 2

    return sorted(passages, key=rank)
