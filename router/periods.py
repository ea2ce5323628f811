"""Periods named in a question.

Years and fiscal years (2024, FY2024, FY24, fiscal 2024, 2024年, 2024年度, 2024财年, 二〇二四年), quarters as a single
quarter (Q1 2025, 1Q25, Q3'24, first quarter of fiscal 2025, 2025年第一季度, 2025年一季度, 2025Q1), year-to-date
periods (H1, first half, six months ended, 上半年, 1-6月; 9M, nine months ended, first three quarters, 前三季度, 1-9月;
year to date through Q3), periods named by their end date ("the year ended January 31, 2025", "the quarter ended
March 31, 2025", "the March 2025 quarter", "the fiscal year ending January 2025", "the January 2025 fiscal year",
截至2024年9月30日止九个月), instants (balance sheets "as of September 28,
2024", "at year end 2024", "at the end of Q3 2024", 2024年末, 三季度末, 2024年6月30日), ranges (2022-2024, 2022至2024年),
"last three years" / 近三年 and "latest" / 最新.

Periods named by a date carry ``period_end`` and no fiscal year: the planner resolves them with the company's own
fiscal year end (:func:`resolve`), since "the March 2025 quarter" is Apple's fiscal Q2 2025 and a December filer's
Q1. ``fiscal`` says the question named a fiscal year ("fiscal 2024", "FY2024", 财年) rather than a calendar one
("in 2024", "2024年"). Relative periods are resolved later against what the warehouse holds, never the clock."""

from __future__ import annotations

import calendar
import datetime as dt
import re
import unicodedata

from schema.models import PeriodRef
from warehouse.periods import classify_duration, classify_instant

_CN_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_CN_DIGIT = {"〇": "0", "零": "0", "○": "0", "Ｏ": "0", "一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6",
             "七": "7", "八": "8", "九": "9"}
_EN_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}
_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_YEAR = r"((?:19|20)\d\d)"
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_EN_DATE = _MONTH + r"\s+(\d{1,2}),?\s+" + _YEAR + "|" + r"(\d{1,2})\s+" + _MONTH + r",?\s+" + _YEAR
_ZH_DATE = _YEAR + r"\s?年\s?(\d{1,2})\s?月\s?(\d{1,2})\s?日"
# what a period named by its end date lasts, by the words before "ended"
_SPAN_WORDS = [(r"(?:fiscal\s+)?years?|twelve\s+months|12\s+months|年度", "FY"), (r"nine\s+months|9\s+months|九个月", "9M"),
               (r"six\s+months|6\s+months|half[- ]years?|六个月|半年度", "H1"),
               (r"(?:fiscal\s+)?quarters?|three\s+months|3\s+months|quarterly\s+period|三个月|季度", "Q")]
_SPAN_DAYS = {"FY": 364, "9M": 272, "H1": 181, "Q": 90}
_YTD_OF_QUARTER = {1: "Q1", 2: "H1", 3: "9M", 4: "FY"}


def _year(text: str) -> int:
    y = int(text)
    return y + 2000 if y < 100 else y


