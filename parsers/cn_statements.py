"""A-share (CAS) statements from page text: balance sheet, income and cash-flow statements, and the reader's entry.

``extract(pages, info)`` is a pure function over :class:`Page` texts (one line per table row, cells joined
by single spaces). It finds statement titles first and parses only those regions, so it costs a few ms
per report. Every printed row with a value becomes one :class:`Fact` per value column, with the printed
label (wrapped labels joined), exact ``Decimal`` in base units, page, locator and the column's period.

Column assignment from text alone: a row whose number of value cells equals the table's number of value
columns is assigned left to right; a row with fewer cells (a blank cell somewhere) cannot be placed from
text and is skipped rather than guessed, except in a two-column balance sheet where the section's
subtotal (流动资产合计 etc.) admits exactly one assignment of the one-value rows to columns; such a row is
emitted only when its label is certain (printed whole on the value line). Parent-only statements
(母公司 / 银行 / 公司) get ``consolidated=False``.

The key-figures and quarterly tables are read by ``parsers.cn_key_figures``; a row's values become facts
(periods, units) in ``parsers.cn_statement_facts``. The jobs shared with the other markets' readers live in
the statement modules: cells of a line (``statement_lines``), wrapped labels and numbers and page furniture
(``statement_rows``), column headers (``statement_columns``), table regions and arithmetic placement of
one-value rows (``statement_tables``), unit lines (``statement_units``); this module holds the A-share
statement titles and the primary statements.
"""

from __future__ import annotations

import re

from mappings.statement_tables import cas_names, cas_title
from parsers.cn_key_figures import (MIN_TABLE_ROWS, in_key_table_pages, is_key_figures_title, is_quarters_title,
                                    read_key_figures, read_quarters)
from parsers.cn_statement_facts import ReadState, emit, is_known_label
from parsers.statement_columns import CAS_DATE, cas_statement_columns, is_cas_header_text
from parsers.statement_lines import display_width
from parsers.statement_reads import MIN_ROWS, ReadLog, StatementResult
from parsers.statement_rows import FULL_WIDTH_SHARE, join_wrapped_labels, strip_page_furniture, to_lines
from parsers.statement_tables import place_by_cash_identity, place_by_subtotals, table_region
from parsers.statement_units import cn_unit_in, is_cn_currency_line, is_cn_unit_line
from schema.models import DocumentInfo, Fact, Page

PARSER_VERSION = "cn_statements/3"

STATEMENT_MAX_PAGES = 6  # a statement region ends at most this many pages after its title
UNIT_LOOKAHEAD_LINES = 8  # the unit line of a table is printed within this many lines under its title


_CONSOLIDATED_Q, _PARENT_Q, _PERIOD_WORDS = cas_title()
_KIND = cas_names()  # 利润表 -> "income" (mappings/statements.yaml `printed.cas`)


