"""A number of days printed in a sentence rather than on a row: a turnover period's name without its unit word, the
figure and "days" after it ("The Group's accounts receivable turnover was about 66 days (31 October 2020: 92 days)",
"存货周转天数约为 45 天"). The name's unit word ("days", "period", 天数, 周转期) is what the sentence prints after the
figure instead, so the name is looked for without it."""

from __future__ import annotations

import re

from mappings.metrics import CJK
from mappings.vocabulary import longest_first

WINDOW = 40  # the figure within this many characters after the name, in the same sentence
_UNIT_WORD = re.compile(r"\s*(?:days|period|天数|天數|期)$", re.I)
_DAYS = re.compile(r"(?:about|approximately|around|约为?|約為?|为|為|was|were|of|is|at|:|：|\s)*\s*(\d+(?:\.\d+)?)\s*(?:days|天)",
                   re.I)


def stems(labels: list[str]) -> list[str]:
    """The labels without their unit word ("accounts receivable turnover days" -> "accounts receivable turnover"),
    longest first; labels that are their unit word alone are left out."""
    out = {_UNIT_WORD.sub("", label).strip() for label in labels}
    return longest_first(s for s in out if len(s) >= (2 if CJK.search(s) else 8))


def days_sentence_span(text: str, labels: list[str]) -> tuple[int, int] | None:
    """(start, end) from a turnover period's name to its figure and "days", or None."""
    lower = text.casefold()
    for stem in stems(labels):
        for m in re.finditer(re.escape(stem).replace(r"\ ", r"\s+"), lower):
            window = lower[m.end(): m.end() + WINDOW]
            cut = re.search(r"[.;。；](?!\d)", window)
            hit = _DAYS.match(window[: cut.start()] if cut else window)
            if hit:
                return m.start(), m.end() + hit.end()
    return None
