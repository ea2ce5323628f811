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
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from mappings.statement_tables import cas_cash_identity, cas_label_tail, cas_names, cas_title
from parsers import statement_periods as periods
from parsers.statement_lines import parse_amount
from parsers.statement_reads import MIN_ROWS, ReadLog, StatementResult
from parsers.statement_units import cn_unit_in, is_cn_currency_line, is_cn_unit_line
from schema.models import DocumentInfo, Fact, Page

PARSER_VERSION = "cn_statements/2"

_CONSOLIDATED_Q, _PARENT_Q, _PERIOD_WORDS = cas_title()
_KIND = cas_names()  # 利润表 -> "income" (mappings/statements.yaml `printed.cas`)
_LABEL_TAIL = cas_label_tail()  # "（或股东权益）合计" under a value row ends that row's label


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
_NUM = re.compile(r"^[(（]?[-−–]?\d[\d,]*(?:\.\d+)?%?[)）]?%?$")
_NOTE = re.compile(
    r"^(?:[一二三四五六七八九十]+、[\d（()）一二三四五六七八九十]*|附注[\d（()）一二三四五六七八九十、]*|注释[\d、]*|"
    r"[（(][一二三四五六七八九十]+[)）]\d*)$"
)
_NOTE_TAIL = re.compile(
    r"\s*[一二三四五六七八九十]+、\s*(?:[（(][一二三四五六七八九十\d]+[)）])?\s*\d*$|\s+\d{1,3}(?:[（(]\d+[)）])+$"
)
_BLANK = {"-", "—", "--", "——", "－", "不适用", "/", "N/A"}
_PCT_TEXT = re.compile(r"^(增加|减少|上升|下降)?[-\d.]*个?百分点$|^(增加|减少)[-\d.]+个?$")
_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")
_FOOT = re.compile(r"^(\d+\s*/\s*\d+|\d{1,3}|第\s*\d+\s*页.*|-\s*\d+\s*-)$")