def _alt(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_STMT_TITLE = re.compile(
    r"^(?:\d+[、.．]\s*|[一二三四五六七八九十]+、\s*|[（(][一二三四五六七八九十\d]+[)）]\s*)?"
    rf"({_alt(_CONSOLIDATED_Q + _PARENT_Q)})?(?:{_alt(_PERIOD_WORDS)})?"
    rf"({_alt(_KIND)})\s*(?:[（(]续[)）])?$"
)
_STOP = re.compile(
    r"^(公司负责人|企业负责人|法定代表人|主管会计工作负责人|财务报表由以下人士签署|补充资料)"
    r"|(所有者权益|股东权益)变动表|^[一二三四五六七八九十]+、\s*(公司基本情况|财务报表附注)"
)


def _parse_statement(ctx: ReadState, seq: list[tuple[int, int, str]], kind: str, consolidated: bool,
                     scale: int, word: str, ccy: str, title: str = "") -> int:
    lines = to_lines(seq)
    # header = lines before the first data row (after the unit line)
    first = next((i for i, ln in enumerate(lines) if ln.values and not is_cas_header_text(ln.text)
                  and not CAS_DATE.search(ln.text.replace(" ", ""))), None)
    if first is None:
        return 0
    if lines[first].kind == "V" and first > 0 and lines[first - 1].kind == "L" and not is_cas_header_text(lines[first - 1].text):
        first -= 1
    head_lines = []
    for ln in lines[:first]:
        scale, word, ccy = cn_unit_in(ln.text, scale, word, ccy)
        if is_cn_unit_line(ln.text) or "编制单位" in ln.text:
            head_lines = []
            continue
        head_lines.append(ln.text)
    header = "\n".join(head_lines)
    # the title's period words ("合并第三季度利润表" / "合并年初到报告期末利润表") are part of the header
    cols = cas_statement_columns(f"{title}\n{header}" if title else header, kind, ctx.info)
    if not cols:
        ctx.reason = "no period column header (本期发生额 / 期末余额 / a date or year) above the first row"
        return 0
    body = [ln for ln in lines[first:] if not is_cas_header_text(ln.text) and not _STMT_TITLE.match(ln.text)
            and not is_cn_unit_line(ln.text) and not re.fullmatch(r"\d{4}\s*年.*[日月度]", ln.text)]
    # 附注 column with bare numbers: values beyond the column count are handled in emit
    n = 0
    rows = join_wrapped_labels(body, known=is_known_label)
    for label, ln in rows:
        before = len(ctx.facts)
        emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
        n += len(ctx.facts) > before
    if kind == "balance" and len(cols) == 2:
        widths = [display_width(x.label) for x in body if x.label]
        maxw = max(widths) if widths else 0
        pos = {id(x): i for i, x in enumerate(body)}
        for label, ln in place_by_subtotals(rows):
            # emit only rows whose label is certain: printed whole on the value line, and not a long first
            # part of a label whose rest sits on the next line ("以公允价值计量且其变动 6,049,569.00" /
            # "计入当期损益的金融负债"): the arithmetic placed the value, the label must not be a guess
            i = pos.get(id(ln.src), -1)
            nxt = body[i + 1] if 0 <= i < len(body) - 1 else None
            wrapped_next = nxt is not None and nxt.kind == "L" and not nxt.label.endswith(("：", ":"))
            if label != ln.label or (wrapped_next and display_width(label) >= FULL_WIDTH_SHARE * maxw):
                continue
            emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
    if kind == "cashflow" and len(cols) == 2:
        for label, ln in place_by_cash_identity(rows):
            emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
    return n


def extract(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    """Facts of the key-figures table and the (consolidated and parent) statements in ``pages``."""
    return read(pages, info).facts


def read(pages: list[Page], info: DocumentInfo) -> StatementResult:
    """Facts, and the record of which statements were found on which pages and which could not be read."""
    ctx = ReadState(info)
    log = ReadLog.for_pages(pages)
    if not pages:
        return StatementResult([], log.records())
    lines = strip_page_furniture(pages)
    flat = [(p.page, idx, t) for p in pages for idx, t in lines.get(p.page, [])]
    ccy0 = info.currency or "CNY"

    def ctx_unit(k: int) -> tuple[int, str, str]:
        scale, word, ccy = 0, "元", ccy0
        for j in range(k + 1, min(k + UNIT_LOOKAHEAD_LINES, len(flat))):
            if is_cn_unit_line(flat[j][2]) or is_cn_currency_line(flat[j][2]):
                return cn_unit_in(flat[j][2], scale, word, ccy)
        return scale, word, ccy

    done: set[tuple[str, bool]] = set()
    key_done = qtr_done = False
    for k, (page, idx, text) in enumerate(flat):
        m = _STMT_TITLE.match(text)
        if m and m.group(1):
            kind = _KIND[m.group(2)]
            consolidated = m.group(1) in _CONSOLIDATED_Q
            if (kind, consolidated) in done or "续" in text:
                continue

            def stop(t: str) -> bool:
                mm = _STMT_TITLE.match(t)
                if mm and mm.group(1) and _KIND[mm.group(2)] == kind and (mm.group(1) in _CONSOLIDATED_Q) == consolidated:
                    return False  # (续) page of the same statement
                return bool(mm and mm.group(1)) or bool(_STOP.search(t))

            scale, word, ccy = ctx_unit(k)
            region = table_region(flat, k, stop, STATEMENT_MAX_PAGES)
            ctx.reason = ""
            rows = _parse_statement(ctx, region, kind, consolidated, scale, word, ccy, title=text)
            log.attempt(kind, consolidated, sorted({page} | {r[0] for r in region}), rows, ctx.reason)
            if rows >= MIN_ROWS:
                done.add((kind, consolidated))
        elif not key_done and is_key_figures_title(text) and in_key_table_pages(page, len(pages)):
            if read_key_figures(ctx, flat, k, ctx_unit(k)) >= MIN_TABLE_ROWS:
                key_done = True
        elif not qtr_done and is_quarters_title(text) and in_key_table_pages(page, len(pages)):
            if read_quarters(ctx, flat, k, ctx_unit(k)) >= MIN_TABLE_ROWS:
                qtr_done = True
    return StatementResult(ctx.facts, log.records())
