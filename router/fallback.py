""""Answered" means answered. When a metric or ratio question finds no stored row, the search fallback may
answer only with a passage of a filing (not an earnings call) that prints the metric's own figure: one of its
labels and a number right after it, in one passage, in a report of the asked year or the next one. Anything else (a
risk factor that mentions profit, a pension "funded ratio" for a quick ratio) is no answer: the question stays no_data."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from mappings.vocabulary import longest_first, part_nouns, per_share_sentence_words, simplified_in_place, with_same_words_zh
from mappings.metrics import metrics, printed_names, question_labels, ratios
from router.respectively import RESPECTIVELY_MORE, RESPECTIVELY_MORE_EN
from router.bilingual_lines import column_span
from router.calendar import loosely_named
from router.search import REPORT_PERIODS
from router.search_route import FIGURE_POOL, filters_for
from schema.models import Passage, QueryPlan

# A label's figure is printed right after it: on a statement row ("Total current assets 7,453") or in a
# sentence ("a quick ratio of 0.54"). 80 characters hold a statement row's label-to-first-column gap and a
# short phrase; further away the number belongs to something else.
LABEL_NUMBER_WINDOW = 80
LINE_TAIL = 160  # a whole statement row quoted: at most this many characters after the label's first figure
_NUMBER = re.compile(r"\(?-?\$?\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?%)?\)?(?:\s?(?:million|billion|thousand|trillion|cents?|times)\b|"
                     r"\s?(?:亿元|万元|千元|港元|美元|亿|万|元|仙|倍))?", re.I)  # its unit after it: "$3.2 billion", "6.16 亿元"
_YEAR = re.compile(r"^\(?(?:19|20)\d\d\)?$")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# between a Chinese label and its figure: spacing, punctuation, a unit or currency, a linking word (为, 达, 约 ...);
# any other Chinese makes the label part of a longer term or the figure another one's
_CJK_GAP = re.compile(r"[\s:：,，、()（）\[\]【】/\-—–%％$¥￥A-Za-z]*(?:(?:确认为|录得|为|是|达到|达|约|約|分别|分別|比例|比重|共计|合计|人民币|港币|港元|美元|"
                      r"万元|亿元|千元|百万元|元)[\s:：,，()（）%％]*)*")


def labels_of(metric: str) -> list[str]:
    """The words a filing prints for a metric or ratio (names and aliases), longest first."""
    if metric in ratios():
        spec = ratios()[metric]
        words = [spec.get("name_en"), spec.get("name_zh"), *(spec.get("aliases") or [])]
    elif metric in metrics():
        m = metrics()[metric]
        words = [m.name_en, m.name_zh, *m.aliases]
    else:
        return []
    words += [label for label, mid in question_labels().items() if mid == metric]  # as statements print it
    out = {w.casefold().strip() for w in words if w and len(w.strip()) >= 3 or (w and _CJK.search(w))}
    # (a Chinese label as filings also print it: 归属母公司所有者的净利润 without its 于)
    return longest_first({v for w in out for v in (with_same_words_zh(w) if _CJK.search(w) else [w])})


@lru_cache(maxsize=1)
def _every_label() -> frozenset[str]:
    """Every metric's and ratio's printed words (:func:`labels_of`)."""
    return frozenset(w for mid in [*metrics(), *ratios()] for w in labels_of(mid))


@lru_cache(maxsize=256)
def covering_labels(labels: tuple[str, ...]) -> dict[str, list[tuple[str, int]]]:
    """label -> [(a longer label of another metric that contains it, the offset it sits at)]: 资本充足率 sits in
    核心一级资本充足率, "sales" in "cost of sales"."""
    own = set(labels)
    out: dict[str, list[tuple[str, int]]] = {}
    for label in labels:
        for other in _every_label() - own:
            at = other.find(label)
            while at >= 0 and len(other) > len(label):
                out.setdefault(label, []).append((other, at))
                at = other.find(label, at + 1)
    return out


def inside_longer(lower: str, start: int, covering: list[tuple[str, int]]) -> bool:
    """Is the label found at ``start`` part of a longer label another metric prints (the longest label wins)?"""
    return any(start >= at and lower.startswith(other, start - at) for other, at in covering)


# An amount of money is printed as one: a currency before it, a scale word or 元 after it, or digits grouped in
# thousands (a statement row). A bare "66" after "turnover" (receivable turnover days) or "69" after "revenue"
# (a page reference) is not a revenue figure.
_CURRENCY_BEFORE = re.compile(r"(?:HK\$|US\$|S\$|RMB|HKD|USD|CNY|SGD|\$|¥|￥|人民币|港币|港元|美元)\s*$", re.I)
_AMOUNT = re.compile(r"\$|\d{1,3}(?:,\d{3})+|\d{4,}|million|billion|thousand|trillion|亿|万|元", re.I)
# a figure that bounds something ("banks with total assets of $10 billion or more") is a threshold, not the amount
_BOUND_BEFORE = re.compile(r"(?:more than|less than|fewer than|over|above|below|under|exceed\w*|in excess of|at least|"
                           r"up to|threshold of|超过|不低于|不超过|低于|高于)\W{0,3}$", re.I)
_BOUND_AFTER = re.compile(r"^\s*(?:or more|or less|or greater|or higher|or above|and above|以上|以下)", re.I)


def _is_figure(kind: str | None, window: str, n: re.Match) -> bool:
    """Is the number ``n`` of ``window`` (the text after a label) the label's own figure, for a metric of ``kind``?"""
    before = window[: n.start()]
    if _BOUND_BEFORE.search(before) or _BOUND_AFTER.match(window[n.end():]):
        return False
    if kind == "money":
        return bool(_CURRENCY_BEFORE.search(before) or _AMOUNT.search(n.group(0)))
    return True


