"""A-share (CAS) statements from page text: key figures, balance sheet, income and cash-flow statements.

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

Key figures: 调整后 columns are the comparatives, 调整前 ones carry ``dimensions={"restatement": "before"}``.
Narrow SZSE cells wrap numbers ("18,079,461,4" / "82.75") and header cells ("本年末比" / "上年末增" / "减"):
a cut-short number is joined with the digit tail on the next line(s) when every join is a well-formed
number; year cells on several header lines are taken in the fixed CSRC order (years descending, change
column after the prior year). The quarterly table (分季度主要财务数据) gives ``key_figures`` facts with
single-quarter durations (column "第一季度".., Q1 = first three months of the fiscal year).

The jobs shared with the other markets' readers live in the statement modules: cells of a line
(``statement_lines``), wrapped labels and numbers and page furniture (``statement_rows``), column headers
(``statement_columns``), table regions and arithmetic placement of one-value rows (``statement_tables``),
unit lines (``statement_units``); this module holds the A-share table kinds, their periods and the facts.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from mappings.metrics import label_index, market_label
from mappings.statement_tables import cas_names, cas_title
from parsers import statement_periods as periods
from parsers.statement_columns import (CAS_DATE, CasColumn, cas_key_figure_columns, cas_statement_columns,
                                       is_cas_header_text, is_cas_kf_header_text)
from parsers.statement_lines import CAS_BLANK, CAS_NUMBER, display_width, parse_amount
from parsers.statement_reads import MIN_ROWS, ReadLog, StatementResult
from parsers.statement_rows import (FULL_WIDTH_SHARE, Line, join_wrapped_labels, join_wrapped_numbers,
                                    strip_page_furniture, to_lines)
from parsers.statement_tables import place_by_cash_identity, place_by_subtotals, table_region
from parsers.statement_units import cn_unit_in, is_cn_currency_line, is_cn_unit_line
from schema.models import DocumentInfo, Fact, Page

PARSER_VERSION = "cn_statements/2"

STATEMENT_MAX_PAGES = 6  # a statement region ends at most this many pages after its title
KEY_TABLE_MAX_PAGE = 30  # key-figure / quarterly tables are looked for on the first pages only: this many,
KEY_TABLE_PAGE_DIVISOR = 4  # or the first quarter of a longer report
KEY_TABLE_MAX_PAGES = 3  # a key-figures table spans at most this many pages
QUARTER_TABLE_MAX_PAGES = 2  # a quarterly table spans at most this many pages ...
QUARTER_TABLE_MAX_LINES = 40  # ... and this many lines
UNIT_LOOKAHEAD_LINES = 8  # the unit line of a table is printed within this many lines under its title
MIN_TABLE_ROWS = 2  # a key-figures or quarterly table read with fewer value rows is looked for again

_CONSOLIDATED_Q, _PARENT_Q, _PERIOD_WORDS = cas_title()
_KIND = cas_names()  # 利润表 -> "income" (mappings/statements.yaml `printed.cas`)


def _is_known_label(label: str) -> bool:
    """A label of mappings/labels_cn.yaml (any statement), compared as the label map compares."""
    return market_label("A", label) in _KNOWN_LABELS


_KNOWN_LABELS = frozenset(label for _statement, label in label_index("A"))


def _alt(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_STMT_TITLE = re.compile(
    r"^(?:\d+[、.．]\s*|[一二三四五六七八九十]+、\s*|[（(][一二三四五六七八九十\d]+[)）]\s*)?"
    rf"({_alt(_CONSOLIDATED_Q + _PARENT_Q)})?(?:{_alt(_PERIOD_WORDS)})?"
    rf"({_alt(_KIND)})\s*(?:[（(]续[)）])?$"
)
_QTR_NAMES = {"一": 1, "二": 2, "三": 3, "四": 4}
_STOP = re.compile(
    r"^(公司负责人|企业负责人|法定代表人|主管会计工作负责人|财务报表由以下人士签署|补充资料)"
    r"|(所有者权益|股东权益)变动表|^[一二三四五六七八九十]+、\s*(公司基本情况|财务报表附注)"
)

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
_INSTANT_KF = re.compile(r"(总资产|资产总额|资产总计|净资产|所有者权益|股东权益|股本|负债总额|负债合计|总负债)")


# ---------------------------------------------------------------------------------------------- periods


def _fye(info: DocumentInfo) -> int:
    return info.fiscal_year_end_month or 12


def _fy_start(info: DocumentInfo, year: int) -> dt.date:
    return periods.fy_start(year, _fye(info))


def _fy_end(info: DocumentInfo, year: int) -> dt.date:
    return periods.fy_end(year, _fye(info))


_shift = periods.shift_years


def _period_end(info: DocumentInfo) -> dt.date:
    if info.period_end:
        return info.period_end
    fy = info.fiscal_year or 1900
    months = {"Q1": 3, "H1": 6, "Q3": 9, "9M": 9}.get(info.fiscal_period or "FY")
    if months:
        return periods.month_end(fy, months)
    return _fy_end(info, fy)


def _duration(info: DocumentInfo, role: str, offset: int) -> tuple[dt.date, dt.date]:
    end = _shift(_period_end(info), offset)
    fy = (info.fiscal_year or end.year) - offset
    if role == "q":  # the quarter ending at period end (本报告期 in a Q3 report)
        m = end.month - 2
        return dt.date(end.year, m, 1), end
    return _fy_start(info, fy), end


def _unit_of(label: str, statement: str) -> str:
    if re.search(r"[（(]股[)）]|股数", label):
        return "shares"
    if "每股" in label and ("收益" in label or "净资产" in label or "元" in label or "现金流量" in label):
        return "CNY/share"
    if "%" in label or "％" in label or "收益率" in label or "比率" in label:
        return "pure"
    return "money"


class _Ctx:
    def __init__(self, info: DocumentInfo):
        self.info = info
        self.facts: list[Fact] = []
        self.reason = ""  # why the last statement gave no rows, when it is known


def _emit(ctx: _Ctx, label: str, ln: Line, cols: list[CasColumn], statement: str, consolidated: bool,
          scale: int, unit_word: str, ccy: str, kf_block_instant: bool | None = None) -> None:
    info = ctx.info
    vals = list(ln.values)
    if len(vals) > len(cols):  # bare note numbers (bank: "现金及存放中央银行款项 1 268,973 274,663")
        extra = vals[: len(vals) - len(cols)]
        if all(re.fullmatch(r"\d{1,3}", x) for x in extra):
            vals = vals[len(extra):]
    if ln.floating and len(vals) + len(ln.floating) == len(cols):
        pct_cols = [c for c in cols if c.role == "pct"]
        if len(pct_cols) != len(ln.floating):
            return
        rest, flo = iter(vals), iter(ln.floating)
        vals = [next(flo) if c.role == "pct" else next(rest) for c in cols]
    if len(vals) != len(cols):
        return
    kind = _unit_of(label, statement)
    for ci, (tok, col) in enumerate(zip(vals, cols)):
        if col.role == "pct" or tok in CAS_BLANK or not CAS_NUMBER.match(tok):
            continue
        if tok.endswith("%") and kind != "pure":
            continue
        v = parse_amount(tok)
        if v is None:
            continue
        p_start = p_end = None
        ptype = "duration"
        instant = statement == "balance" or (statement == "key_figures" and bool(_INSTANT_KF.search(label))
                                                 and "每股收益" not in label and "收益率" not in label)
        pe = _period_end(info)
        fy = info.fiscal_year or pe.year
        role = col.role
        if role == "qtr":
            p_start, p_end = col.start, col.date
        elif role == "date":
            ptype, p_end = "instant", col.date
        elif role in ("end", "open"):
            ptype = "instant"
            p_end = pe if role == "end" else _fy_end(info, fy - 1)
        elif role == "year":
            off = fy - (col.year or fy)
            if instant:
                ptype, p_end = "instant", _fy_end(info, fy - off)
            else:
                p_start, p_end = _fy_start(info, fy - off), _fy_end(info, fy - off)
        elif statement == "balance":
            ptype = "instant"
            p_end = pe if role in ("cur", "q_cur") else _fy_end(info, fy - 1)
        else:
            off = 0 if role in ("cur", "q", "ytd", "q_cur") else 1
            if instant and statement == "key_figures":
                ptype = "instant"
                p_end = pe if off == 0 else _fy_end(info, fy - 1)
            else:
                span = "q" if role in ("q", "q_cur", "q_prior") else "ytd"
                p_start, p_end = _duration(info, span, off)
        if statement == "cashflow" and ptype == "duration" and re.search(r"(期末|年末|期初|年初)现金及现金等价物余额", label):
            ptype = "instant"
            if re.search(r"期初|年初", label):
                p_end = p_start - dt.timedelta(days=1)
        if kind == "money":
            value, unit, sc, ou = v * (Decimal(10) ** scale), ccy, scale, unit_word
        elif kind == "CNY/share":
            value, unit, sc, ou = v, f"{ccy}/share", 0, "元/股"
        elif kind == "shares":
            value, unit, sc, ou = v, "shares", 0, "股"
        else:
            value, unit, sc, ou = v, "pure", 0, "%"
        dims = {"restatement": "before"} if col.before else {}
        ctx.facts.append(Fact(
            label=label, value=value, value_text=tok, unit=unit, scale=sc, original_unit=ou,
            period_start=p_start if ptype == "duration" else None, period_end=p_end, period_type=ptype,
            dimensions=dims, statement=statement, consolidated=consolidated, page=ln.page,
            locator=f"p{ln.page} r{ln.idx} c{ci + 1}", column=col.name,
        ))


_unit_in = cn_unit_in


def _parse_statement(ctx: _Ctx, seq: list[tuple[int, int, str]], kind: str, consolidated: bool,
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
        scale, word, ccy = _unit_in(ln.text, scale, word, ccy)
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
    # 附注 column with bare numbers: values beyond the column count are handled in _emit
    n = 0
    rows = join_wrapped_labels(body, known=_is_known_label)
    for label, ln in rows:
        before = len(ctx.facts)
        _emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
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
            _emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
    if kind == "cashflow" and len(cols) == 2:
        for label, ln in place_by_cash_identity(rows):
            _emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
    return n


def _parse_key_figures(ctx: _Ctx, seq: list[tuple[int, int, str]], scale: int, word: str, ccy: str) -> int:
    lines = to_lines(seq)
    n = 0
    i = 0
    cols: list[CasColumn] | None = None
    header: list[str] = []
    block: list[Line] = []

    def flush():
        nonlocal n
        if cols and block:
            for label, ln in join_wrapped_labels(join_wrapped_numbers(block), sandwich=True):
                before = len(ctx.facts)
                _emit(ctx, label, ln, cols, "key_figures", True, scale, word, ccy)
                n += len(ctx.facts) > before
        block.clear()

    while i < len(lines):
        ln = lines[i]
        s, w, c = _unit_in(ln.text, scale, word, ccy)
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


_add_months = periods.add_months


def _parse_quarters(ctx: _Ctx, seq: list[tuple[int, int, str]], scale: int, word: str, ccy: str) -> int:
    """The quarterly table: columns 第一季度..第四季度 (optionally "2024年第一季度"), one fact per quarter with
    that quarter's own duration (Q1 = the first three months of the fiscal year, and so on)."""
    info = ctx.info
    cols: list[CasColumn] | None = None
    body: list[Line] = []
    for ln in to_lines(seq):
        s2, w2, c2 = _unit_in(ln.text, scale, word, ccy)
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
                    start = _add_months(_fy_start(info, fy), 3 * (n - 1))
                    end = _add_months(start, 3) - dt.timedelta(days=1)
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
        _emit(ctx, label, ln, cols, "key_figures", True, scale, word, ccy)
        n += len(ctx.facts) > before
    return n