_KEY_START = re.compile(r"主要会计数据和财务指标$|主要会计数据$|^[\d.]*\s*主要财务数据$|^[(（]一[)）]\s*主要会计数据")
_KEY_STOP = re.compile(
    r"说明$|非经常性损益项目|分季度|境内外会计准则|前\s*10\s*名|股东总数|^[(（][三四][)）]|^[八九十]、|"
    r"^2\.3|^3\.2|^（2）|^\(2\)|^二、|发生变动的情况"
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


@dataclass
class _Line:
    page: int
    idx: int  # 1-based line number on the page
    text: str
    label: str = ""
    values: list[str] = field(default_factory=list)
    # change-column cells ("16.31%") printed on a line of their own between the two halves of a row whose
    # numbers wrap (see _join_wrapped): they belong to the table's pct columns, the values to the others
    floating: list[str] = field(default_factory=list)
    src: "_Line | None" = None  # the printed line a synthetic line (blank cell filled in) stands for

    @property
    def kind(self) -> str:
        if self.values and not self.label:
            return "V"
        if self.values:
            return "LV"
        return "L"


@dataclass
class _Col:
    name: str
    role: str  # "cur", "prior", "prior2", "pct", "q", "ytd", "end", "open", "date", "year", "qtr"
    before: bool = False  # 调整前 (restated comparatives: the value before restatement)
    date: dt.date | None = None  # instant date; the end of a "qtr" column's quarter
    start: dt.date | None = None  # first day of a "qtr" column's quarter
    year: int | None = None


# ---------------------------------------------------------------------------------------------- lines


def _strip_headers(pages: list[Page]) -> dict[int, list[tuple[int, str]]]:
    """Page -> [(1-based line no, text)] without repeated page headers and page-number footers."""
    split = {p.page: p.text.split("\n") for p in pages}
    counts: Counter[str] = Counter()
    for lines in split.values():
        for t in set(lines[:3] + lines[-2:]):
            counts[t.strip()] += 1
    limit = max(2, len(pages) * 0.4)
    out: dict[int, list[tuple[int, str]]] = {}
    for page, lines in split.items():
        kept = []
        n = len(lines)
        for i, t in enumerate(lines):
            s = t.strip()
            if not s:
                continue
            edge = i < 3 or i >= n - 2
            if edge and counts[s] >= limit:
                continue
            if i >= n - 2 and _FOOT.match(s):
                continue
            kept.append((i + 1, s))
        out[page] = kept
    return out


def _is_value_token(tok: str) -> bool:
    return bool(_NUM.match(tok)) or tok in _BLANK or bool(_PCT_TEXT.match(tok))


def _split(text: str) -> tuple[str, list[str]]:
    """Label and trailing value cells (note references dropped)."""
    toks = text.split(" ")
    vals: list[str] = []
    while toks and (_is_value_token(toks[-1]) or (vals and _NOTE.match(toks[-1]))):
        tok = toks.pop()
        if _NOTE.match(tok) and not _NUM.match(tok):
            continue
        vals.append(tok)
    vals.reverse()
    label = " ".join(toks).strip()
    if vals and label:
        label = _NOTE_TAIL.sub("", label).strip()
    if vals and re.fullmatch(r"\d{4}年?", label or "x"):
        return text, []
    return label, vals


def _width(s: str) -> int:
    return sum(2 if ord(c) > 0x2E7F else 1 for c in s)


# ---------------------------------------------------------------------------------------------- rows


def _rows(lines: list[_Line], sandwich: bool = False) -> list[tuple[str, _Line]]:
    """Join wrapped labels: returns (label, values line) for every line that carries values."""
    widths = [_width(ln.label) for ln in lines if ln.label]
    maxw = max(widths) if widths else 0
    used: set[int] = set()
    rows: list[tuple[str, _Line]] = []

    def label_only(i: int) -> bool:
        return 0 <= i < len(lines) and lines[i].kind == "L" and i not in used

    def fragment_start(t: str) -> bool:  # a line that can be the first part of a wrapped label
        return not t.endswith(("：", ":")) and not _is_header_text(t) and not _LABEL_TAIL.match(t)

    def tail_of_above(i: int) -> bool:  # a label-only line that ends the label of the value line above it
        return label_only(i) and bool(_LABEL_TAIL.match(lines[i].label))

    def suffix_ok(t: str) -> bool:
        return not t.endswith(("：", ":")) and not re.match(
            r"^([一二三四五六七八九十]+、|[（(][一二三四五六七八九十\d]+[)）]|\d+[.．、]|其中|减：|加：)", t
        ) and not _is_header_text(t)

    def unbalanced(t: str) -> bool:
        return t.count("（") + t.count("(") > t.count("）") + t.count(")") or t.count("“") > t.count("”")

    def full(t: str) -> bool:
        return maxw > 0 and _width(t) >= 0.8 * maxw

    for i, ln in enumerate(lines):
        if not ln.values:
            continue
        parts = [ln.label] if ln.label else []
        if ln.kind == "V":
            if label_only(i - 1) and fragment_start(lines[i - 1].label):
                parts.insert(0, lines[i - 1].label)
                used.add(i - 1)
            if label_only(i + 1) and suffix_ok(lines[i + 1].label):
                parts.append(lines[i + 1].label)
                used.add(i + 1)
        else:
            prev_frag = (
                label_only(i - 1)
                and fragment_start(lines[i - 1].label)
                and (unbalanced(lines[i - 1].label) or full(lines[i - 1].label) or (
                    sandwich and label_only(i + 1) and suffix_ok(lines[i + 1].label)
                    and not (i + 2 < len(lines) and lines[i + 2].kind == "V")))
            )
            if prev_frag:
                parts.insert(0, lines[i - 1].label)
                used.add(i - 1)
            if tail_of_above(i + 1):
                parts.append(lines[i + 1].label)
                used.add(i + 1)
            elif (
                label_only(i + 1)
                and suffix_ok(lines[i + 1].label)
                and (unbalanced(ln.label) or (prev_frag and (full(ln.label) or sandwich))
                     or (full(ln.label) and _width(lines[i + 1].label) <= 0.5 * maxw))
                and not (i + 2 < len(lines) and lines[i + 2].kind == "V")
            ):
                parts.append(lines[i + 1].label)
                used.add(i + 1)
        if sandwich and i - 1 in used and i + 1 in used:
            # labels wrapped over more lines, centred on the value line (narrow SZSE cells: 归属于上市 /
            # 公司股东的 / 扣除非经常 123.45 / 性损益的净 / 利润): take further lines pairwise, one above and
            # one below, while both are free label fragments and the next row keeps a line of its own
            k = 2
            while (label_only(i - k) and label_only(i + k) and fragment_start(lines[i - k].label)
                   and suffix_ok(lines[i + k].label) and not (i + k + 1 < len(lines) and lines[i + k + 1].kind == "V")):
                parts.insert(0, lines[i - k].label)
                parts.append(lines[i + k].label)
                used.update((i - k, i + k))
                k += 1
        label = "".join(parts).strip()
        if label:
            rows.append((label, ln))
    return rows


_HEADER_WORDS = re.compile(
    r"^(项\s*目|附注\S*|本集团|本行|本公司|本期发生额|上期发生额|本期金额|上期金额|期末余额|期初余额|上年年末余额|"
    r"年初余额|本报告期|上年同期|本报告期末|上年度末|调整前|调整后|\d{4}\s*年.*|[(（]\s*\d+\s*[-－—–]\s*\d+\s*月\s*(份)?[)）]|"
    r"增减.*|.*增减\S*|.*比上年\S*|\d{1,2}月\d{1,2}日|主要会计数据|主要财务指标|[（(]%[)）])$"
)


def _is_header_text(t: str) -> bool:
    toks = t.split(" ")
    return all(_HEADER_WORDS.match(x) for x in toks if x)


# Fragments of key-figure column headers wrapped in narrow cells (SZSE: "本年末比" / "上年末增" / "减").
_KF_HEAD_EXTRA = re.compile(r"^(?:本年末?比\S*|\S*上年末?增\S*|减|末|元)$")


def _is_kf_header_text(t: str) -> bool:
    toks = [x for x in t.split(" ") if x]
    return bool(toks) and all(_HEADER_WORDS.match(x) or _KF_HEAD_EXTRA.match(x) for x in toks)


# Numbers wrapped inside narrow cells: "18,079,461,4" on one line, "82.75" on the next. A head is a prefix
# that cannot be a number by itself (its last digit group is cut short, or it ends in a point).
_WELL_FORMED = re.compile(r"^-?\d{1,3}(?:,\d{3})*(?:\.\d+)?$")
_BROKEN_HEAD = re.compile(r"^-?\d{1,3}(?:,\d{3})*(?:,\d{0,2}|\.)$")
_OPEN_HEAD = re.compile(r"^-?[\d,]+\.?$")  # any head without decimals (it may be cut at a group boundary)
_TAIL = re.compile(r"^[\d,]*\d(?:\.\d+)?$")
_MONEYISH = re.compile(r"^[(（]?-?[\d,]*\d[\d,]*\.?\d*[)）]?$")


def _join_wrapped(lines: list[_Line]) -> list[_Line]:
    """Reassemble numbers split over two lines of one table row.

    A line with at least one broken head ("2,448,802,10") is joined with the next line (or the one after
    it, when the line between holds only a label fragment and/or change cells such as "19.16%") whose value
    cells are all bare digit tails and complete the heads one for one, in order: either exactly the broken
    heads, or every head without decimals. Every joined piece must be a well-formed number, otherwise
    nothing is joined. Change cells of the line between become ``floating`` (placed on pct columns).
    """
    out: list[_Line] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        merged = None
        if any(_BROKEN_HEAD.match(t) for t in ln.values):
            for j in (i + 1, i + 2):
                if j >= len(lines):
                    break
                mids = lines[i + 1:j]
                if any(_MONEYISH.match(t) for m in mids for t in m.values):
                    break
                tail = lines[j]
                if not tail.values or not all(_TAIL.match(t) for t in tail.values):
                    continue
                broken = [k for k, t in enumerate(ln.values) if _BROKEN_HEAD.match(t)]
                heads = broken if len(broken) == len(tail.values) else [
                    k for k, t in enumerate(ln.values) if _OPEN_HEAD.match(t)]
                if len(heads) != len(tail.values):
                    continue
                vals = list(ln.values)
                for k, t in zip(heads, tail.values):
                    vals[k] = vals[k] + t
                if not all(_WELL_FORMED.match(vals[k]) for k in heads):
                    continue
                label = "".join(x.label for x in (ln, *mids, tail) if x.label)
                text = " / ".join(x.text for x in (ln, *mids, tail))
                merged = _Line(ln.page, ln.idx, text, label, vals, [t for m in mids for t in m.values])
                i = j + 1
                break
        if merged is None:
            out.append(ln)
            i += 1
        else:
            out.append(merged)
    return out


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


# ---------------------------------------------------------------------------------------------- tables


def _stmt_columns(header: str, kind: str, info: DocumentInfo) -> list[_Col]:
    h = header.replace(" ", "")
    h = re.sub(r"附注\S*?(?=\d{4}|本|上|期|$)", "", h)
    if kind == "balance":
        dates = [dt.date(int(a), int(b), int(c)) for a, b, c in _DATE.findall(h)]
        names = [f"{a}年{b}月{c}日" for a, b, c in _DATE.findall(h)]
        if len(dates) >= 2:
            return [_Col(n, "date", date=d) for n, d in zip(names, dates)]
        cols = []
        for m in re.finditer(r"期末余额|本报告期末|期末数|期初余额|上年年末余额|上年度末|年初余额|期初数", h):
            role = "end" if "末" in m.group(0) and "上年" not in m.group(0) and "期初" not in m.group(0) else "open"
            if m.group(0) in ("期末余额", "期末数", "本报告期末"):
                role = "end"
            cols.append(_Col(m.group(0), role))
        return cols  # no printed period header: no columns (a period is never assumed)
    names: list[_Col] = []
    for m in re.finditer(
        r"(\d{4})年(?:度|前三季度|第[一二三四]季度|半年度|1-\d+月|1—\d+月)?(?:[（(][^）)]*[)）])?|本期发生额|上期发生额|"
        r"本期金额|上期金额|本报告期|上年同期|本期数|上期数",
        h,
    ):
        tok = m.group(0)
        if m.group(1):
            y = int(m.group(1))
            role = "cur" if y == info.fiscal_year else "prior"
            names.append(_Col(tok, role, year=y))
        else:
            names.append(_Col(tok, "cur" if tok.startswith("本") else "prior"))
    paren = re.findall(r"[（(]\d+[-－—–]\d+月份?[)）]", h)
    if len(names) == 2 and len(paren) == 2 and not any("（" in c.name or "(" in c.name for c in names):
        for c, p in zip(names, paren):
            c.name += p
    if len(names) != 2:
        return []  # no printed period header: no columns (a period is never assumed)
    quarter_only = bool(re.search(r"7-9月|第三季度(?!.*1-9)", h)) and "1-9" not in h
    if quarter_only:
        for c in names:
            c.role = "q_" + c.role
    return names


def _kf_columns(header: str, info: DocumentInfo) -> list[_Col] | None:
    h = header.replace(" ", "")
    before_after = re.findall(r"调整前|调整后", h)
    if "年初至报告期" in h:
        return [_Col("本报告期", "q"), _Col("本报告期增减", "pct"), _Col("年初至报告期末", "ytd"), _Col("年初至报告期末增减", "pct")]
    if "本报告期末" in h or "上年度末" in h:
        cols = [_Col("本报告期末", "end")]
        if before_after:
            cols += [_Col(f"上年度末{x}", "open", before=x == "调整前") for x in before_after[:2]]
        else:
            cols.append(_Col("上年度末", "open"))
        return cols + [_Col("增减", "pct")]
    if "本报告期" in h:
        cols = [_Col("本报告期", "cur")]
        if "上年同期" in h:
            if before_after:
                cols += [_Col(f"上年同期{x}", "prior", before=x == "调整前") for x in before_after[:2]]
            else:
                cols.append(_Col("上年同期", "prior"))
        return cols + [_Col("增减", "pct")]
    # annual: year columns, in the order of the line that holds them
    best = None
    for line in header.split("\n"):
        toks = [t for t in line.split(" ") if t]
        years = [t for t in toks if re.fullmatch(r"\d{4}年末?|\d{4}年\d{1,2}月\d{1,2}日", t)]
        if len(years) >= 2 and (best is None or len(years) > len(best[1])):
            best = (toks, years)
    printed = {}
    for y, tail in re.findall(r"(\d{4})年(末|\d{1,2}月\d{1,2}日)?", h):
        printed.setdefault(int(y), f"{y}年{tail}")
    if best is not None and len(best[1]) < len(printed) and max(printed) == info.fiscal_year:
        # the year cells sit on different lines (narrow merged header cells, the current year printed
        # lower): the CSRC layout is fixed, years descending with the change column after the prior year
        cols = [_Col(printed[y], "year", year=y) for y in sorted(printed, reverse=True)]
        if re.search(r"增减|比上|本年末?比|上年末?增", h):
            cols.insert(2, _Col("增减", "pct"))
    else:
        if best is None:
            joined = re.findall(r"\d{4}年末?", h)
            if len(joined) < 2:
                return None
            best = (joined, joined)
        toks, _ = best
        cols = []
        seen_year = False
        for t in toks:
            m = re.fullmatch(r"(\d{4})年(末|\d{1,2}月\d{1,2}日)?", t)
            if m:
                cols.append(_Col(t, "year", year=int(m.group(1))))
                seen_year = True
            elif seen_year and not _HEADER_WORDS.match(t) or (seen_year and ("增减" in t or "比上" in t or t in ("年同",))):
                cols.append(_Col("增减", "pct"))
        if not any(c.role == "pct" for c in cols) and re.search(r"增减|比上", h):
            cols.insert(2, _Col("增减", "pct"))
    if before_after and len(cols) >= 2:
        # 上年 / 前年 columns split into 调整前 / 调整后 (in the printed order)
        expanded: list[_Col] = []
        for c in cols:
            if c.role == "year" and c.year is not None and c.year < max(x.year or 0 for x in cols):
                for x in before_after[:2]:
                    expanded.append(_Col(f"{c.name}{x}", "year", before=x == "调整前", year=c.year))
            else:
                expanded.append(c)
        cols = expanded
    return cols


def _unit_of(label: str, statement: str) -> str:
    if re.search(r"[（(]股[)）]|股数", label):
        return "shares"
    if "每股" in label and ("收益" in label or "净资产" in label or "元" in label or "现金流量" in label):
        return "CNY/share"
    if "%" in label or "％" in label or "收益率" in label or "比率" in label:
        return "pure"
    return "money"


_parse_value = parse_amount  # one cell rule for every market (parsers/statement_lines.py)


class _Ctx:
    def __init__(self, info: DocumentInfo):
        self.info = info
        self.facts: list[Fact] = []
        self.reason = ""  # why the last statement gave no rows, when it is known


def _emit(ctx: _Ctx, label: str, ln: _Line, cols: list[_Col], statement: str, consolidated: bool,
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
        if col.role == "pct" or tok in _BLANK or not _NUM.match(tok):
            continue
        if tok.endswith("%") and kind != "pure":
            continue
        v = _parse_value(tok)
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


def _to_lines(seq: list[tuple[int, int, str]]) -> list[_Line]:
    out = []
    for page, idx, text in seq:
        label, vals = _split(text)
        out.append(_Line(page, idx, text, label, vals))
    return out


_unit_in = cn_unit_in


def _parse_statement(ctx: _Ctx, seq: list[tuple[int, int, str]], kind: str, consolidated: bool,
                     scale: int, word: str, ccy: str, title: str = "") -> int:
    lines = _to_lines(seq)
    # header = lines before the first data row (after the unit line)
    first = next((i for i, ln in enumerate(lines) if ln.values and not _is_header_text(ln.text)
                  and not _DATE.search(ln.text.replace(" ", ""))), None)
    if first is None:
        return 0
    if lines[first].kind == "V" and first > 0 and lines[first - 1].kind == "L" and not _is_header_text(lines[first - 1].text):
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
    cols = _stmt_columns(f"{title}\n{header}" if title else header, kind, ctx.info)
    if not cols:
        ctx.reason = "no period column header (本期发生额 / 期末余额 / a date or year) above the first row"
        return 0
    body = [ln for ln in lines[first:] if not _is_header_text(ln.text) and not _STMT_TITLE.match(ln.text)
            and not is_cn_unit_line(ln.text) and not re.fullmatch(r"\d{4}\s*年.*[日月度]", ln.text)]
    # 附注 column with bare numbers: values beyond the column count are handled in _emit
    n = 0
    rows = _rows(body)
    for label, ln in rows:
        before = len(ctx.facts)
        _emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
        n += len(ctx.facts) > before
    if kind == "balance" and len(cols) == 2:
        widths = [_width(x.label) for x in body if x.label]
        maxw = max(widths) if widths else 0
        pos = {id(x): i for i, x in enumerate(body)}
        for label, ln in _place_by_subtotals(rows):
            # emit only rows whose label is certain: printed whole on the value line, and not a long first
            # part of a label whose rest sits on the next line ("以公允价值计量且其变动 6,049,569.00" /
            # "计入当期损益的金融负债"): the arithmetic placed the value, the label must not be a guess
            i = pos.get(id(ln.src), -1)
            nxt = body[i + 1] if 0 <= i < len(body) - 1 else None
            wrapped_next = nxt is not None and nxt.kind == "L" and not nxt.label.endswith(("：", ":"))
            if label != ln.label or (wrapped_next and _width(label) >= 0.8 * maxw):
                continue
            _emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
    if kind == "cashflow" and len(cols) == 2:
        for label, ln in _place_by_cash_identity(rows):
            _emit(ctx, label, ln, cols, kind, consolidated, scale, word, ccy)
    return n


MAX_PLACED = 4  # one-value rows placed by arithmetic per section at most (2**4 placements tried)


def _amounts(vals: list[str]) -> list[Decimal | None]:
    """Numbers of value cells, 0 for a blank cell, None for a cell that is not an amount."""
    return [_parse_value(v) if _NUM.match(v) and not v.endswith("%") else (Decimal(0) if v in _BLANK else None)
            for v in vals]


def _placements(base: list[Decimal], single: list[Decimal], totals: list[Decimal]) -> list[int]:
    """Bit masks (bit b set: single value b in the second column) under which the columns sum to ``totals``."""
    hits = []
    for mask in range(1 << len(single)):
        acc = list(base)
        for b, v in enumerate(single):
            acc[(mask >> b) & 1] += v
        if acc == totals:
            hits.append(mask)
    return hits


def _synthetic(sln: _Line, second: bool) -> _Line:
    """The line of a one-value row with its blank cell filled in ("-") on the other side."""
    tok = sln.values[0]
    synth = _Line(sln.page, sln.idx, sln.text, sln.label, ["-", tok] if second else [tok, "-"])
    synth.src = sln
    return synth


def _place_by_cash_identity(rows: list[tuple[str, _Line]]) -> list[tuple[str, _Line]]:
    """Net rows of a two-column cash-flow statement that print one value (the other cell blank), placed by the
    identity net change in cash = operating + investing + financing + exchange-rate effect when exactly one
    placement satisfies it in both columns (``cas_cash_identity`` in mappings/statement_tables.yaml)."""
    total_rx, part_rxs = cas_cash_identity()
    total = next(((lab, ln) for lab, ln in rows if total_rx.match(lab) and len(ln.values) == 2), None)
    if total is None:
        return []
    totals = _amounts(total[1].values)
    if None in totals:
        return []
    base = [Decimal(0), Decimal(0)]
    single: list[tuple[str, _Line, Decimal]] = []
    for rx in part_rxs:
        hit = next(((lab, ln) for lab, ln in rows if rx.match(lab)), None)
        if hit is None:
            continue
        nums = _amounts(hit[1].values)
        if None in nums or len(nums) not in (1, 2):
            return []
        if len(nums) == 2:
            base = [base[0] + nums[0], base[1] + nums[1]]
        elif hit[1].values[0] not in _BLANK:
            single.append((hit[0], hit[1], nums[0]))
    if not single or len(single) > MAX_PLACED:
        return []
    hits = _placements(base, [v for _, _, v in single], totals)
    if len(hits) != 1:
        return []
    return [(lab, _synthetic(sln, bool((hits[0] >> b) & 1))) for b, (lab, sln, _) in enumerate(single)]


# Balance-sheet sections whose subtotal is the plain sum of the rows above it (back to the previous total).
_SUBTOTALS = {"流动资产合计", "非流动资产合计", "流动负债合计", "非流动负债合计"}
_SUB_ITEM = {"应收股利", "应付股利", "永续债"}  # second line of a "其中：" group (其中：优先股 / 永续债)


def _place_by_subtotals(rows: list[tuple[str, _Line]]) -> list[tuple[str, _Line]]:
    """Rows of a two-column balance sheet that print one value (the other cell blank) can't be placed from
    text. Place them only where the section's subtotal decides it: the rows between two totals sum to the
    subtotal row in both columns, for exactly one assignment of the one-value rows to columns (at most 4
    such rows per section; "其中" sub-items excluded). Returns synthetic lines with the blank cell as "-"."""
    out: list[tuple[str, _Line]] = []
    placed: list[list[Decimal]] = []
    single: list[tuple[str, _Line, Decimal]] = []
    prev_qizhong = False
    ok = True
    for label, ln in rows:
        norm = re.sub(r"[\s：:]", "", label)
        vals = [v for v in ln.values]
        if "合计" in norm or "总计" in norm:
            if norm in _SUBTOTALS and single and ok and len(vals) == 2 and len(single) <= MAX_PLACED:
                totals = [_parse_value(v) if _NUM.match(v) else Decimal(0) for v in vals]
                base = [sum((r[c] for r in placed), Decimal(0)) for c in (0, 1)]
                hits = _placements(base, [v for _, _, v in single], totals)
                if len(hits) == 1:
                    out += [(lab, _synthetic(sln, bool((hits[0] >> b) & 1))) for b, (lab, sln, _) in enumerate(single)]
            placed, single, ok, prev_qizhong = [], [], True, False
            continue
        sub = norm.startswith("其中") or (prev_qizhong and norm in _SUB_ITEM)
        prev_qizhong = sub
        if sub:
            continue
        nums = _amounts(vals)
        if any(x is None for x in nums):
            ok = False
        elif len(nums) == 2:
            placed.append(nums)
        elif len(nums) == 1 and vals[0] not in _BLANK:
            single.append((label, ln, nums[0]))
        else:
            ok = False
    return out


def _parse_key_figures(ctx: _Ctx, seq: list[tuple[int, int, str]], scale: int, word: str, ccy: str) -> int:
    lines = _to_lines(seq)
    n = 0
    i = 0
    cols: list[_Col] | None = None
    header: list[str] = []
    block: list[_Line] = []

    def flush():
        nonlocal n
        if cols and block:
            for label, ln in _rows(_join_wrapped(block), sandwich=True):
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
        is_head = (not ln.values and _is_kf_header_text(ln.text)) or (
            ln.values and _is_header_text(ln.label or "项目") and re.search(r"\d{4}年", ln.text)
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
            new = _kf_columns("\n".join(header), ctx.info)
            if new:
                cols = new
            header = []
        elif header and ln.kind == "L" and not (i + 1 < len(lines) and lines[i + 1].values):
            header.append(ln.text)  # wrapped header fragments ("减变动幅度", "末")
            i += 1
            continue
        elif header:
            new = _kf_columns("\n".join(header), ctx.info)
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
    cols: list[_Col] | None = None
    body: list[_Line] = []
    for ln in _to_lines(seq):
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
                    cols.append(_Col(f"{y}年第{q}季度" if y else f"第{q}季度", "qtr", date=end, start=start))
            continue
        if _QTR_MONTHS.match(ln.text) or _is_header_text(ln.text):
            continue
        body.append(ln)
    if not cols:
        return 0
    n = 0
    for label, ln in _rows(_join_wrapped(body), sandwich=True):
        before = len(ctx.facts)
        _emit(ctx, label, ln, cols, "key_figures", True, scale, word, ccy)
        n += len(ctx.facts) > before
    return n


def _region(flat: list[tuple[int, int, str]], start: int, stop, max_pages: int) -> list[tuple[int, int, str]]:
    first_page = flat[start][0]
    out = []
    for k in range(start + 1, len(flat)):
        page, idx, text = flat[k]
        if page - first_page >= max_pages or stop(text):
            break
        out.append(flat[k])
    return out


def extract(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    """Facts of the key-figures table and the (consolidated and parent) statements in ``pages``."""
    return read(pages, info).facts


def read(pages: list[Page], info: DocumentInfo) -> StatementResult:
    """Facts, and the record of which statements were found on which pages and which could not be read."""
    ctx = _Ctx(info)
    log = ReadLog.for_pages(pages)
    if not pages:
        return StatementResult([], log.records())
    lines = _strip_headers(pages)
    flat = [(p.page, idx, t) for p in pages for idx, t in lines.get(p.page, [])]
    ccy0 = info.currency or "CNY"

    def ctx_unit(k: int) -> tuple[int, str, str]:
        scale, word, ccy = 0, "元", ccy0
        for j in range(k + 1, min(k + 8, len(flat))):
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
            region = _region(flat, k, stop, 6)
            ctx.reason = ""
            rows = _parse_statement(ctx, region, kind, consolidated, scale, word, ccy, title=text)
            log.attempt(kind, consolidated, sorted({page} | {r[0] for r in region}), rows, ctx.reason)
            if rows >= MIN_ROWS:
                done.add((kind, consolidated))
        elif not key_done and _KEY_START.search(text) and page <= max(30, len(pages) // 4):
            region = _region(flat, k, lambda t: bool(_KEY_STOP.search(t)) and "主要财务指标" not in t, 3)
            scale, word, ccy = ctx_unit(k)
            if _parse_key_figures(ctx, region, scale, word, ccy) >= 2:
                key_done = True
        elif not qtr_done and _QTR_START.search(text) and page <= max(30, len(pages) // 4):
            region = _region(flat, k, lambda t: bool(_QTR_STOP.search(t)), 2)[:40]
            scale, word, ccy = ctx_unit(k)
            if _parse_quarters(ctx, region, scale, word, ccy) >= 2:
                qtr_done = True
    return StatementResult(ctx.facts, log.records())
