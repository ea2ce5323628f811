"""One printed statement row -> its label and value cells; one value cell -> an exact ``Decimal``.

Rows come from page text (one line per table row, cells joined by single spaces). The value cells are the
tokens at the end of the line that read as amounts: ``1,234``, ``(1,234)``, ``$ 1,234``, ``$(5,053)``,
``($5,053)``, ``16,865.2``, ``0.074``, a dash for a blank cell (``—``, ``–``, ``-``). A ``$`` printed as a cell
of its own belongs to the amount after it. What precedes the cells is the label (US reader: ``split_row``).

A-share cells (``split_cas_cells``): amounts with an optional percent sign, blank words (``不适用``, ``-``),
percentage-point text (``增加2.1个百分点``); note references in the 附注 column (``七、78``, ``附注五(1)``) are
dropped. ``display_width`` counts a CJK character as two columns (wrapped-label rules compare widths).

HK cells (``hk_values_from_right``): amounts with an optional currency and cents (``HK(8.55) cents``,
``25.0 HK cents``), dashes for blanks; a trailing note reference (``5``, ``6(a)``, ``5,6``, ``3.1``, ``a``) is
removed from the label (``strip_hk_note``); a bilingual cell splits at its first CJK character
(``split_languages``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from mappings.statement_tables import cas_cells

_AMOUNT = re.compile(r"^\(?\$?\(?-?\d{1,3}(?:,\d{3})*(?:\.\d+)?\)?$|^\(?\$?\(?-?\d+(?:\.\d+)?\)?$")
_DASH = frozenset({"—", "–", "-", "−", "——", "--", "$—", "$-", "$–"})
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_LEADER = re.compile(r"\s*(?:\.\s?){2,}\s*$|\s*…+\s*$")  # dot leaders between a label and its values


def is_cell(tok: str) -> bool:
    return tok in _DASH or bool(_AMOUNT.match(tok))


_PERCENT = re.compile(r"^\(?-?\d{1,3}(?:\.\d+)?%\)?$")


def split_row(text: str) -> tuple[str, list[str]]:
    """(label, value cells) of one line; cells keep their printed form with a detached "$" folded in. A row that
    prints a percentage after each amount ("Net sales $ 3,226,773 100.0% $ 2,729,388 100.0%": a "% of net sales"
    column beside each period) gives the amounts; a percentage anywhere else ends the cells, as any word does."""
    amounts = _amounts_beside_percents(text.split())
    if amounts is not None:
        return amounts
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


def _amounts_beside_percents(toks: list[str]) -> tuple[str, list[str]] | None:
    """(label, amounts) when the line ends in amount-percentage pairs (each amount with its own "$" or not), else
    None."""
    amounts: list[str] = []
    toks = list(toks)
    while len(toks) >= 2 and _PERCENT.match(toks[-1]) and is_cell(toks[-2]) and toks[-2] not in _DASH:
        toks.pop()
        amounts.append(toks.pop())
        if toks and toks[-1] == "$":
            amounts[-1] = "$" + amounts[-1]
            toks.pop()
    if not amounts or (toks and (is_cell(toks[-1]) or _PERCENT.match(toks[-1]))):
        return None  # no pairs, or more cells before them than the pairs explain
    amounts.reverse()
    return _LEADER.sub("", " ".join(toks)).strip(), amounts


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


# ------------------------------------------------------------------------------------ A-share cells

LAST_NARROW_CODEPOINT = 0x2E7F  # characters above this (CJK radicals onwards) print two columns wide
CAS_NUMBER = re.compile(r"^[(（]?[-−–]?\d[\d,]*(?:\.\d+)?%?[)）]?%?$")
_CELLS = cas_cells()  # mappings/statement_tables.yaml `cas_cells`
CAS_BLANK = _CELLS.blank
_CAS_NOTE, CAS_NOTE_TAIL, _CAS_PCT_TEXT = _CELLS.note_ref, _CELLS.note_tail, _CELLS.percent_points


def is_cas_value_token(tok: str) -> bool:
    return bool(CAS_NUMBER.match(tok)) or tok in CAS_BLANK or bool(_CAS_PCT_TEXT.match(tok))


_POINTS_WORD = re.compile(r"个?百分点")


def split_cas_cells(text: str) -> tuple[str, list[str]]:
    """Label and trailing value cells (note references dropped)."""
    toks = text.split(" ")
    vals: list[str] = []
    while toks and (is_cas_value_token(toks[-1]) or (vals and _CAS_NOTE.match(toks[-1]))):
        tok = toks.pop()
        if _CAS_NOTE.match(tok) and not CAS_NUMBER.match(tok):
            continue
        vals.append(tok)
    vals.reverse()
    # "-0.06 个百分点": a change printed with its unit apart is one cell
    for k in range(len(vals) - 1, 0, -1):
        if _POINTS_WORD.fullmatch(vals[k]) and CAS_NUMBER.match(vals[k - 1]):
            vals[k - 1:k + 1] = [vals[k - 1] + vals[k]]
    label = " ".join(toks).strip()
    if vals and label:
        label = CAS_NOTE_TAIL.sub("", label).strip()
    if vals and re.fullmatch(r"\d{4}年?", label or "x"):
        return text, []
    return label, vals


def display_width(s: str) -> int:
    return sum(2 if ord(c) > LAST_NARROW_CODEPOINT else 1 for c in s)


# ------------------------------------------------------------------------------------ HK cells

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def split_languages(text: str) -> tuple[str, str]:
    """(English part, Chinese part) of a bilingual cell text: English is what precedes the first CJK."""
    m = CJK.search(text)
    if not m:
        return text.strip(), ""
    return text[: m.start()].strip(), text[m.start() :].strip()


_HK_NUMBER = r"\(?-?\d[\d,]*(?:\.\d+)?\)?"
_HK_VALUE = re.compile(
    r"(?:^|(?<=\s))("
    r"HK\s?\(?\d[\d,]*(?:\.\d+)?\)?\s?cents"  # HK(8.55) cents
    r"|(?:HK\$|RMB|S\$|US\$)?" + _HK_NUMBER + r"(?:\s?(?:HK\s?cents|cents|港仙|仙))?"
    r"|[–—\-−]"
    r")$"
)
_HK_NOTE_REF = re.compile(  # case-sensitive: "(a)" is a note, "(RMB)" is not
    r"\s+(?:[Nn]otes?\s*)?(?:\d{1,2}(?:\.\d{1,2})?(?:\([a-z0-9]{1,4}\))?(?:\s*,\s*\d{1,2}(?:\([a-z0-9]{1,4}\))?)*"
    r"|\([a-z]{1,4}\)|[a-h]|[ivx]{1,4})$"
)


def hk_values_from_right(line: str) -> list[tuple[str, int]]:
    """Numeric tokens at the end of the line, rightmost last, each with its start offset."""
    out: list[tuple[str, int]] = []
    end = len(line)
    while True:
        m = _HK_VALUE.search(line[:end].rstrip())
        if not m:
            break
        out.append((m.group(1), m.start(1)))
        end = m.start(1)
        if end == 0:
            break
    out.reverse()
    return out


def strip_hk_note(label: str) -> str:
    label = label.strip()
    while True:
        new = _HK_NOTE_REF.sub("", " " + label).strip()
        if new == label or not new:
            return label
        label = new


@dataclass
class PrintedAmount:
    value: Decimal | None
    cents: bool


def parse_hk_amount(tok: str) -> PrintedAmount:
    tok = tok.strip()
    if re.fullmatch(r"[–—\-−]", tok):
        return PrintedAmount(None, False)
    cents = bool(re.search(r"cents|港仙|仙", tok))
    core = re.sub(r"HK\s?cents|cents|港仙|仙|HK\$|RMB|S\$|US\$|HK", "", tok).strip()
    neg = core.startswith("(") or core.startswith("-")
    digits = core.strip("()-").replace(",", "")
    value = Decimal(digits)
    return PrintedAmount(-value if neg else value, cents)
