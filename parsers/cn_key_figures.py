"""A-share (CAS) key-figures and quarterly tables: 主要会计数据和财务指标 and 分季度主要财务数据.

Key figures: 调整后 columns are the comparatives, 调整前 ones carry ``dimensions={"restatement": "before"}``.
Narrow SZSE cells wrap numbers ("18,079,461,4" / "82.75") and header cells ("本年末比" / "上年末增" / "减"):
a cut-short number is joined with the digit tail on the next line(s) when every join is a well-formed
number; year cells on several header lines are taken in the fixed CSRC order (years descending, change
column after the prior year). The quarterly table (分季度主要财务数据) gives ``key_figures`` facts with
single-quarter durations (column "第一季度".., Q1 = first three months of the fiscal year).

Both tables are looked for on a report's first pages only (``in_key_table_pages``); ``read_key_figures`` and
``read_quarters`` read the table whose title is on line ``k`` and return how many rows gave facts.
"""

from __future__ import annotations

import datetime as dt
import re

from parsers import statement_periods as periods
from parsers.cn_statement_facts import ReadState, emit, fy_start_of, is_known_label
from parsers.statement_columns import CasColumn, cas_key_figure_columns, is_cas_header_text, is_cas_kf_header_text
from parsers.statement_rows import Line, join_wrapped_labels, join_wrapped_numbers, to_lines
from parsers.statement_tables import table_region
from parsers.statement_units import cn_unit_in, is_cn_currency_line, is_cn_unit_line

KEY_TABLE_MAX_PAGE = 30  # key-figure / quarterly tables are looked for on the first pages only: this many,
KEY_TABLE_PAGE_DIVISOR = 4  # or the first quarter of a longer report
KEY_TABLE_MAX_PAGES = 3  # a key-figures table spans at most this many pages
QUARTER_TABLE_MAX_PAGES = 2  # a quarterly table spans at most this many pages ...
QUARTER_TABLE_MAX_LINES = 40  # ... and this many lines
MIN_TABLE_ROWS = 2  # a key-figures or quarterly table read with fewer value rows is looked for again

_QTR_NAMES = {"一": 1, "二": 2, "三": 3, "四": 4}
_KEY_START = re.compile(r"主要会计数据和财务指标$|主要会计数据$|^[\d.]*\s*主要财务数据$|^[(（]一[)）]\s*主要会计数据")
_KEY_STOP = re.compile(
    r"说明$|非经常性损益项目|分季度|境内外会计准则|前\s*10\s*名|股东总数|^[(（][三四][)）]|^[八九十]、|"
    r"^2\.3(?![\d,])|^3\.2(?![\d,])|^（2）|^\(2\)|^二、|发生变动的情况"
)
# 分季度主要财务数据 (annual reports and summaries): single-quarter figures of the report year
_QTR_START = re.compile(r"分季度(?:的)?主要(?:会计|财务)(?:数据|指标)$")
_QTR_STOP = re.compile(
    r"上述财务指标|季度数据与已披露|波动原因|^[一二三四五六七八九十]+、|^\d+(?:、|\.\d+\s*[^\d\s,.\-])|"
    r"^[（(][一二三四五六七八九十\d]+[)）]"
)
_QTR_HEAD = re.compile(r"(?:(\d{4})年)?第([一二三四])季度")
_QTR_MONTHS = re.compile(r"^(?:[（(]\d{1,2}\s*[-－—–]\s*\d{1,2}\s*月份?[)）]\s*)+$")


