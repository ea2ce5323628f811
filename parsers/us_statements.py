"""US PDF statements (10-K, 10-Q, annual reports, the statements printed in 8-K earnings releases):
income statement, balance sheet and cash-flow statement -> raw facts with page, printed label, scale and the
period of each printed column.

``read(pages, info)`` finds each statement's pages by its title (``mappings.statements.title_statement``),
reads every candidate page and keeps the one whose rows are a statement (most rows mapped to canonical
metrics; a contents page or a note that names the statement reads few), plus a continuation page that carries
the same title or starts with the same columns. On a page:

* the unit caption ("(In millions, except per share data)", "$ in thousands") sets the scale
  (``mappings/statement_tables.yaml`` ``units.us``); a page without one is not read (the scale is never guessed);
* the header lines above the first value row give the columns (``parsers.statement_columns``);
* a row is a label and exactly one value per column (``parsers.statement_lines``; a percentage printed beside
  each amount, "$ 3,226,773 100.0%", is a "% of net sales" column and dropped); a row with fewer values, or with
  more values than columns that are not footnote numbers, cannot be placed and is skipped; a line without values is a heading ("Current assets:") or the first part
  of a wrapped label (joined when the next line starts in lower case); "Basic" / "Diluted" rows take the
  per-share heading above them in front; the first unlabelled row under a heading is that block's total and
  takes the heading as its label ("Revenues" over "Casino", "Rooms", ... and their sum);
* per-share rows keep their printed value (USD/share), share counts are scaled like money, cash at the
  beginning / end of the period becomes an instant;
* the statement's title printed again lower on the page starts another block with its own header (an earnings
  release prints the quarter's statement, then the year's); a block of periods already read is not read again.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal

from mappings.metrics import metric_for_label
from mappings.statements import TITLE_LINES, statements, title_statement
from parsers.statement_columns import Column, is_header_line, read_columns
from parsers.statement_lines import is_year_cells, parse_amount, split_row
from parsers.statement_reads import PRIMARY, ReadLog, StatementResult
from parsers import us_quarterly_data, us_selected_data
from parsers.statement_units import rule_unit
from schema.models import DocumentInfo, Fact, Page

PARSER_VERSION = "us_statements/2"
HEADER_LINES = 14  # the column header sits within this many lines below the title
UNIT_ABOVE_TITLE = 3  # a unit caption may sit this many lines above the title (company name, caption, title)
SCALE_WORDS = {0: "units", 3: "thousands", 6: "millions", 9: "billions"}
_END = re.compile(r"accompanying notes|see notes to|notes to (?:the )?(?:condensed )?consolidated financial statements"
                  r"|are an integral part", re.I)
_PER_SHARE = re.compile(r"per (?:common |ordinary |diluted |basic )?share|per (?:class \w )?share|\beps\b", re.I)
_SHARES = re.compile(r"\bshares\b|\bshare count\b", re.I)
_EPS_ROW = re.compile(r"^(?:[-—–]\s*)?(?:basic|diluted|basic and diluted)\b", re.I)
_BEGIN = re.compile(r"beginning of (?:the )?(?:period|year|quarter)|at beginning|, beginning", re.I)
_ENDING = re.compile(r"end of (?:the )?(?:period|year|quarter)|at end|, end", re.I)
# a label line ending like this continues on the next line ("NET INCOME ATTRIBUTABLE TO SHAREOWNERS OF" /
# "THE COCA-COLA COMPANY $ 1,248")
_CONTINUES = re.compile(r"(?:,|\b(?:and|or|of|to|for|from|in|on|the|attributable|before|by|with)|[-—–])$", re.I)
_FOOTNOTE = re.compile(r"\(?[1-9]\d?\)?")  # a footnote or note number printed between a label and its figures
HEADING_TOTAL_ITEMS = 2  # an unlabelled row is a heading's total only after this many item rows under it
_PAGE_NUMBER = re.compile(r"^(?:\d{1,3}|page \d+|f-\d+|- ?\d+ ?-|table of contents|index)$", re.I)


_NOTE_REF = re.compile(r"\s*\((?:see )?notes? \d+[\w]*(?:(?:,| and|, and) \d+[\w]*)*\)", re.I)
_SPACED_CLOSE = re.compile(r"(\d) \)")


def _tidy(line: str) -> str:
    """A row as ``split_row`` reads it: note references dropped ("Cash and cash equivalents (Notes 1 and 2)"),
    a parenthesis closed after a space joined to its figure ("(28,107 )")."""
    return _SPACED_CLOSE.sub(r"\1)", _NOTE_REF.sub("", line))


@dataclass
class _PageRead:
    page: int
    facts: list[Fact] = field(default_factory=list)
    rows: int = 0
    mapped: set[str] = field(default_factory=set)
    columns: list[Column] = field(default_factory=list)
    unit: tuple[int, str] | None = None  # (scale, scale word) of the page's unit caption
    reason: str = ""
    own: bool = False  # a column ends on the report's own period end

    @property
    def score(self) -> tuple[bool, int, int]:
        """The statement itself prints the report's own period; a note that repeats its title (a prior year
        restated for a new standard, a parent-only statement) usually does not."""
        return self.own, len(self.mapped), self.rows


def _title_index(lines: list[str], statement: str, start: int = 0) -> int | None:
    patterns = statements()[statement].titles
    for i in range(start, min(len(lines), start + TITLE_LINES)):
        if any(p.search(lines[i]) for p in patterns):
            return i
    return None


def _is_title(line: str, statement: str) -> bool:
    """A line that titles the statement again (an earnings release prints the quarter's statement, then the
    year's, under the same title on one page)."""
    return not split_row(line)[1] and any(p.search(line) for p in statements()[statement].titles)


def _kind(label: str, heading: str) -> str:
    if _PER_SHARE.search(label) or (_EPS_ROW.match(label) and _PER_SHARE.search(heading)):
        return "per_share"
    if _SHARES.search(label) and not re.search(r"\$|dollars|proceeds|repurchase|purchase|issuance|dividends|"
                                               r"compensation|based|payments|equity|capital|stock\s", label, re.I):
        return "shares"
    return "money"


def _read_page(page: Page, statement: str, info: DocumentInfo, continued: list[Column] | None = None,
               unit: tuple[int, str] | None = None) -> _PageRead:
    """Every block of the statement on a page: the first, and each one a repeated title starts below it whose
    columns are other periods (the quarter's statement, then the year's)."""
    out = _PageRead(page.page)
    lines = [x.strip() for x in page.text.split("\n") if x.strip()]
    begin: int | None = 0
    while begin is not None:
        block = _PageRead(page.page)
        begin = _read_block(block, lines, begin, statement, info, continued, unit)
        if begin is not None and not block.rows:
            break  # a title below a block that read nothing: the page is not this statement's
        if block.columns and out.columns and \
                {(c.end, c.months) for c in block.columns} <= {(c.end, c.months) for c in out.columns}:
            break  # the same periods again: another presentation (parent only, a segment), not read
        out.facts += block.facts
        out.rows += block.rows
        out.mapped |= block.mapped
        out.columns = block.columns or out.columns
        out.unit = block.unit or out.unit
        out.reason = out.reason or block.reason
        out.own = out.own or block.own
        continued = None  # a block below a repeated title reads its own header
    return out


def _read_block(out: _PageRead, lines: list[str], begin: int, statement: str, info: DocumentInfo,
                continued: list[Column] | None, unit: tuple[int, str] | None) -> int | None:
    """Read the block starting at line ``begin`` into ``out``; the line where the statement's title starts
    another block, or None."""
    t = _title_index(lines, statement, begin)
    start = begin if t is None else t + 1
    # header: lines up to the first row with values that are not years
    first = None
    for i in range(start, min(len(lines), start + HEADER_LINES + 4)):
        label, cells = split_row(lines[i])
        if cells and not is_year_cells(cells) and label and not rule_unit("us", label) \
                and not is_header_line(lines[i]):
            first = i
            break
    if first is None:
        out.reason = "no value rows below the title"
        return None
    # the unit caption: in the title block (a few lines above the title down to the first row)
    hit = next((h for h in (rule_unit("us", x) for x in lines[max(0, (t or 0) - UNIT_ABOVE_TITLE): first]) if h), None)
    if hit:
        out.unit = (hit[1], SCALE_WORDS.get(hit[1], f"1e{hit[1]}"))
    elif unit:
        out.unit = unit
    else:
        out.reason = "no unit caption (in millions / in thousands) in the title block"
        return None
    scale, scale_word = out.unit
    header = lines[start:first]
    if continued is not None and not any(re.search(r"(?:19|20)\d\d", h) for h in header):
        cols, why = continued, ""
    else:
        cols, why = read_columns(header, statement, info.form, info.fiscal_year_end_month or 12, info.period_end)
    if not cols:
        out.reason = why
        return None
    out.columns = cols
    out.own = info.period_end is not None and any(c.end == info.period_end for c in cols)
    n = len(cols)
    ccy = info.currency or "USD"
    # the line right above the first row may be the first heading ("Revenues" under the column header)
    above = lines[first - 1] if first > start else ""
    heading = above if above and not re.search(r"\d", above) and not is_header_line(above) \
        and not rule_unit("us", above) else ""
    heading_total = False  # the heading's unlabelled total has been read
    items = 0  # value rows placed under the current heading
    placed = False  # the line before was a placed value row
    pending: list[str] = []
    for idx in range(first, len(lines)):
        line = lines[idx]
        if _END.search(line):
            break
        if idx > first and _is_title(line, statement):
            return idx
        if _PAGE_NUMBER.match(line):
            continue
        label, cells = split_row(_tidy(line))
        if not label and not pending and heading and not heading_total and len(cells) >= n and placed \
                and items >= HEADING_TOTAL_ITEMS and not _PER_SHARE.search(heading):
            label, heading_total = heading.rstrip(":"), True  # "Revenues" over its items, then their total
        placed = False
        if len(cells) < n or not label and not pending:
            if not cells:
                if pending and (line[:1].islower() or _CONTINUES.search(pending[-1])):
                    pending.append(line)
                else:
                    if pending:
                        heading, heading_total, items = " ".join(pending), False, 0
                    pending = [line]
            else:
                pending = []  # a row that cannot be placed (a blank cell): skipped, never guessed
            continue
        if pending and (label[:1].islower() or _CONTINUES.search(pending[-1])):
            label = " ".join(pending + [label])
        elif not label:
            label = " ".join(pending)
        elif pending:
            heading, heading_total, items = " ".join(pending), False, 0
        pending = []
        placed, items = True, items + 1
        if _EPS_ROW.match(label) and heading and (_PER_SHARE.search(heading) or _SHARES.search(heading)):
            label = f"{heading.rstrip(':')} {label}"  # "Earnings per share: Basic", "Weighted-average shares: Basic"
        if len(cells) > n and not all(_FOOTNOTE.fullmatch(c) for c in cells[:-n]):
            continue  # more figures than columns (a "percent to sales" column beside each amount): not placed
        cells = cells[-n:]
        kind = _kind(label, heading)
        made = _emit(out.page, idx + 1, label, cells, cols, statement, kind, scale, scale_word, ccy)
        if made:
            out.facts += made
            out.rows += 1
            if metric_for_label("US", statement, label):
                out.mapped.add(label.casefold())
    return None


def _emit(page: int, row: int, label: str, cells: list[str], cols: list[Column], statement: str, kind: str,
          scale: int, scale_word: str, ccy: str) -> list[Fact]:
    made = []
    instant = None
    if statement == "cashflow":
        instant = "begin" if _BEGIN.search(label) else "end" if _ENDING.search(label) else None
    for ci, (cell, col) in enumerate(zip(cells, cols)):
        v = parse_amount(cell)
        if v is None:
            continue
        if kind == "per_share":
            value, unit, sc, orig = v, f"{ccy}/share", 0, f"{ccy}/share"
        elif kind == "shares":
            value, unit, sc, orig = v * Decimal(10) ** scale, "shares", scale, f"shares, {scale_word}"
        else:
            value, unit, sc, orig = v * Decimal(10) ** scale, ccy, scale, scale_word
        if col.months is None:
            start, end, ptype = None, col.end, "instant"
        elif instant == "begin":
            start, end, ptype = None, col.start - dt.timedelta(days=1), "instant"
        elif instant == "end":
            start, end, ptype = None, col.end, "instant"
        else:
            start, end, ptype = col.start, col.end, "duration"
        made.append(Fact(
            label=label, value=value, value_text=cell, unit=unit, scale=sc, original_unit=orig,
            period_start=start, period_end=end, period_type=ptype, statement=statement, consolidated=True,
            page=page, locator=f"p{page} r{row} c{ci + 1}", column=col.header,
        ))
    return made


def read(pages: list[Page], info: DocumentInfo) -> StatementResult:
    """Facts of the income statement, balance sheet and cash-flow statement, and the read record."""
    log = ReadLog.for_pages(pages)
    if not info.company_metrics:
        return StatementResult([], [])
    titled: dict[str, list[int]] = {st: [] for st in PRIMARY}
    for i, p in enumerate(pages):
        st = title_statement(p.text)
        if st in titled:
            titled[st].append(i)
    facts: list[Fact] = []
    for st in PRIMARY:
        best: _PageRead | None = None
        tried: list[_PageRead] = []
        for i in titled[st]:
            r = _read_page(pages[i], st, info)
            tried.append(r)
            if r.rows and (best is None or r.score > best.score):
                best = r
        if best is None or best.rows == 0:
            if tried:
                why = "; ".join(f"p{r.page}: {r.reason or 'no rows'}" for r in tried[:4])
                log.attempt(st, True, [r.page for r in tried], 0, why)
            continue
        reads = [best]
        nxt = best.page  # 1-based number of the page after best (0-based index)
        if nxt < len(pages) and title_statement(pages[nxt].text) in (st, None):
            more = _read_page(pages[nxt], st, info, continued=best.columns, unit=best.unit)
            if more.rows and {(c.header, c.end) for c in more.columns} == {(c.header, c.end) for c in best.columns} \
                    and not _restarts(more, best):
                reads.append(more)
        for r in reads:
            facts += r.facts
        log.attempt(st, True, [r.page for r in reads], sum(r.rows for r in reads))
    return StatementResult(facts + us_selected_data.read(pages, info) + us_quarterly_data.read(pages, info), log.records())


def _restarts(more: _PageRead, best: _PageRead) -> bool:
    """A following page that repeats rows of the first (another presentation of the same statement, e.g.
    the parent-only statement or a segment table) is not its continuation."""
    labels = {f.label for f in best.facts}
    return sum(f.label in labels for f in more.facts) > len(more.facts) // 2


def extract(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    return read(pages, info).facts
