"""One printed statement row -> its label and value cells; one value cell -> an exact ``Decimal``.

Rows come from page text (one line per table row, cells joined by single spaces). The value cells are the
tokens at the end of the line that read as amounts: ``1,234``, ``(1,234)``, ``$ 1,234``, ``$(5,053)``,
``($5,053)``, ``16,865.2``, ``0.074``, a dash for a blank cell (``—``, ``–``, ``-``). A ``$`` printed as a cell
of its own belongs to the amount after it. What precedes the cells is the label. Used by the US reader;
the A-share and HK readers have their own cell rules for their layouts (note columns, cents, 万元)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_AMOUNT = re.compile(r"^\(?\$?\(?-?\d{1,3}(?:,\d{3})*(?:\.\d+)?\)?$|^\(?\$?\(?-?\d+(?:\.\d+)?\)?$")
_DASH = frozenset({"—", "–", "-", "−", "——", "--", "$—", "$-", "$–"})
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_LEADER = re.compile(r"\s*(?:\.\s?){2,}\s*$|\s*…+\s*$")  # dot leaders between a label and its values


def is_cell(tok: str) -> bool:
    return tok in _DASH or bool(_AMOUNT.match(tok))


def split_row(text: str) -> tuple[str, list[str]]:
    """(label, value cells) of one line; cells keep their printed form with a detached "$" folded in."""
    toks = text.split()
    cells: list[str] = []
    while toks:
        tok = toks[-1]
        if tok == "$" and cells:
            toks.pop()
            cells[-1] = "$" + cells[-1]
            continue
        if not is_cell(tok):
            break
        cells.append(toks.pop())
    cells.reverse()
    return _LEADER.sub("", " ".join(toks)).strip(), cells


def is_year_cells(cells: list[str]) -> bool:
    """A run of four-digit years: a column header, not values."""
    return bool(cells) and all(_YEAR.match(c) for c in cells)


def parse_amount(cell: str) -> Decimal | None:
    """Exact value of a cell; None for a blank (dash) cell. Parentheses (also full-width) or a minus make it
    negative; a trailing % is dropped (the caller knows the row is a percentage)."""
    if cell in _DASH:
        return None
    t = (cell.replace("$", "").replace(",", "").replace("−", "-").replace("–", "-")
         .replace("（", "(").replace("）", ")").rstrip("%"))
    neg = t.startswith("(") or t.endswith(")") or t.startswith("-")
    t = t.strip("()-")
    try:
        v = Decimal(t)
    except InvalidOperation:
        return None
    return -v if neg else v