def extract(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    """Facts of the key-figures table and the (consolidated and parent) statements in ``pages``."""
    return read(pages, info).facts


def read(pages: list[Page], info: DocumentInfo) -> StatementResult:
    """Facts, and the record of which statements were found on which pages and which could not be read."""
    ctx = _Ctx(info)
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
                return _unit_in(flat[j][2], scale, word, ccy)
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
        elif not key_done and _KEY_START.search(text) and page <= max(KEY_TABLE_MAX_PAGE, len(pages) // KEY_TABLE_PAGE_DIVISOR):
            region = table_region(flat, k, lambda t: bool(_KEY_STOP.search(t)) and "主要财务指标" not in t, KEY_TABLE_MAX_PAGES)
            scale, word, ccy = ctx_unit(k)
            if _parse_key_figures(ctx, region, scale, word, ccy) >= MIN_TABLE_ROWS:
                key_done = True
        elif not qtr_done and _QTR_START.search(text) and page <= max(KEY_TABLE_MAX_PAGE, len(pages) // KEY_TABLE_PAGE_DIVISOR):
            region = table_region(flat, k, lambda t: bool(_QTR_STOP.search(t)), QUARTER_TABLE_MAX_PAGES)[:QUARTER_TABLE_MAX_LINES]
            scale, word, ccy = ctx_unit(k)
            if _parse_quarters(ctx, region, scale, word, ccy) >= MIN_TABLE_ROWS:
                qtr_done = True
    return StatementResult(ctx.facts, log.records())