def in_key_table_pages(page: int, n_pages: int) -> bool:
    """Is ``page`` among the first pages, where key-figures and quarterly tables are looked for?"""
    return page <= max(KEY_TABLE_MAX_PAGE, n_pages // KEY_TABLE_PAGE_DIVISOR)


def is_key_figures_title(text: str) -> bool:
    return bool(_KEY_START.search(text))


def is_quarters_title(text: str) -> bool:
    return bool(_QTR_START.search(text))


def read_key_figures(ctx: ReadState, flat: list[tuple[int, int, str]], k: int, unit: tuple[int, str, str]) -> int:
    """The key-figures table titled on line ``k`` of ``flat`` (page, line, text); ``unit`` is (scale, word,
    currency) from its unit line."""
    region = table_region(flat, k, lambda t: bool(_KEY_STOP.search(t)) and "主要财务指标" not in t, KEY_TABLE_MAX_PAGES)
    return _parse_key_figures(ctx, region, *unit)


def read_quarters(ctx: ReadState, flat: list[tuple[int, int, str]], k: int, unit: tuple[int, str, str]) -> int:
    """The quarterly table titled on line ``k`` of ``flat``, at most ``QUARTER_TABLE_MAX_LINES`` lines."""
    region = table_region(flat, k, lambda t: bool(_QTR_STOP.search(t)), QUARTER_TABLE_MAX_PAGES)[:QUARTER_TABLE_MAX_LINES]
    return _parse_quarters(ctx, region, *unit)


def _parse_key_figures(ctx: ReadState, seq: list[tuple[int, int, str]], scale: int, word: str, ccy: str) -> int:
    lines = to_lines(seq)
    n = 0
    i = 0
    cols: list[CasColumn] | None = None
    header: list[str] = []
    block: list[Line] = []

    def flush():
        nonlocal n
        if cols and block:
            for label, ln in join_wrapped_labels(join_wrapped_numbers(block), sandwich=True, known=is_known_label):
                before = len(ctx.facts)
                emit(ctx, label, ln, cols, "key_figures", True, scale, word, ccy)
                n += len(ctx.facts) > before
        block.clear()

    while i < len(lines):
        ln = lines[i]
        s, w, c = cn_unit_in(ln.text, scale, word, ccy)
        if (s, w, c) != (scale, word, ccy):
            flush()
            scale, word, ccy = s, w, c
            i += 1
            continue
        is_head = (not ln.values and is_cas_kf_header_text(ln.text)) or (
            ln.values and is_cas_header_text(ln.label or "项目") and re.search(r"\d{4}年", ln.text)
        ) or (ln.kind == "L" and re.search(r"本报告期|上年同期|上年度末|年初至报告期|调整[前后]", ln.text)
              and not re.search(r"营业|利润|资产|收益|现金", ln.text))
        if is_head:
            if block and not header:
                pass
            if block:
                flush()
            header.append(ln.text)
            i += 1
            continue
        if header and ln.values:
            new = cas_key_figure_columns("\n".join(header), ctx.info)
            if new:
                cols = new
            header = []
        elif header and ln.kind == "L" and not (i + 1 < len(lines) and lines[i + 1].values):
            header.append(ln.text)  # wrapped header fragments ("减变动幅度", "末")
            i += 1
            continue
        elif header:
            new = cas_key_figure_columns("\n".join(header), ctx.info)
            if new:
                cols = new
            header = []
        block.append(ln)
        i += 1
    flush()
    return n


def _parse_quarters(ctx: ReadState, seq: list[tuple[int, int, str]], scale: int, word: str, ccy: str) -> int:
    """The quarterly table: columns 第一季度..第四季度 (optionally "2024年第一季度"), one fact per quarter with
    that quarter's own duration (Q1 = the first three months of the fiscal year, and so on)."""
    info = ctx.info
    cols: list[CasColumn] | None = None
    body: list[Line] = []
    for ln in to_lines(seq):
        s2, w2, c2 = cn_unit_in(ln.text, scale, word, ccy)
        if is_cn_unit_line(ln.text) or is_cn_currency_line(ln.text):
            scale, word, ccy = s2, w2, c2
            continue
        if cols is None:
            qs = _QTR_HEAD.findall(ln.text.replace(" ", ""))
            nums = [_QTR_NAMES[q] for _, q in qs]
            if len(qs) >= 2 and nums == list(range(nums[0], nums[0] + len(nums))):
                cols = []
                for (y, q), n in zip(qs, nums):
                    fy = int(y) if y else info.fiscal_year
                    if fy is None:
                        return 0
                    start = periods.add_months(fy_start_of(info, fy), 3 * (n - 1))
                    end = periods.add_months(start, 3) - dt.timedelta(days=1)
                    cols.append(CasColumn(f"{y}年第{q}季度" if y else f"第{q}季度", "qtr", date=end, start=start))
            continue
        if _QTR_MONTHS.match(ln.text) or is_cas_header_text(ln.text):
            continue
        body.append(ln)
    if not cols:
        return 0
    n = 0
    for label, ln in join_wrapped_labels(join_wrapped_numbers(body), sandwich=True):
        before = len(ctx.facts)
        emit(ctx, label, ln, cols, "key_figures", True, scale, word, ccy)
        n += len(ctx.facts) > before
    return n