_CHANGE = re.compile(r"\d\s?(?:%|％|percent\b)")


def prints_amount(text: str, or_change: bool = False) -> bool:
    """Does ``text`` print an amount of money anywhere (a currency before a number, a scale word, digits grouped in
    thousands; not a year, not "Office 365"), or (``or_change``) a percentage ("up nearly 50%")?"""
    if or_change and _CHANGE.search(text):
        return True
    for n in _NUMBER.finditer(text):
        token = n.group(0).strip()
        if _YEAR.match(token) or not any(ch.isdigit() for ch in token):
            continue
        if _CURRENCY_BEFORE.search(text[max(0, n.start() - 6): n.start()]) or _AMOUNT.search(token):
            return True
    return False


_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_AFTER = re.compile(r"^\s*(?:" + _MONTHS + r"(?![a-z])|月|日)", re.I)  # "31 October", "10月31日"
_DATE_BEFORE = re.compile(_MONTHS + r"\s*$", re.I)  # "October 31"


# a number right after "by" / "from" / "increased" is a change or the earlier figure; a label right after "increase in" names
# the change
_CHANGE_BEFORE = re.compile(r"(?:\b(?:by|from|increased|decreased|rose|fell|grew|declined|dropped)|%\)?\s+or)"
                            r"(?:\s+(?:approximately|about|around))?\s*(?:[A-Z]{1,3}\$?|\$)?\s*$")
# in Chinese, the earlier figure and the change before the figure a label went to ("由上年同期的39.1%下降至29.4%")
_CJK_FROM_TO = re.compile(r"\s*(?:由|从|從)[\u4e00-\u9fff]{0,8}?\s*[\d.,]+\s*(?:%|％|亿元|万元|元)?\s*"
                          r"(?:下降|上升|增加|减少|減少|提升|提高|降低|增长|增長|变为|變為)?\s*(?:至|到)\s*")
# a sentence ends between the label and the number: the number is another sentence's
_SENTENCE_END = re.compile(r"[a-z)]{2}[.;]\s+[A-Z(]|[。；]")
_CHANGE_OF = re.compile(r"(?:increase|decrease|growth|decline|drop|rise|change|reduction)s?\s+in\s+(?:the\s+)?"
                        r"(?:group['’]s\s+|company['’]s\s+|our\s+)?(?:total\s+|net\s+)?$", re.I)


