"""The honesty checks every answered Answer passes: each quote is an exact substring of its cited page, and
each number in the answer text is one of its rows' values (in a form a reader would write it), periods,
codes or pages, or appears in a quote. An answer that fails is returned as no_data with the reason."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from router.answer_text import plain
from schema.models import Answer

# numbers as a reader sees them; digits glued to letters or underscores (H1, Q2, p82, f-66, an XBRL fact id
# "id_6568047_F7A2...") are labels, not numbers
_NUM = re.compile(r"(?<![A-Za-z0-9_.,\-])-?\d[\d,]*(?:\.\d+)?(?![\d_])")


def numbers_in(text: str) -> set[str]:
    return {n.replace(",", "").lstrip("+") for n in _NUM.findall(text or "")}


def _forms(value: str) -> set[str]:
    """Textual forms a row value may take in the answer text."""
    d = Decimal(value)
    forms = {plain(d), plain(d, 2), plain(d, 0), plain(d * 100, 2), plain(d, 4)}
    return {f.lstrip("-") for f in forms} | forms


def unsupported_numbers(answer: Answer) -> list[str]:
    allowed: set[str] = set()
    for r in answer.rows:
        allowed |= _forms(r.value)
        allowed |= {str(r.fiscal_year), r.stock_code, str(r.fiscal_year_label)}
        for src in [r.source, *(r.source.get("also_in") or [])]:  # every report the value is cited from
            allowed |= numbers_in(str(src.get("page"))) | numbers_in(src.get("doc_name", ""))
        allowed |= numbers_in(str(r.period_end)) | numbers_in(r.fiscal_period)  # "9M 2024": a period's name
        allowed |= numbers_in(r.stock_code) | numbers_in(r.original_label or "")
        if r.converted:
            allowed |= _forms(r.converted["value"].replace(",", "")) | _forms(r.converted["fx_rate"])
            allowed |= numbers_in(r.converted["fx_date"]) | numbers_in(r.converted.get("fx_start") or "")
    for p in answer.passages:
        allowed |= numbers_in(p.text) | numbers_in(str(p.source.get("page"))) | numbers_in(p.source.get("doc_name", ""))
    allowed |= numbers_in(" ".join(answer.plan.get("matched", {}).values()))
    return sorted(n for n in numbers_in(answer.answer) if n not in allowed and n.lstrip("-") not in allowed)


def checked(answer: Answer, page_text: Callable[[str, int], str | None]) -> Answer:
    if answer.status != "answered":
        return answer
    problems = []
    for p in answer.passages:
        src = p.source
        text = page_text(src["document_id"], src["page"])
        if text is None or p.text not in text:
            problems.append(f"quote not found in {src.get('doc_name')} p{src.get('page')}")
    bad = unsupported_numbers(answer)
    if bad:
        problems.append(f"numbers not in rows or quotes: {', '.join(bad[:5])}")
    if problems:
        return answer.model_copy(update={"status": "no_data", "reason": "answer failed its checks: " + "; ".join(problems)})
    return answer