def _num(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _EN_NUM.get(word) or _CN_NUM.get(word)


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def _date(groups: tuple) -> dt.date | None:
    """A date from the groups of ``_EN_DATE`` (month day year | day month year) or ``_ZH_DATE``."""
    g = [x for x in groups if x]
    try:
        if len(g) == 3 and g[0].lower().rstrip(".") in _MONTHS:
            return dt.date(int(g[2]), _MONTHS[g[0].lower().rstrip(".")], int(g[1]))
        if len(g) == 3 and g[1].lower().rstrip(".") in _MONTHS:
            return dt.date(int(g[2]), _MONTHS[g[1].lower().rstrip(".")], int(g[0]))
        if len(g) == 3:
            return dt.date(int(g[0]), int(g[1]), int(g[2]))
    except ValueError:
        return None
    return None


def _span(words: str) -> str | None:
    for pattern, span in _SPAN_WORDS:
        if re.fullmatch(pattern, words.strip(), re.I):
            return span
    return None


class _Split(tuple):
    """(year, "FY") of a fiscal year named by the two calendar years it spans: a fiscal year by its own naming."""


def _split_year(m: re.Match) -> tuple | None:
    """2020/21, 2020/2021, 2020-21 -> (2021, "FY") when the second year follows the first; None otherwise."""
    if m.group(3) and not re.match(r"(?:FY|fiscal|financial|school)", m.group(0), re.I):
        return None  # "2020-21" alone may be a range ("revenue change 2020-21"): FY2020-21 is the fiscal year
    first, second = int(m.group(1)), m.group(2) or m.group(3)
    end = int(second) if len(second) == 4 else first - first % 100 + int(second)
    return _Split((end, "FY")) if end == first + 1 else None


def years_named(text: str) -> set[int]:
    """The calendar years a passage names (2022, 2021 ...), as whole numbers: a quote's years, a table header's."""
    return {int(y) for y in re.findall(r"(?<!\d)((?:19|20)\d\d)(?!\d)", text)}


def _cn_small(word: str) -> int:
    """A month or day in Chinese numerals: 三 3, 十 10, 十二 12, 二十 20, 三十一 31."""
    tens, _, ones = word.partition("十")
    if "十" not in word:
        return int(_CN_DIGIT[word])
    return int(_CN_DIGIT.get(tens, "1") if tens else 1) * 10 + (int(_CN_DIGIT[ones]) if ones else 0)


def cn_numerals(text: str) -> str:
    """Dates written in Chinese numerals, as HK reports and some questions do, in digits: 二〇二四年 -> 2024年, and a
    month and day after a year: 二零二五年三月三十一日 -> 2025年3月31日 (the planner reads the question so)."""
    # (a space before a year that a code's digits or letters print against: "00328二〇二三年" is 00328 and 2023年)
    text = re.sub(r"([\dA-Za-z]?)([〇零○Ｏ一二三四五六七八九]{4})(?=\s?年)",
                  lambda m: (m.group(1) + " " if m.group(1) else "") + "".join(_CN_DIGIT[c] for c in m.group(2)), text)
    small = r"([一二三四五六七八九]?十[一二三四五六七八九]?|[一二三四五六七八九])"
    return re.sub(r"(\d{4}\s?年\s?)" + small + r"\s?月(?:\s?" + small + r"\s?日)?",
                  lambda m: f"{m.group(1)}{_cn_small(m.group(2))}月" + (f"{_cn_small(m.group(3))}日" if m.group(3) else ""),
                  text)


_TO_DATE = {1: "Q1", 2: "H1", 3: "9M"}  # the year to date at the end of a quarter


def find_periods(question: str) -> tuple[list[PeriodRef], int | None]:
    """(periods, last_n_years). Quarter / half-year / nine-month mentions win over a bare year."""
    text = cn_numerals(unicodedata.normalize("NFKC", question))
    found: list[tuple[int, PeriodRef]] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return not any(m.start() < b and a < m.end() for a, b in taken)

    def add(m: re.Match, year: int | None, period: str | None, **kw) -> None:
        if not free(m):
            return
        taken.append((m.start(), m.end()))
        found.append((m.start(), PeriodRef(fiscal_year=year, fiscal_period=period, matched=m.group(0), **kw)))

    fiscal_words = r"(?:FY\s?|fiscal\s+(?:year\s+)?)"
    # 1. periods named by their end date, and instants at a date
    for m in re.finditer(r"\b((?:fiscal\s+)?(?:years?|quarters?|three\s+months|six\s+months|nine\s+months|twelve\s+months|"
                         r"3\s+months|6\s+months|9\s+months|12\s+months|half[- ]years?|quarterly\s+period))\s+"
                         r"end(?:ed|ing)\s+(?:on\s+)?(?:" + _EN_DATE + ")", text, re.I):
        end, span = _date(m.groups()[1:]), _span(m.group(1))
        if end and span:
            add(m, None, None if span == "Q" else span, period_end=end, span=span, fiscal="fiscal" in m.group(1).lower())
    # ... ended in a month: "nine months ended October 2024", "the six months ending June 2025" (placed by the month)
    for m in re.finditer(r"\b((?:fiscal\s+)?(?:years?|quarters?|three\s+months|six\s+months|nine\s+months|twelve\s+months|"
                         r"3\s+months|6\s+months|9\s+months|12\s+months|half[- ]years?|quarterly\s+period))\s+"
                         r"end(?:ed|ing)\s+(?:in\s+)?" + _MONTH + r"\s+" + _YEAR + r"\b", text, re.I):
        span = _span(m.group(1))
        if span:
            end = _month_end(int(m.group(3)), _MONTHS[m.group(2).lower().rstrip(".")])
            add(m, None, None if span == "Q" else span, period_end=end, span=span, fiscal="fiscal" in m.group(1).lower())
    for m in re.finditer(r"截至\s?" + _ZH_DATE + r"\s?(?:止)?\s?(?:的)?\s?(年度|九个月|九個月|六个月|六個月|半年度|三个月|三個月|季度)",
                         text):
        end, span = _date(m.groups()[:3]), _span(m.group(4).replace("個", "个"))
        if end and span:
            add(m, None, None if span == "Q" else span, period_end=end, span=span)
    for m in re.finditer(r"\b(?:the\s+)?" + _MONTH + r"\s+" + _YEAR + r"\s+quarter\b|\bquarter\s+end(?:ed|ing)\s+(?:in\s+)?"
                         + _MONTH + r"\s+" + _YEAR + r"\b", text, re.I):
        g = [x for x in m.groups() if x]
        add(m, None, None, period_end=_month_end(int(g[1]), _MONTHS[g[0].lower().rstrip(".")]), span="Q")
    for m in re.finditer(r"\b(?:fiscal\s+)?years?\s+end(?:ed|ing)\s+(?:in\s+)?" + _MONTH + r"\s+" + _YEAR + r"\b|\b(?:the\s+)?"
                         + _MONTH + r"\s+" + _YEAR + r"\s+(?:fiscal\s+)?year\b", text, re.I):
        g = [x for x in m.groups() if x]
        add(m, None, "FY", period_end=_month_end(int(g[1]), _MONTHS[g[0].lower().rstrip(".")]), span="FY")
    for m in re.finditer(r"(?:\b(?:as\s+(?:of|at)|at|on|by)\s+)?(?:" + _EN_DATE + r")|(?:截至|截止|于)?\s?" + _ZH_DATE
                         + r"(?:止)?", text, re.I):
        g = m.groups()
        end = _date(g[:6]) if any(g[:6]) else _date(g[6:9])
        if end:
            add(m, None, None, period_end=end, instant=True)
    # ... and at a month's end: 2025年6月末, 2024年12月底 (placed in the company's calendar like a date)
    for m in re.finditer(_YEAR + r"\s?年\s?(\d{1,2})\s?月\s?(?:末|底)((?:\s?(?:和|及|与|與|、|至|到)\s?\d{1,2}\s?月\s?(?:末|底))*)", text):
        if 1 <= int(m.group(2)) <= 12:
            add(m, None, None, period_end=_month_end(int(m.group(1)), int(m.group(2))), instant=True)
        # more month ends of the same year after it (2025年3月末和9月末): each one
        for month in re.findall(r"(\d{1,2})\s?月", m.group(3) or ""):
            if 1 <= int(month) <= 12:
                found.append((m.start(), PeriodRef(period_end=_month_end(int(m.group(1)), int(month)), instant=True,
                                                   matched=m.group(0))))
    # ... and "as of February 2025", "at the end of June 2024" (a month without its day)
    for m in re.finditer(r"\b(?:as\s+of|as\s+at|at(?:\s+the)?\s+end\s+of|end\s+of)\s+" + _MONTH + r",?\s+" + _YEAR + r"\b",
                         text, re.I):
        add(m, None, None, period_end=_month_end(int(m.group(2)), _MONTHS[m.group(1).lower()]), instant=True)
    # ... and as analysts shorten it: "end-September 2025", "end September 2025", "September-end 2025"
    for m in re.finditer(r"\bend[-\s]" + _MONTH + r",?\s+" + _YEAR + r"\b|\b" + _MONTH + r"[-\s]end,?\s+" + _YEAR + r"\b",
                         text, re.I):
        month, year = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        add(m, None, None, period_end=_month_end(int(year), _MONTHS[month.lower()]), instant=True)
    # 2. instants named by a period end; a range of year ends first (2020-2022年末, 2020年至2022年末: each year's end)
    for m in re.finditer(_YEAR + r"\s?年?\s?(?:-|–|—|~|至|到)\s?" + _YEAR + r"\s?(?:年|财年|財年)?\s?(?:末|底|年末|年底)", text):
        a, b = int(m.group(1)), int(m.group(2))
        if a <= b <= a + 30 and free(m):
            taken.append((m.start(), m.end()))
            found += [(m.start(), PeriodRef(fiscal_year=y, fiscal_period="FY", matched=m.group(0), instant=True))
                      for y in range(a, b + 1)]
    instants: list[tuple[str, callable]] = [
        (r"\b(?:at\s+|as\s+of\s+)?(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?|(?:fiscal\s+)?year[- ]end(?:ed)?\s+"
         r"(?:of\s+)?(?:fiscal\s+|FY\s?)?)'?" + r"((?:19|20)\d\d|\d\d)\b(?!\s?(?:Q|quarter))", lambda m: (_year(m.group(1)), "FY")),
        (r"\b" + _YEAR + r"\s+(?:fiscal\s+)?year[- ]end\b", lambda m: (int(m.group(1)), "FY")),
        (r"\b(?:at\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+"
         r"(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?" + _YEAR, lambda m: (int(m.group(2)), f"Q{_ORD[m.group(1).lower()]}")),
        (r"\b(?:at\s+)?(?:the\s+)?end(?:\s+of\s+|-)Q([1-4])\s?(?:FY\s?|fiscal\s+)?'?((?:19|20)\d\d|\d\d)\b",
         lambda m: (_year(m.group(2)), f"Q{m.group(1)}")),
        (r"\b(?:at\s+)?end-((?:19|20)\d\d)\b", lambda m: (int(m.group(1)), "FY")),  # "end-2024": the year's end
        (_YEAR + r"\s?(?:年|财年|財年)?\s?(?:末|底|年末|年底)", lambda m: (int(m.group(1)), "FY")),
        (_YEAR + r"\s?年?\s?(?:第\s?)?([一二三四1-4])\s?季度?末", lambda m: (int(m.group(1)), f"Q{_num(m.group(2))}")),
        (_YEAR + r"\s?年?\s?(?:半年末|半年度末|中期末|上半年末|年中)", lambda m: (int(m.group(1)), "H1")),
    ]
    for pattern, make in _with_short_years(instants):
        for m in re.finditer(pattern, text, re.I):
            year, period = make(m)
            add(m, year, period, instant=True, fiscal=bool(re.search(r"fiscal|FY|财年|財年", m.group(0), re.I)))
    # 3. quarters, half years, nine months, years
    patterns: list[tuple[str, callable]] = [
        (r"\b(?:year[- ]to[- ]date|YTD)\s+(?:(?:through|thru|to|as\s+of)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?)?"
         r"(?:F?Q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter)(?:\s+of)?\s+"
         + fiscal_words + r"?'?((?:19|20)\d\d|\d\d)\b",
         lambda m: (_year(m.group(3)), _YTD_OF_QUARTER[int(m.group(1)) if m.group(1) else _ORD[m.group(2).lower()]])),
        (r"\bF?Q([1-4])\s?(?:of\s+)?" + fiscal_words + r"?'?((?:19|20)\d\d|\d\d)\s+(?:year[- ]to[- ]date|YTD)\b",
         lambda m: (_year(m.group(2)), _YTD_OF_QUARTER[int(m.group(1))])),
        (r"\bF?Q([1-4])\s+(?:year[- ]to[- ]date|YTD)\s+(?:of\s+|in\s+)?" + fiscal_words + r"?'?((?:19|20)\d\d|\d\d)\b",
         lambda m: (_year(m.group(2)), _YTD_OF_QUARTER[int(m.group(1))])),  # Q3 YTD fiscal 2024
        (r"\b" + fiscal_words + r"?'?((?:19|20)\d\d|\d\d)\s?F?Q([1-4])\s+(?:year[- ]to[- ]date|YTD)\b",
         lambda m: (_year(m.group(1)), _YTD_OF_QUARTER[int(m.group(2))])),  # FY2024 Q3 YTD
        (r"\b(?:through|thru)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?:F?Q([1-4])|(first|second|third|fourth|1st|2nd|3rd|"
         r"4th)\s+(?:fiscal\s+)?quarter)(?:\s+of)?\s+" + fiscal_words + r"?'?((?:19|20)\d\d|\d\d)\b",
         lambda m: (_year(m.group(3)), _YTD_OF_QUARTER[int(m.group(1)) if m.group(1) else _ORD[m.group(2).lower()]])),
        (r"\b([1-4])Q\s?(?:FY\s?)?'?(\d{4}|\d{2})\b", lambda m: (_year(m.group(2)), f"Q{m.group(1)}")),
        (r"\bF?Q([1-4])\s?(?:of\s+)?" + fiscal_words + r"?'?(\d{4}|\d{2})\b", lambda m: (_year(m.group(2)), f"Q{m.group(1)}")),
        (r"\b" + fiscal_words + r"?'?((?:19|20)\d\d|\d\d)\s?Q([1-4])(?![0-9A-Za-z])", lambda m: (_year(m.group(1)), f"Q{m.group(2)}")),
        (r"\b(?:fiscal\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?" + fiscal_words + r"?'?"
         r"((?:19|20)\d\d|\d\d)\b", lambda m: (_year(m.group(2)), f"Q{_ORD[m.group(1).lower()]}")),
        (r"\b" + fiscal_words + r"?" + _YEAR + r"\s+(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\b",
         lambda m: (int(m.group(1)), f"Q{_ORD[m.group(2).lower()]}")),
        (_YEAR + r"\s?(?:年度?|财年|財年)?\s?(?:第\s?)?([一二三四1-4])\s?季(?:度)?(?!末)", lambda m: (int(m.group(1)), f"Q{_num(m.group(2))}")),
        (_YEAR + r"\s?年?\s?Q([1-4])(?![0-9A-Za-z])", lambda m: (int(m.group(1)), f"Q{m.group(2)}")),
        # from the year's start to a quarter's end (年初至三季度末, 年初至第二季度末): the year to date of that quarter
        (_YEAR + r"\s?年?(?:度)?\s?(?:年初|初)\s?(?:至|到)\s?(?:第\s?)?([一二三1-3])\s?季度?末", lambda m: (int(m.group(1)), _TO_DATE[_num(m.group(2))])),
        # half years and nine months
        (_YEAR + r"\s?年?(?:度)?\s?(?:上半年|半年度|中期|半年|1\s?[-—–~至]\s?6\s?月)", lambda m: (int(m.group(1)), "H1")),
        # (a two-digit year after H1 needs a space or an apostrophe: "H1 24", "H1'24"; "H100" is a product name)
        (r"\b(?:H1|1H|first\s+half(?:\s+of)?|interim|six\s+months\s+of)(?:\s?(?:" + fiscal_words + r")?'?((?:19|20)\d\d)|"
         r"(?:\s|\s?')(?:" + fiscal_words + r")?'?(\d\d))\b",
         lambda m: (_year(m.group(1) or m.group(2)), "H1")),
        (r"(?<![0-9A-Za-z])(\d\d)\s?(?:H1|1H)(?![0-9A-Za-z])", lambda m: (_year(m.group(1)), "H1")),  # 24H1
        (r"(?<![0-9A-Za-z])1H'?(\d\d)(?![0-9A-Za-z])", lambda m: (_year(m.group(1)), "H1")),  # 1H24
        (r"(?<![0-9A-Za-z])" + _YEAR + r"\s?(?:H1|1H|first\s+half|interim)(?![0-9A-Za-z])", lambda m: (int(m.group(1)), "H1")),
        (_YEAR + r"\s?年?(?:度)?\s?(?:前三季度|前三个季度|1\s?[-—–~至]\s?9\s?月|一至三季度)", lambda m: (int(m.group(1)), "9M")),
        (_YEAR + r"\s?年?(?:度)?\s?1\s?[-—–~至]\s?3\s?月", lambda m: (int(m.group(1)), "Q1")),
        (r"\b(?:9M|nine\s+months(?:\s+ended)?(?:\s+of)?|first\s+nine\s+months\s+of|first\s+three\s+quarters\s+of)\s?(?:"
         + fiscal_words + r")?'?((?:19|20)\d\d|\d\d)\b", lambda m: (_year(m.group(1)), "9M")),
        (r"(?<![0-9A-Za-z])" + _YEAR + r"\s?9M(?![0-9A-Za-z])", lambda m: (int(m.group(1)), "9M")),
        # a fiscal year named by the two calendar years it spans (FY2020/21, 2020/2021, 2020-21, 2020/21財年): the year
        # it ends in, as HK and UK filers name theirs; consecutive years only
        (r"(?:\b(?:FY|fiscal\s+(?:year\s+)?|financial\s+year\s+|school\s+year\s+)\s?)?" + _YEAR + r"\s?(?:/\s?((?:19|20)?\d\d)|"
         r"[-–]\s?(\d\d))(?!\d)(?:\s?(?:财年|財年|年度|财政年度|財政年度))?", _split_year),
        # ranges of fiscal years
        (r"(?:\bfiscal\s+(?:years?\s+)?|FY\s?)?" + _YEAR + r"\s?(?:年度|年|财年)?\s?(?:-|–|—|~|to|through|至|到)\s?"
         r"(?:FY\s?|fiscal\s+(?:year\s+)?)?" + _YEAR + r"\s?(?:年度|年|财年)?", None),
        # fiscal years
        (r"\b(?:FY|fiscal\s+(?:year\s+)?|fiscal-year\s+)'?(\d{4}|\d{2})\b", lambda m: (_year(m.group(1)), "FY")),
        (_YEAR + r"\s?(?:财年|財年|fiscal\s+year|会计年度|會計年度)", lambda m: (int(m.group(1)), "FY")),
        (_YEAR + r"\s?(?:年度|年报|年報|annual)", lambda m: (int(m.group(1)), "FY")),
        (r"(?<!\d)(\d{2})\s?(?:财年|財年)", lambda m: (_year(m.group(1)), "FY")),
        (_YEAR + r"\s?年", lambda m: (int(m.group(1)), None)),
        (r"(?<!\d)(?<!\d[.,])" + _YEAR + r"(?!\d|[.,]\d|%)", lambda m: (int(m.group(1)), None)),
    ]
    fiscal_rx = re.compile(r"FY|fiscal|财年|財年|会计年度|會計年度", re.I)
    for pattern, make in _with_short_years(patterns):
        for m in re.finditer(pattern, text, re.I):
            if make is None:  # a range of years
                a, b = int(m.group(1)), int(m.group(2))
                if a <= b <= a + 30 and free(m):
                    taken.append((m.start(), m.end()))
                    fiscal = bool(fiscal_rx.search(m.group(0)))
                    for y in range(a, b + 1):
                        found.append((m.start(), PeriodRef(fiscal_year=y, fiscal_period=None, matched=m.group(0),
                                                           fiscal=fiscal)))
                continue
            made = make(m)
            if made:
                add(m, *made, fiscal=bool(fiscal_rx.search(m.group(0))) or isinstance(made, _Split))
    _share_listed_period(text, found)
    yearless = [
        (r"年初\s?(?:至|到)\s?(?:第\s?)?([一二三1-3])\s?季度?末", lambda m: _TO_DATE[_num(m.group(1))]),
        (r"(?<![\d年])前三季度", lambda m: "9M"),
        (r"(?<![\d年])(?:上半年|半年度|中期)", lambda m: "H1"),
        (r"(?<![\d年前])(?:第\s?)?([一二三四])\s?季度", lambda m: f"Q{_num(m.group(1))}"),
    ]
    for pattern, make in yearless:
        for m in re.finditer(pattern, text):
            before = [p for pos, p in found if pos < m.start() and p.fiscal_year]
            if before:
                add(m, before[-1].fiscal_year, make(m))
    if re.search(r"\b(?:quarterly|each quarter|every quarter|by quarter|per quarter|quarter by quarter)\b|各季度|分季度|每个季度|"
                 r"每季度|四个季度|各个季度|逐季", text, re.I):
        for pos, p in list(found):
            if p.fiscal_year and p.fiscal_period in (None, "FY") and not p.instant:
                found.remove((pos, p))
                found += [(pos, PeriodRef(fiscal_year=p.fiscal_year, fiscal_period=f"Q{i}", matched=p.matched, fiscal=p.fiscal))
                          for i in range(1, 5)]
    bad = re.search(r"\b(?:fifth|sixth|seventh|eighth|5th|6th|7th|8th)\s+(?:fiscal\s+)?quarter\b|\bQ[5-9]\b|"
                    r"第?[五六七八九]季度|\b(?:third|3rd)\s+half\b|下下半年", text, re.I)
    if bad:  # a period that does not exist: never answered with a neighbouring one
        return [PeriodRef(relative="invalid", matched=bad.group(0))], None
    last_n = None
    m = re.search(r"\b(?:last|past|previous|recent|trailing)\s+(\w+)\s+(?:fiscal\s+)?years\b", text, re.I) or \
        re.search(r"(?:近|最近|过去|過去|前)\s?([一二两三四五六七八九十\d]+)\s?(?:个|個)?(?:年|财年|財年|會計年度|会计年度)", text)
    if m:
        last_n = _num(m.group(1))
    latest = re.search(r"\b(?:latest|most\s+recent|newest|current)\b(?:\s+(?:reported\s+)?(?:quarter|period|report))?|"
                       r"最新(?:一期|报告期|報告期|季度)?|最近一期", text, re.I)
    if latest and not found and not last_n:
        # "the latest period" / 最新一期 asks for the newest report whatever its kind; "latest" alone keeps to years
        period = bool(re.search(r"quarter|period|report|一期|报告期|報告期|季度", latest.group(0), re.I))
        found.append((0, PeriodRef(relative="latest_period" if period else "latest", matched=latest.group(0))))
    found.sort(key=lambda x: x[0])
    unique: list[PeriodRef] = []
    for _, p in found:
        key = (p.fiscal_year, p.fiscal_period, p.relative, p.period_end, p.instant)
        if all(key != (q.fiscal_year, q.fiscal_period, q.relative, q.period_end, q.instant) for q in unique):
            unique.append(p)
    # a bare year next to the same year with a period is that period ("Q1 2025 ... 2025")
    specific = {p.fiscal_year for p in unique if p.fiscal_period}
    unique = [p for p in unique if p.fiscal_period or p.fiscal_year not in specific or p.relative or p.period_end]
    return unique, last_n


# bare years listed before a year with a period, without 年 of their own: "2023、2024、2025年一季度", "2023, 2024 and
# 2025 Q1" (each year's first quarter; "2023年和2024年一季度" names the year 2023 and a quarter of 2024)
_LISTED_YEARS = re.compile(r"(?:(?<!\d)(?:19|20)\d\d\s?(?:、|,|，|/|和|及|与|以及|\s+and|\s*&)\s*)+$", re.I)


# A two-digit year is a year only with 年 after it (24年三季度, 22年Q4, 25年上半年; not 近10年, 10年来); a question's words run on without
# spaces in Chinese, so a figure or a year is delimited by what is not a Latin letter or digit (\b sees no edge
# between 股份 and 22, nor between 24 and 营收).
_YY = r"(?<![0-9A-Za-z.,近前过過去后後这這每第约約超逾])(\d{2})(?=\s?年)(?!\s?年(?:来|來|间|間|以|内|內|多|左右|前|后|後))"
_EDGE_BEFORE, _EDGE_AFTER = r"(?<![0-9A-Za-z])", r"(?![0-9A-Za-z])"


def _with_short_years(patterns: list[tuple[str, callable]]) -> list[tuple[str, callable]]:
    """The patterns with their word edges as edges of Latin words and figures, and each pattern that starts with a
    four-digit year once more with a two-digit year before 年."""
    out = []
    for pattern, make in patterns:
        pattern = re.sub(r"\\b$", lambda _m: _EDGE_AFTER, re.sub(r"^\\b", lambda _m: _EDGE_BEFORE, pattern))
        out.append((pattern, make))
        if pattern.startswith(_YEAR) and make is not None:
            out.append((_YY + pattern[len(_YEAR):], lambda m, make=make: _short(*make(m))))
    return out


def _short(year: int, period: str | None) -> tuple[int, str | None]:
    return (_year(str(year)) if year < 100 else year), period


def _share_listed_period(text: str, found: list[tuple[int, PeriodRef]]) -> None:
    """Give the bare years of a list the period its last year carries (in place)."""
    for pos, p in list(found):
        if not p.fiscal_year or p.fiscal_period is None or (p.fiscal_period == "FY" and not p.instant) \
                or not p.matched.startswith(str(p.fiscal_year)):
            continue
        listed = _LISTED_YEARS.search(text[:pos])
        if listed is None:
            continue
        for i, (at, q) in enumerate(found):
            if listed.start() <= at < pos and q.fiscal_period is None and not q.instant and q.fiscal_year:
                found[i] = (at, q.model_copy(update={"fiscal_period": p.fiscal_period, "instant": p.instant}))


def resolve(periods: list[PeriodRef], fye_month: int, market: str | None) -> list[PeriodRef]:
    """Periods with a date (``period_end``) or an instant at a half-year end, placed in the company's fiscal
    calendar: fiscal year and period (the warehouse's own rules, ``warehouse.periods``). A date that is no period
    end of the company (six months "ended" in March for a December filer) becomes ``relative="invalid"``."""
    out = []
    for p in periods:
        if p.period_end is not None and p.fiscal_year is None and p.relative is None:
            if p.instant:
                year, period = classify_instant(p.period_end, fye_month, market or "US")
            else:
                span = p.span or p.fiscal_period or "FY"
                start = p.period_end - dt.timedelta(days=_SPAN_DAYS[span])
                found = classify_duration(start, p.period_end, fye_month)
                if found is None or (span != "Q" and found[1] != span):
                    out.append(p.model_copy(update={"relative": "invalid"}))
                    continue
                year, period = found
            out.append(p.model_copy(update={"fiscal_year": year, "fiscal_period": period}))
        elif p.instant and p.fiscal_period == "Q2" and market in ("A", "HK"):
            out.append(p.model_copy(update={"fiscal_period": "H1"}))  # A / HK balance sheets at mid-year are H1
        else:
            out.append(p)
    return out