_OTHER_MEASURE_AFTER = re.compile(r"[\s-]*(?:area|volume|units?|growth|rate|ratio|margin|mix|per\s+share|"
                                  r"per\s+square|days|turnover|based|related|recognition|streams?|share|"
                                  r"provisions?|reserves?|allowances?|guidance|backlog)\b", re.I)


# "sales of jewellery products", "revenue from our water supply business": one segment's figure, not the total
_PART_AFTER = re.compile(r"\s+(?:(?:generated|derived|earned|arising)\s+)?(?:of|from)\s+(?!(?:the\s+)?(?:group|company)\b|(?:approximately|approx|about|around|"
                         r"nearly|over|some)\b|[A-Z]{0,3}\$|rmb|hkd|usd|cny|\d)", re.I)


_COMBINED_AFTER = re.compile(r"\s*(?:and|&|及|和|与|與)\s*(?![\d$(]|(?:approximately|about|hk\$|us\$|rmb)\b)[^\W\d_]", re.I)


# an aside without figures right after a label: in brackets, or whose figure it is and of when ("loss per share
# attributable to equity holders of the Company for the Reporting Period were RMB31.57 cents")
_ASIDE = re.compile(r"\s*[(（][^()（）\d]{0,200}[)）]|(?:\s+attributable\s+to\s+(?:the\s+)?(?:owners|equity\s+holders|"
                    r"shareholders|ordinary\s+equity\s+holders)\s+of\s+the\s+(?:company|parent|group|bank))?"
                    r"(?:\s+for\s+the\s+(?:reporting\s+period|year|period|financial\s+year))(?=\s+(?:was|were|amounted))", re.I)


_LABEL_GAP = r"\s+(?:[(（]\s*[\"“”'‘’]?[a-z&]{1,10}[\"“”'‘’]?\s*[)）]\s+)?"


