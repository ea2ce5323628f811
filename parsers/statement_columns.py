"""Period columns of a printed statement, read from its header lines (US layout: "Years Ended December 31,
2022 2021 2020", "Three Months Ended  Six Months Ended / July 29, 2023 July 30, 2022 ...", "52 Weeks Ended",
"Fiscal Years Ended January 28, 2023 ..."). Every column's period comes from what its header prints: the year
(or full date), the month and day, and the span words (``mappings/statement_tables.yaml`` ``columns``). A span
that is not printed is taken as the fiscal year only in an annual report; otherwise the header is refused with
the reason, never guessed."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from mappings.statement_tables import cas_header_words, column_spans
from parsers import statement_periods as periods
from schema.fiscal import nominal_end
from schema.models import DocumentInfo

ANNUAL_FORMS = frozenset({"10-K", "20-F", "annual", "10-K405", "10-KT"})
WEEKS_DAYS = 7  # a 52/53-week span is counted in weeks when its end is not a month end
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTH_RX = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_FULL_DATE = re.compile(rf"\b({_MONTH_RX})\.?\s+(\d{{1,2}}),?\s+((?:19|20)\d\d)\b", re.I)
# a date printed in figures, US order ("12 Weeks Ended 3/25/2023 3/19/2022")
_NUM_DATE = re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})/((?:19|20)\d\d)(?![\d/])")
_YEAR_END_QUARTER = re.compile(r"\b(?:fourth|4th)\s+(?:fiscal\s+)?quarter\b|\bQ4\b", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH_RX})\.?\s+(\d{{1,2}})\b(?!,?\s+(?:19|20)\d\d)", re.I)
_YEAR = re.compile(r"(?<![\d,.$])((?:19|20)\d\d)(?![\d,.%])")
_WEEKS = re.compile(r"\b(\d{2})\s+weeks\b|\b(fifty[-\s](?:two|three)|thirteen|twenty[-\s]six|thirty[-\s]nine)\s+weeks\b", re.I)
_WORD_WEEKS = {"thirteen": 13, "twenty-six": 26, "twenty six": 26, "thirty-nine": 39, "thirty nine": 39,
               "fifty-two": 52, "fifty two": 52, "fifty-three": 53, "fifty three": 53}


@dataclass(frozen=True)
class Column:
    header: str  # as printed ("2022", "July 29, 2023")
    end: dt.date
    months: int | None  # span of a duration column; None for a balance-sheet (instant) column
    weeks: int | None = None  # printed week count ("52 Weeks Ended")

    @property
    def start(self) -> dt.date | None:
        if self.months is None:
            return None
        if self.weeks:
            return self.end - dt.timedelta(days=self.weeks * WEEKS_DAYS - 1)
        if self.end.day == calendar.monthrange(self.end.year, self.end.month)[1]:
            return periods.months_back(self.end, self.months)
        # a 52/53-week year that does not end on a month end: the day after the same date a span earlier
        back = periods.add_months(self.end.replace(day=1), -self.months)
        return periods.month_end(back.year, back.month, self.end.day) + dt.timedelta(days=1)


def _year_cells(lines: list[str]) -> tuple[list[tuple[str, dt.date | None, int]], str | None]:
    """Columns as (printed header, full date or None, year), from the header line with the most of them."""
    best: list[tuple[str, dt.date | None, int]] = []
    for line in lines:
        full = sorted([(m.start(), m.group(0), _MONTHS[m.group(1).lower()], int(m.group(2)), int(m.group(3)))
                       for m in _FULL_DATE.finditer(line)]
                      + [(m.start(), m.group(0), int(m.group(1)), int(m.group(2)), int(m.group(3)))
                         for m in _NUM_DATE.finditer(line) if 1 <= int(m.group(1)) <= 12])
        try:
            full = [(text, dt.date(year, month, day), year) for _pos, text, month, day, year in full]
        except ValueError:  # not a date after all ("13/45/2023"): read the line's years only
            full = []
        rest = _NUM_DATE.sub(" ", _FULL_DATE.sub(" ", line))
        years = [(m.group(1), None, int(m.group(1))) for m in _YEAR.finditer(rest)]
        if len(full) == 1 and years:
            # "Years ended December 31, 2018 2017 2016": one month and day over several year columns
            years = [(m.group(1), None, int(m.group(1))) for m in _YEAR.finditer(line)]
            full = []
        cells = full if len(full) >= len(years) else years
        if len(cells) > len(best):
            best = cells
    return best, None


def _spans(text: str) -> list[tuple[int, int, int | None]]:
    """(position, months, weeks) of every printed span phrase, in printed order."""
    found: list[tuple[int, int, int | None]] = []
    taken: list[tuple[int, int]] = []
    for rule in column_spans("us"):
        for m in rule.pattern.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            weeks = None
            w = _WEEKS.search(m.group(0))
            if w:
                weeks = int(w.group(1)) if w.group(1) else _WORD_WEEKS.get(w.group(2).lower().replace("  ", " "))
            found.append((m.start(), rule.months, weeks))
            taken.append((m.start(), m.end()))
    return sorted(found)


def read_columns(header: list[str], statement: str, form: str | None, fye_month: int,
                 period_end: dt.date | None = None) -> tuple[list[Column], str]:
    """Columns of a statement from its header lines, or ([], reason). ``period_end`` is the report's own
    period end (its cover): a column of that year and month whose header prints no day ends on it."""
    cells, _ = _year_cells(header)
    if not cells:
        return [], "no year or date columns in the header"
    text = " ".join(header)
    month_days = [(_MONTHS[m.group(1).lower()], int(m.group(2)))
                  for line in header for m in _MONTH_DAY.finditer(_FULL_DATE.sub(" ", line))]
    ends: list[dt.date] = []
    month_printed = bool(month_days)
    for i, (_, date, year) in enumerate(cells):
        if date is not None:
            month_printed = True
            ends.append(date)
            continue
        if len(month_days) == len(cells):
            month, day = month_days[i]
        elif month_days:
            month, day = month_days[0]
        else:
            month, day = fye_month, None
        if day is None and period_end is not None:
            nominal = nominal_end(period_end)  # a 52/53-week year "ending" 2023-01-01 is fiscal 2022's December
            if (year, month) == (nominal.year, nominal.month):
                ends.append(period_end)
                continue
        try:
            ends.append(periods.month_end(year, month, day))
        except ValueError:
            return [], f"bad date in the header ({month}/{day}/{year})"
    if statement == "balance":
        return [Column(c[0], e, None) for c, e in zip(cells, ends)], ""
    spans = _spans(text)
    n = len(cells)
    if not spans:
        if (form or "") not in ANNUAL_FORMS:
            return [], f"the columns print no period length (three / six / nine months, years ended) in a {form or 'report'}"
        spans = [(0, 12, None)]
    if n % len(spans):
        distinct = {(s[1], s[2]) for s in spans}
        if len(distinct) != 1:
            return [], f"{len(spans)} period groups over {n} columns"
        spans = spans[:1]
    per = n // len(spans)
    if not month_printed and any(sp[1] != 12 for sp in spans) and not _YEAR_END_QUARTER.search(text):
        # "12 Weeks Ended / 2023 2022": which weeks is not printed (a fourth quarter ends with the fiscal year)
        return [], "the columns of a period shorter than a year print no month or date"
    return [Column(c[0], e, spans[i // per][1], spans[i // per][2]) for i, (c, e) in enumerate(zip(cells, ends))], ""


def is_header_line(line: str) -> bool:
    """A line of the column header: it names a span, a month and day, or only years."""
    if _MONTH_DAY.search(line) or _FULL_DATE.search(line) or _NUM_DATE.search(line):
        return True
    if any(rule.pattern.search(line) for rule in column_spans("us")):
        return True
    rest = _YEAR.sub("", line)
    return bool(_YEAR.search(line)) and not re.search(r"\d", rest)


# ------------------------------------------------------------------------------------ A-share columns

CAS_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")


@dataclass
class CasColumn:
    name: str
    role: str  # "cur", "prior", "prior2", "pct", "q", "ytd", "end", "open", "date", "year", "qtr"
    before: bool = False  # 调整前 (restated comparatives: the value before restatement)
    date: dt.date | None = None  # instant date; the end of a "qtr" column's quarter
    start: dt.date | None = None  # first day of a "qtr" column's quarter
    year: int | None = None


CAS_HEADER_WORDS = cas_header_words()  # mappings/statement_tables.yaml `cas_columns.header_words`


def is_cas_header_text(t: str) -> bool:
    toks = t.split(" ")
    return all(CAS_HEADER_WORDS.match(x) for x in toks if x)


# Fragments of key-figure column headers wrapped in narrow cells (SZSE: "本年末比" / "上年末增" / "减"; SSE: the
# change column "本期比上年同期增减(%)" cut into "本期" / "比上" / "年同" / "期增" / "减(%)", even inside the years' line).
_CAS_KF_HEAD_EXTRA = re.compile(r"^(?:本年末?比\S*|\S*上年末?增\S*|减|末|元|[本期比上年同增减末度%％()（）]{1,6})$")


def is_cas_kf_header_text(t: str) -> bool:
    toks = [x for x in t.split(" ") if x]
    return bool(toks) and all(CAS_HEADER_WORDS.match(x) or _CAS_KF_HEAD_EXTRA.match(x) for x in toks)


def cas_statement_columns(header: str, kind: str, info: DocumentInfo) -> list[CasColumn]:
    h = header.replace(" ", "")
    h = re.sub(r"附注\S*?(?=\d{4}|本|上|期|$)", "", h)
    if kind == "balance":
        dates = [dt.date(int(a), int(b), int(c)) for a, b, c in CAS_DATE.findall(h)]
        names = [f"{a}年{b}月{c}日" for a, b, c in CAS_DATE.findall(h)]
        if len(dates) >= 2:
            return [CasColumn(n, "date", date=d) for n, d in zip(names, dates)]
        cols = []
        for m in re.finditer(r"期末余额|本报告期末|期末数|期初余额|上年年末余额|上年度末|年初余额|期初数", h):
            role = "end" if "末" in m.group(0) and "上年" not in m.group(0) and "期初" not in m.group(0) else "open"
            if m.group(0) in ("期末余额", "期末数", "本报告期末"):
                role = "end"
            cols.append(CasColumn(m.group(0), role))
        return cols  # no printed period header: no columns (a period is never assumed)
    names: list[CasColumn] = []
    for m in re.finditer(
        r"(\d{4})年(?:度|前三季度|第[一二三四]季度|半年度|1-\d+月|1—\d+月)?(?:[（(][^）)]*[)）])?|本期发生额|上期发生额|"
        r"本期金额|上期金额|本报告期|上年同期|本期数|上期数",
        h,
    ):
        tok = m.group(0)
        if m.group(1):
            y = int(m.group(1))
            role = "cur" if y == info.fiscal_year else "prior"
            names.append(CasColumn(tok, role, year=y))
        else:
            names.append(CasColumn(tok, "cur" if tok.startswith("本") else "prior"))
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


def cas_key_figure_columns(header: str, info: DocumentInfo) -> list[CasColumn] | None:
    h = header.replace(" ", "")
    before_after = re.findall(r"调整前|调整后", h)
    if "年初至报告期" in h:
        return [CasColumn("本报告期", "q"), CasColumn("本报告期增减", "pct"), CasColumn("年初至报告期末", "ytd"), CasColumn("年初至报告期末增减", "pct")]
    if "本报告期末" in h or "上年度末" in h:
        cols = [CasColumn("本报告期末", "end")]
        if before_after:
            cols += [CasColumn(f"上年度末{x}", "open", before=x == "调整前") for x in before_after[:2]]
        else:
            cols.append(CasColumn("上年度末", "open"))
        return cols + [CasColumn("增减", "pct")]
    if "本报告期" in h:
        cols = [CasColumn("本报告期", "cur")]
        if "上年同期" in h:
            if before_after:
                cols += [CasColumn(f"上年同期{x}", "prior", before=x == "调整前") for x in before_after[:2]]
            else:
                cols.append(CasColumn("上年同期", "prior"))
        return cols + [CasColumn("增减", "pct")]
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
        cols = [CasColumn(printed[y], "year", year=y) for y in sorted(printed, reverse=True)]
        if re.search(r"增减|比上|本年末?比|上年末?增", h):
            cols.insert(2, CasColumn("增减", "pct"))
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
                cols.append(CasColumn(t, "year", year=int(m.group(1))))
                seen_year = True
            elif seen_year and not CAS_HEADER_WORDS.match(t) or (seen_year and ("增减" in t or "比上" in t or t in ("年同",))):
                cols.append(CasColumn("增减", "pct"))
        if not any(c.role == "pct" for c in cols) and re.search(r"增减|比上", h):
            cols.insert(2, CasColumn("增减", "pct"))
    if before_after and len(cols) >= 2:
        # 上年 / 前年 columns split into 调整前 / 调整后 (in the printed order)
        expanded: list[CasColumn] = []
        for c in cols:
            if c.role == "year" and c.year is not None and c.year < max(x.year or 0 for x in cols):
                for x in before_after[:2]:
                    expanded.append(CasColumn(f"{c.name}{x}", "year", before=x == "调整前", year=c.year))
            else:
                expanded.append(c)
        cols = expanded
    return cols


# ------------------------------------------------------------------------------------ HK columns

_ZH_DIGITS = {"零": "0", "〇": "0", "一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6",
              "七": "7", "八": "8", "九": "9"}
_HK_YEAR_TOKEN = re.compile(r"^(?:(?:19|20)\d\d|[零〇一二三四五六七八九]{4}年|\d{1,2}/\d{1,2}/(?:19|20)\d\d)$")
HK_HEADER_FILLER = {"notes", "note", "附註", "(restated)", "（經重列）", "(經重列)", "restated"}


def hk_header_columns(line: str) -> list[str] | None:
    toks = [t for t in line.split() if t.casefold() not in HK_HEADER_FILLER]
    if toks and all(_HK_YEAR_TOKEN.match(t) for t in toks):
        return toks
    return None


def hk_column_date(col: str, fye_month: int, fye_day: int | None) -> tuple[int, dt.date | None]:
    """(fiscal year, explicit date or None) of a column header."""
    m = re.match(r"^(\d{1,2})/(\d{1,2})/(\d{4})$", col)
    if m:
        d = dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        return d.year, d
    if col.endswith("年"):
        col = "".join(_ZH_DIGITS.get(c, "") for c in col[:-1])
    return int(col), None