def figure_span(text: str, labels: list[str], kind: str | None = None) -> tuple[int, int] | None:
    """(start, end) of a label followed by its figure within LABEL_NUMBER_WINDOW characters, else None: of all the
    labels' mentions with a figure, one of the longest label ("total revenue" before "revenue" before "sales"),
    printed closest to its figure ("The Group's revenue for the year ended 31 October 2021 was HK$118,520,000", not
    a segment's revenue further from its amount). ``kind``: the metric's
    (``money`` figures must be printed as amounts). Dates ("31 October") are no figures."""
    lower = text.casefold()
    best: tuple[int, int, int, int] | None = None  # label rank, gap, start, end
    covering = covering_labels(tuple(labels))
    for rank, label in enumerate(labels):
        cjk = bool(_CJK.search(label))
        # a label runs over printed lines: any spacing between its words, and an abbreviation defined between them
        # ("gross profit (“GP”) margin")
        pattern = re.escape(label) if cjk else r"(?<![\w&])" + re.escape(label).replace(r"\ ", _LABEL_GAP) + r"(?![\w&])"
        for m in re.finditer(pattern, lower):
            if inside_longer(lower, m.start(), covering.get(label, [])):
                continue  # 资本充足率 inside 核心一级资本充足率 9.12%: the longer label's figure
            if _CHANGE_OF.search(lower[max(0, m.start() - 40): m.start()]):
                continue  # "a decrease in total revenue of S$45.6 million": the change's amount, not revenue's
            # an aside without figures right after the label ("current ratio (calculated by dividing current
            # assets by current liabilities as at the end of the year) was approximately 7.3 times") is skipped
            aside = _ASIDE.match(text, m.end())
            after = aside.end() if aside else m.end()
            # a figure that starts inside the window is read whole ("approximately 1.47" across the window's end)
            window = text[after: after + LABEL_NUMBER_WINDOW + 24]
            if kind == "money" and (_OTHER_MEASURE_AFTER.match(window) or _PART_AFTER.match(window)
                                    or _COMBINED_AFTER.match(window)):
                continue  # "sales area", "revenue growth", "sales of jewellery products": another measure, or a part;
                # "capital expenditure and investment in unlisted equity of HK$6.9 million": two measures' sum
            for n in _NUMBER.finditer(window):
                if n.start() >= LABEL_NUMBER_WINDOW:
                    break
                token = n.group(0).strip()
                if _YEAR.match(token) or not any(ch.isdigit() for ch in token):
                    continue  # a year heading is no figure
                rest = window[n.end():].split("\n", 1)[0]
                heading = re.match(r"\s*(\d{1,2})\.\s", text[text.rfind("\n", 0, m.start()) + 1: m.start()])
                if re.fullmatch(r"\(?\d{1,2}\)?", token) and (_NUMBER.search(rest) or (heading and heading.group(1) == token)):
                    continue  # a note reference: on a statement row ("Net asset value per share 23 1.53 1.37") or
                    # the note's own heading ("23. NET ASSET VALUE PER SHARE 23")
                if _SENTENCE_END.search(text[max(0, after - 2): after] + window[: n.start()]):
                    break  # "... Research and development expenses. Certain asset impairments totaled $900 million"
                if _DATE_AFTER.match(window[n.end():]) or _DATE_BEFORE.search(window[: n.start()]):
                    continue  # a day of a date
                if _CHANGE_BEFORE.search(window[: n.start()]) or (kind == "money" and token.rstrip(")").endswith("%")):
                    continue  # "decreased by 62.4% to RMB9,085.4 million", "from HK$357.6 million to ...": the change
                    # or the earlier figure; the amount comes after them
                moved = _CJK_FROM_TO.match(window) if cjk else None  # 由上年同期的39.1%下降至29.4%: the figure it went to
                if moved is not None and n.end() <= moved.end():
                    continue
                if cjk and moved is None and not _CJK_GAP.fullmatch(window[: n.start()]):
                    break  # Chinese runs on without spaces: 总资产收益率 0.77 is not 总资产's figure
                if cjk and re.search("分别|分別", window[: n.start()]) and re.search(r"[、及和与與,，]\s*$", lower[: m.start()]):
                    break  # "核心一级资本充足率、一级资本充足率及资本充足率分别为 9.12%、...": the first figure is the first label's
                if not _is_figure(kind, window, n):
                    break  # the first number after the label is not its amount: the label names something else
                end = after + n.end()
                more = RESPECTIVELY_MORE.match(window, n.end()) if re.search("分别|分別", window[: n.start()]) else \
                    RESPECTIVELY_MORE_EN.match(text, after + n.end())
                if more:  # "收益分別約643,446,000港元及543,968,000港元", "... and approximately HK$543,968,000 respectively"
                    end = more.end() + (after if more.re is RESPECTIVELY_MORE else 0)
                best = min(best or (rank, n.start(), m.start(), end), (rank, n.start(), m.start(), end))
                break
    return (best[2], best[3]) if best else None


def figure_span_number(text: str, after: int, window_size: int = LABEL_NUMBER_WINDOW) -> int | None:
    """Where the first figure printed after a label ending at ``after`` ends, by the rules of :func:`figure_span`: a
    year, a day of a date, a change or an earlier figure ("by 5 percent", "from 90.5%") are skipped; a sentence that
    ends first, or no figure in the window: None."""
    window = text[after: after + window_size + 24]
    for n in _NUMBER.finditer(window):
        if n.start() >= window_size:
            break
        token = n.group(0).strip()
        if _YEAR.match(token) or not any(ch.isdigit() for ch in token):
            continue
        if _SENTENCE_END.search(text[max(0, after - 2): after] + window[: n.start()]):
            return None
        if _DATE_AFTER.match(window[n.end():]) or _DATE_BEFORE.search(window[: n.start()]):
            continue
        if _CHANGE_BEFORE.search(window[: n.start()]) or token.rstrip(")").endswith("%"):
            continue
        return after + n.end()
    return None


def figure_passages(passages: list[Passage], metric: str, whole_line: bool = False,
                    years: frozenset[int] = frozenset()) -> list[Passage]:
    """The passages that print the metric's figure, each cut to the label and its number (``whole_line``: to the
    end of its line, every column of a statement row) - an exact substring of the passage, so of the page."""
    labels = labels_of(metric)
    kind = metrics()[metric].kind if metric in metrics() else None
    out = []
    from router.per_share_sentences import per_share_sentence_span  # it reads figures by this module's rules
    from router.respectively import respectively_span
    from router.days_sentences import days_sentence_span

    days = (ratios().get(metric) or {}).get("unit") == "days"

    for p in passages:
        span = figure_span(p.text, labels, kind)
        if span is None and kind == "per_share":  # "Our annual dividend was $1.48 per share"
            span = per_share_sentence_span(p.text, metric, years)
        if span is None:  # an HK page printed in English and Chinese side by side: its Chinese column
            span = column_span(simplified_in_place(p.text), labels, lambda column, chinese: figure_span(column, chinese, kind))
        if span is None:  # one of several figures listed with their names, read by its place ("..., respectively")
            span = respectively_span(p.text, labels)
        if span is None and days:  # "accounts receivable turnover was about 66 days"
            span = days_sentence_span(p.text, labels)
        if span is None or of_other_year(p.text, span[0], years):
            continue
        out.append(row_passage(p, span, whole_line))
    return out


def sentence_start(text: str, at: int) -> int:
    """Where the Chinese sentence that ``at`` is in starts (after a 。 or a blank line)."""
    return max(text.rfind("。", 0, at), text.rfind("\n\n", 0, at), -1) + 1


def of_other_year(text: str, at: int, years: frozenset[int]) -> bool:
    """Does the Chinese sentence a figure at ``at`` is in name the year it is of, and none asked ("2018年度利润分配以 ...
    为基数，每股派发现金红利 0.2 元" for 2019)?"""
    start = sentence_start(text, at)
    named = {int(y) for y in re.findall(r"((?:19|20)\d\d)\s*年\s*(?:年\s*)?度", text[start: at])}
    return bool(years and named and not named & years)


def span_passage(p: Passage, start: int, end: int) -> Passage:
    """``p`` cut to ``p.text[start:end]`` (trailing space off), its source's character offsets moved with it."""
    text = p.text[start:end].rstrip()
    src = dict(p.source)
    if src.get("char_start") is not None:
        src["char_start"], src["char_end"] = src["char_start"] + start, src["char_start"] + start + len(text)
    return Passage(text=text, company_id=p.company_id, source=src, score=p.score)


def row_passage(p: Passage, span: tuple[int, int], whole_line: bool = True) -> Passage:
    """``p`` cut from the start of the line a figure's label is on to the figure (``whole_line``: to the end of
    its line, every column of a statement row, at most LINE_TAIL characters after the figure)."""
    start, end = p.text.rfind("\n", 0, span[0]) + 1, span[1]
    if whole_line:
        stop = p.text.find("\n", end)
        end = min(stop if stop >= 0 else len(p.text), end + LINE_TAIL)
    return span_passage(p, start, end)


# Where a printed figure may come from: the filings' pages, statements included; never an earnings call (what is
# said on a call is not a figure the filing prints: rounded, often a quarter or a non-GAAP measure).
FIGURE_KINDS = ["narrative", "table"]


def figure_filters(plan: QueryPlan) -> dict:
    """Where the plan's printed figures may be: any page of a filing (statements included) of the asked period's
    reports (see :func:`search_for_figures`). A quarter's flow is not read from the longer reports a quarter's search
    otherwise reads too (the year's report for Q4, the half year's for Q2: their figure is the longer period's); a
    balance at the quarter's end is the same in both, and keeps them."""
    filters = dict(filters_for(plan.model_copy(update={"sections": []})), kind=FIGURE_KINDS)
    asked = {p.fiscal_period or "FY" for p in plan.periods if p.fiscal_year}
    # "fiscal 2023" written out is the company's own year only (searches take both readings); FY2023 either
    years = sorted({y for p in plan.periods if p.fiscal_year for y in (
        [p.stored_year] if p.stored_year and not loosely_named(p) else [p.fiscal_year, p.stored_year]) if y})
    if years:
        filters["fiscal_year"] = years
    if asked:
        filters["fiscal_period"] = sorted({r for p in asked for r in REPORT_PERIODS.get(p, ["FY", "Q4"])})
    quarters = {p.fiscal_period for p in plan.periods if p.fiscal_year}
    balances = any(p.instant for p in plan.periods) or any(
        metrics()[m].period == "instant" for m in plan.metrics if m in metrics())  # the year-end balance is Q4's
    if filters.get("fiscal_period") and quarters and quarters <= {"Q2", "Q4"} and not balances:
        filters["fiscal_period"] = sorted(quarters)
    return filters


# a parent company's own statements, printed after the consolidated ones (母公司利润表, "Company statement of financial
# position"): their rows are the parent's alone
_PARENT_ONLY = re.compile(r"母公司(?:利润表|资产负债表|现金流量表|所有者权益变动表|股东权益变动表)|母公司財務狀況表|"
                          r"parent company(?:['’]s)? (?:only )?(?:statements?|balance sheets?)|"
                          r"(?<!consolidated )\bcompany(?:['’]s)? statements? of (?:financial position|profit or loss)", re.I)


def consolidated_first(passages: list[Passage]) -> list[Passage]:
    """``passages`` with the units of a parent company's own statements last (a row read there is not the group's)."""
    return sorted(passages, key=lambda p: bool(_PARENT_ONLY.search(p.text)))


_ROW_FIGURES = re.compile(r"(?<![\d.,])(?!(?:19|20)\d\d(?!\d|[.,]\d))[(-]?\d[\d,]*(?:\.\d+)?%?")  # a row's figures, not its years


def search_for_figures(searcher: Callable, plan: QueryPlan, whole_line: bool = False,
                       each: int | None = None, cut: Callable | None = None, hint: str = "") -> list[Passage]:
    """Passages printing the figures of the plan's metrics, from any page of a filing (statements included) of the
    asked period's reports: a year's figure from an annual report (or a fourth-quarter release), a quarter's from
    that quarter's report; the next year's report of the same period prints it as a comparative (``each``: at most
    this many per metric and company, so that every figure asked for is quoted; ``cut(passages, metric)``: what is
    quoted of the units found, by default :func:`figure_passages`; ``hint``: words joined to the query, the words
    of what is looked for). A report of
    another period prints other figures under the same label (an interim's half-year margin, an annual report's
    year-end assets for a quarter-end question, its year's revenue for a fourth quarter's): when only those are found,
    nothing is quoted."""
    filters = figure_filters(plan)
    asked = bool(filters.get("fiscal_period"))
    found: list[Passage] = []
    for metric in plan.metrics:
        # the metric's printed names join the question's words: shorthand ("FCF", "top line") is not what pages print,
        # and an English question about an A-share or HK issuer is answered by a page printed in Chinese
        names = " ".join(dict.fromkeys([*printed_names(metric).values(), *per_share_sentence_words().get(metric, [])[:2]]))
        years = frozenset(p.fiscal_year for p in plan.periods if p.fiscal_year)
        # none found by the metric's printed names: by every Chinese name it is printed with too (每股派发现金红利)
        chinese = " ".join(w for w in labels_of(metric) if _CJK.search(w))
        quoted: list[Passage] = []
        for words in dict.fromkeys((names, chinese, "")):  # last, the question's own words alone
            query = plan.model_copy(update={"sections": [], "question": f"{plan.question} {words} {hint}".strip()})
            evidence = searcher(query, filters, whole=True, pool=FIGURE_POOL * (2 if len(years) > 1 else 1))  # (years: their row)
            if asked and getattr(evidence, "widened", None):
                break  # found only outside the asked period's reports
            evidence = consolidated_first(list(evidence))
            quoted = cut(evidence, metric) if cut else figure_passages(evidence, metric, whole_line, years)
            if quoted:
                break
        if whole_line and len(years) > 1:  # several years asked: the rows that print the most of them first
            quoted.sort(key=lambda p: -len(_ROW_FIGURES.findall(p.text)))
        taken: dict[str, int] = {}
        for p in quoted:
            taken[p.company_id] = taken.get(p.company_id, 0) + 1
            if each is None or taken[p.company_id] <= each:
                found.append(p)
    return found
