"""A line item the vocabulary has no metric for ("dividend income", 个人贷款余额, 信贷成本): an amount question about it
is answered by the row or sentence that prints it with its figure: the question's topic words as a label, a number
right after them (the printed-figure rules of ``router.fallback``), in a report of the asked period, quoted whole
with its page. Nothing else is taken for it; without such a row the answer is the passages search finds."""

from __future__ import annotations

import re
from collections.abc import Callable

from mappings.analysis import analysis
from mappings.metrics import CJK
from mappings.vocabulary import fold, simplified_in_place, with_same_words_zh, words
from router.bilingual_lines import column_span
from router.fallback import consolidated_first, figure_filters, figure_span, labels_of, row_passage
from router.other_language_names import other_language_name
from router.search_words import content_query, topic_run
from schema.models import Passage, QueryPlan

ITEMS_EACH = 3  # rows quoted per company
# words of a question that ask for the amount, not what it is of
_ASKING = re.compile(r"(?<![\w-])(?:what|was|were|is|are|the|a|an|how|much|many|did|does|do|have|has|had|for|of|in|at|on|as|to|by|its|their|"
                     r"amount|value|figure|reported|report|year|years|ended|ending|end|fiscal|period|quarter|"
                     r"annual|approximately|about|vs|versus|compared|compare|comparison)(?![\w-])|[?？。，,]", re.I)
_TAIL_EN = re.compile(r"\s+(?:figure|amount|number|value|level|balance)$")  # the question's word for a figure, not the label's
_TAIL_ZH = re.compile(r"(?:余额|金额|总额|规模|数额|水平|账面余额|账面价值)$")


def topic_labels(plan: QueryPlan) -> list[str]:
    """The label the question's topic words would print as, longest reading first ("个人贷款余额", "个人贷款"): a run
    of two words or more, or three Chinese characters or more; none without such a run."""
    text = content_query(plan)
    if CJK.search(text):
        # the longest run of the question without its 的 first (罐式集装箱销量的全球市场占有率 is printed
        # 罐式集装箱销量全球市场占有率), then of the question as asked
        joined = content_query(plan.model_copy(update={"question": re.sub(r"(?<=[\u4e00-\u9fff])的(?=[\u4e00-\u9fff])", "",
                                                                          plan.question)}))
        labels = []
        for whole in (joined, text):
            runs = re.findall(r"[\u4e00-\u9fff](?:[\u4e00-\u9fff、]*[\u4e00-\u9fff])?", whole)  # 孖展贷款、其他贷款
            run = max(runs or [""], key=len)
            run = topic_run(run)
            run = re.sub(r"^(?:以及|和|与|及|或|的)+", "", run)  # (what joined two periods: "2023年末和2025年6月末的在建工程")
            bare = re.sub(r"(?:业务)?(?:板块|分部)", "", run)  # 临床试验技术服务板块收入 is printed 临床试验技术服务收入
            labels += [run, _TAIL_ZH.sub("", run), bare, _TAIL_ZH.sub("", bare)]
        # (each as printed with its words' other forms too: 现金分红总额 / 现金红利总额)
        return [v for w in dict.fromkeys(labels) if len(w) >= 3 for v in with_same_words_zh(w)]  # 管理费: three
    # (a label's own "to": "net assets attributable to unitholders", "amounts due to related parties")
    text = re.sub(r"\b(attributable|due|related|relating|payable|owed|owing)\s+to\b", r"\1_to", text, flags=re.I)
    # (and its own "value" after a word of it: "net asset value per unit", "fair value"; not "the value of X")
    text = re.sub(r"(?<=\w)(\s+)value\b", lambda m: m.group(1) + "value_", text, flags=re.I)
    text = re.sub(r"\b(the|a|an|its|their|what|was|were|is|are)(\s+)value_", r"\1\2value", text, flags=re.I)
    runs = [r.strip().replace("_to", " to").replace("value_", "value") for r in _ASKING.split(text.casefold())]
    runs = [re.sub(r"[^\w&'’ -]|(?<!\w)['’]s?(?!\w)", " ", r).strip() for r in runs if r.strip()]  # ("Resorts' X": X)
    run = max(runs, key=len, default="")
    run = re.sub(r"\s+", " ", run)
    labels = [run, re.sub(r"^total ", "", run)]  # "total deposits" is printed "Total deposits" or "Deposits"
    labels.append(_TAIL_EN.sub("", run))  # "the ongoing charges figure" is printed "Ongoing Charges"
    # one word names many rows ("Deposits" at fair value), unless the question asks for the total of it: "total
    # backlog" is the row or sentence whose label is "Backlog" alone (``own_row``)
    out = [w for w in dict.fromkeys(labels) if len(w.split()) >= 2 or (w != run and len(w) >= 4)]
    # an abbreviation the item ends in, as asked ("Las Vegas Strip RevPAR"): its own label too, last (a table prints
    # it in brackets after its name: "Revenue per available room (RevPAR) $ 224"; the words before it are its scope)
    abbreviation = next((w for w in re.findall(r"\b[A-Za-z]*[A-Z][a-z]*[A-Z][A-Za-z]*\b", plan.question)
                         if run.endswith(" " + w.casefold())), None)
    return out + [abbreviation.casefold()] if abbreviation and len(abbreviation) >= 3 else out


def asks_line_item(plan: QueryPlan) -> bool:
    """An amount question (or a bare phrase: "X dividend income FY2021") about one company with no metric of the
    vocabulary named."""
    text = fold(plan.question)
    # (two periods compared, "2021年度股息收入与2020年度相比如何": their amounts, unless it asks why or for words)
    compared = len(plan.periods) >= 2 and bool(words("compare").search(text)) and not any(
        words(name).search(text) for name in ("why", "quote_verbs"))
    labels = topic_labels(plan)
    # a label whose last word names an amount is no narrative word ("management fee"; "risk factors" stays one)
    items = [w for w in labels if not CJK.search(w) and words("amount_nouns").search(w.split()[-1])]
    rest = re.sub("|".join(map(re.escape, items)), " ", text.casefold()) if items else text
    asks = analysis().amount_question.search(plan.question) or not words("narrative").search(rest) or compared
    return not plan.metrics and not plan.non_gaap and bool(plan.companies) and bool(asks) and bool(labels)


# between a row's label and its first figure: spacing, a currency, a note reference or a linking word, nothing that
# makes the label part of another item ("Total deposits in U.S. offices 1,895,995" is not total deposits)
_GAP = re.compile(r"[\s:：$¥￥()（）\-–—,，、/]*(?:[（(][^()（）]{0,60}[)）]\s*)?(?:(?:hk\$?|us\$?|s\$?|rmb|hkd|usd|cny|人民币|港币|港元|约|約|approximately|about|"
                  r"was|were|amounted\s+to|of|losse?s?|charges?|expenses?|net|确认为|录得|合计|共计|為|为|达到|達到|达|達|note\s*\d+|附注\s*\d+|"
                  r"\d{1,2}(?:\s?\([a-z]{1,3}\))?(?=[\s,，]))[\s:：$()（）,，]*)*", re.I)  # (notes: "6(a)", "11, 13(i)")
_LINE_HEAD = re.compile(r"[\s•●■◆▪·\-–—*]*(?:\(?[a-z0-9ivx]{1,4}[.)）]\s*)?(?:[（(]?[一二三四五六七八九十]+[、)）]\s*)?$", re.I)


# what may open a Chinese clause right before a label: its year, its subject (the company), the period, or what the
# company does with the amount ("公司实现营业收入 ...", "年度派发现金红利总额合计为 ..."): the label is the amount's, not
# the tail of a longer term
_CLAUSE_HEAD_ZH = r"(?:19|20)\d\d\s*年度?|公司|本集团|集团|本行|报告期末|报告期内|期末|年末|实现|派发|派送|支付|计提|录得|取得|发生|累计"


def own_row(text: str, span: tuple[int, int], labels: list[str]) -> bool:
    """Is the figure at ``span`` the line item's own: its label heads the line (a row) or is followed by "was" / 为
    (a sentence), with nothing but spacing, currency or a note between label and figure?"""
    lower = text.casefold()
    label = next((w for w in labels if lower.startswith(w, span[0])), None)
    if label is None:
        return False
    line_start = text.rfind("\n", 0, span[0]) + 1
    after = text[span[0] + len(label): span[1]]
    figures = list(re.finditer(r"\(?-?\$?\d[\d,]*(?:\.\d+)?", after))  # the last one is the figure read
    gap = after[: figures[-1].start()] if figures else after
    before = text[line_start: span[0]]
    # a row's label heads its line; in Chinese prose a clause may start with it too ("报告期内，临床试验技术服务收入 146,953.02")
    # (or after the clause's year or its subject, the company: "公司 2019年罐式集装箱销量...", "公司在手订单总额 10.88 亿美元")
    heads_row = bool(_LINE_HEAD.fullmatch(before)) or bool(CJK.search(label) and re.search(
        rf"(?:[，,。：:；;]|{_CLAUSE_HEAD_ZH})\s*$", before)) \
        or bool(re.fullmatch(r"[^\S\n]*[A-Za-z][\w ,&'’-]{2,60}\(", before) and after.startswith(")"))  # (its name's abbreviation)
    # a sentence names it ("dividend income was", "...的临床试验技术服务收入为"); in Chinese the label is not the tail of a
    # longer term (新兴业务毛利率 is not 业务毛利率)
    # (a year before it is the clause's: "公司 2019年罐式集装箱销量全球市场占有率达到 15.55%")
    whole_word = not CJK.search(label) or not CJK.search(before[-1:]) or before.endswith("的") or bool(
        re.search(rf"(?:{_CLAUSE_HEAD_ZH})$", before))
    sentence = whole_word and bool(re.match(r"\s*(?:was|were|amounted\s+to|为|為|达|達)", gap, re.I))
    return (heads_row or sentence) and bool(_GAP.fullmatch(gap))


def measure_labels(plan: QueryPlan) -> list[str]:
    """The labels a qualified measure of the plan prints under: its qualifier before or after each label of the
    metric ("adjusted ebitda", "goodwill impairment", 资本化研发投入), longest first."""
    out = []
    for word, metric in plan.non_gaap:
        for label in labels_of(metric):
            if CJK.search(label):
                out += [f"{word}{label}", f"{label}{word}"]
            elif len(label) >= 3:  # (a list goes on after a comma: "cash and cash equivalents, short-term ... deposits")
                out += [f"{word} {label}", f"{label}{'' if word[:1] in ',，' else ' '}{word}"]
    return sorted(dict.fromkeys(w.casefold() for w in out), key=len, reverse=True)


def other_language_labels(plan: QueryPlan, labels: list[str], printed: Callable[[dict], list[str]], searcher) -> list[str]:
    """A line item asked in the language its company's filings do not print (``searcher.pipeline.written_in``): the
    one label of the asked filings' pages (``printed(filters)``) that says the question's label word by word through
    the dictionary (股息收入 -> "Dividend income"; :mod:`router.other_language_names`), or none."""
    if not labels or not asks_line_item(plan) or searcher is None or searcher.pipeline.written_in(plan):
        return []
    found = other_language_name([simplified_in_place(label) for label in labels], printed(figure_filters(plan)))
    return [found.casefold()] if found else []


def line_item_passages(searcher: Callable, plan: QueryPlan, labels: list[str] | None = None,
                       other: list[str] = (), order: Callable[[list[Passage]], list[Passage]] = list) -> list[Passage]:
    """The rows (or sentences) of the asked period's reports that print the question's line item (or ``labels``)
    with its figure, each quoted from the start of its line to the end of the row; ``other``: its labels in the
    other language, which the filings print (searched with the question, and read as its labels); ``order``: the
    units found in the order their rows are taken (the asked fund's, under its name on its page, first)."""
    labels = [*(labels or topic_labels(plan)), *other]
    filters = figure_filters(plan)
    searched = plan.model_copy(update={"question": " ".join([plan.question, *other])}) if other else plan
    evidence = searcher(searched, filters, whole=True)
    if filters.get("fiscal_period") and getattr(evidence, "widened", None):
        return []  # found only outside the asked period's reports
    out: list[Passage] = []
    taken: dict[str | None, int] = {}  # rows per company (a comparison's companies each get theirs)
    for p in consolidated_first(order(sorted(evidence, key=lambda p: not _names_asked(p, plan)))):
        if taken.get(p.company_id, 0) >= ITEMS_EACH:
            continue
        text = simplified_in_place(p.text)  # a Traditional page read in the question's folded words
        at = _under_asked_name(text, p, plan)
        span = figure_span(text[at:], labels) if at else None
        span = (span[0] + at, span[1] + at) if span else figure_span(text, labels)
        if span is None or not own_row(text, span, labels):
            span = _in_chinese_column(text, labels) or label_over_figure(text, labels) or row_under_column(text, labels)
            if span is None:
                continue
        out.append(row_passage(p, span))
        taken[p.company_id] = taken.get(p.company_id, 0) + 1
    return out


def _names_asked(p: Passage, plan: QueryPlan) -> bool:
    """Does a unit print the name the question gives its company? One report of several funds (an umbrella fund's
    sub-funds) heads each one's statements with its name: the asked one's rows come first."""
    text = " ".join(p.text.split()).casefold()
    return any(c.via == "name" and len(c.matched or "") >= 4 and " ".join(c.matched.split()).casefold() in text
               for c in plan.companies)


def _under_asked_name(text: str, p: Passage, plan: QueryPlan) -> int:
    """Where the asked company's name is printed in a unit of another company's filing (an umbrella fund's report
    read for a sibling fund: its rows follow its name), or 0."""
    if any(p.company_id == c.company_id for c in plan.companies):
        return 0
    lower = text.casefold()
    spots = [lower.find(c.matched.casefold()) for c in plan.companies if c.via == "name" and len(c.matched or "") >= 4]
    return max(0, min((s for s in spots if s >= 0), default=0))


_DATE = re.compile(r"\b\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d\d\b")  # "30.09.2021": the column's date, no figure
OVER_LINES = 2  # a label on its own line: its figure on one of the next this many lines
OVER_WORDS = 6  # ... each of them short (a column's heading, its date and figure), not a sentence


def label_over_figure(text: str, labels: list[str]) -> tuple[int, int] | None:
    """A label printed on a line of its own with its figure on one of the next lines, under the column's heading
    ("Ongoing Charges" / "Financial year ended" / "30.09.2021 0.48%*"): the span from the label to the figure."""
    lower = text.casefold()
    for label in labels:
        for m in re.finditer(rf"(?m)^[^\S\n]*{re.escape(label)}[^\S\n]*[:：]?[^\S\n]*$", lower):
            at = m.end()
            for _ in range(OVER_LINES):
                nl = text.find("\n", at + 1)
                line = text[at + 1: nl if nl >= 0 else len(text)]
                if len(re.findall(r"[A-Za-z]{2,}", line)) > OVER_WORDS or len(CJK.findall(line)) > 2 * OVER_WORDS:
                    break  # running text under it: a heading, not a label over its figure
                if re.match(r"[^\S\n]*[a-z]", line):
                    break  # the label goes on ("... unitholders" / "at the beginning of the year 230,238,630"): another row
                figure = _A_FIGURE.search(_DATE.sub(lambda d: " " * len(d.group(0)), line))
                if figure is not None:
                    end = at + 1 + figure.end()
                    return m.start() + len(m.group(0)) - len(m.group(0).lstrip()), end + (text[end: end + 1] == "%")
                if nl < 0:
                    break
                at = nl
    return None


COLUMN_ABOVE = 10  # lines above a row its column's heading may be printed on (a wrapped header)


def row_under_column(text: str, labels: list[str]) -> tuple[int, int] | None:
    """A Chinese item asked as a row's name and a column's ("口蹄疫疫苗销售量": the row 口蹄疫疫苗 of a table whose header
    prints 销售量): the span from the header line naming the column to the end of the row ("... 生产量 销售量 库存量 ..." /
    "口蹄疫疫苗 万毫升 87,584.48 77,315.13 12,089.20 ..."), or None. Each reader sees which column is which."""
    for label in labels:
        if not CJK.search(label):
            continue
        for cut in range(2, len(label) - 1):
            row, column = label[:cut], label[cut:]
            for m in re.finditer(rf"(?m)^[^\S\n]*{re.escape(row)}[^\S\n]+(?:[^\d\s]{{1,4}}[^\S\n]+)?-?\d[\d,]*(?:\.\d+)?[^\n]*", text):
                lines_above = text[: m.start()].split("\n")[-COLUMN_ABOVE - 1: -1]
                heads = [i for i, line in enumerate(lines_above) if column in line and not _A_FIGURE.search(line)]
                if heads:
                    top = m.start() - sum(len(x) + 1 for x in lines_above[heads[-1]:])
                    return top, m.end()
    return None


def _in_chinese_column(text: str, labels: list[str]) -> tuple[int, int] | None:
    """A Chinese label and its figure in the Chinese column of a page printed in English and Chinese side by side
    (``router.bilingual_lines``), as the span of the page from the label to the figure; None elsewhere."""
    def own(column: str, chinese: list[str]) -> tuple[int, int] | None:
        span = figure_span(column, chinese)
        return span if span and own_row(column, span, chinese) else None

    return column_span(text, labels, own)


# a sentence or a line: ends at 。 ; a line break, or a full stop before a capital ("U.S." and "1.5" end none)
_SENTENCE_END = re.compile(r"[。;；\n]|(?<=[a-z)]{2}\.)\s+(?=[A-Z(])")
# how an amount is asked: "how much", 多少, "what was / is ..."; a bare phrase ("H100 average selling price FY24")
_AMOUNT_CUE = re.compile(r"\bhow\s+(?:much|many)\b|多少|几何|\bwhat\s+(?:was|were|is|are)\b|\b(?:amount|figure|value)\b", re.I)
_QUESTION_WORD = re.compile(r"\b(?:what|which|how|why|who|when|where|did|does|do|is|are|was|were|can|could|should|"
                            r"describe|explain|list|tell|give|show)\b|[?？]|什么|哪|怎|如何|为什么|是否|吗", re.I)
# a figure: not a year, not a form's or an item's number ("10-K", "(4)")
_A_FIGURE = re.compile(r"(?:(?<![\w.(])|(?<=rmb|hkd|usd|cny|sgd)|(?<=hk\$|us\$)|(?<=s\$))(?!(?:19|20)\d\d(?![\d,.]))\$?"
                       r"\d[\d,]*(?:\.\d+)?(?![\w-])")


def asks_amount(plan: QueryPlan) -> bool:
    """Does the question ask for an amount ("how much", 多少, "what was the ..."; or name the item alone), not for
    what a filing says ("What risks does X describe", "Why did ...")?"""
    text = fold(plan.question)
    if words("narrative").search(text):
        return False
    return bool(_AMOUNT_CUE.search(text)) or not _QUESTION_WORD.search(text)


def topic_words(plan: QueryPlan) -> list[str]:
    """What a sentence about the line item names: the label's words (Latin, three letters or more, not a question
    word), or two-character runs of its Chinese (a report words it its own way: 每股派现金 is printed 每10股派发现金)."""
    label = (topic_labels(plan) or [""])[0]
    if CJK.search(label):
        return [label[i: i + 2] for i in range(max(len(label) - 1, 1))]
    return [w for w in re.findall(r"[a-z][a-z&'’-]{2,}", label) if not _ASKING.fullmatch(w)]


def prints_a_figure(text: str, plan: QueryPlan) -> bool:
    """Does a sentence (or table line) of ``text`` that names the line item print a figure (not a year)? Passages
    that only mention it ("average selling prices may decline") give no amount. A page in another language than
    the question's is not judged by the question's words (True)."""
    words_ = topic_words(plan)
    if not words_ or bool(CJK.search(words_[0])) != bool(CJK.search(text)):
        return True
    text = simplified_in_place(re.sub(r"(?<=[\u4e00-\u9fff])\n(?=[\u4e00-\u9fff])", "", text))  # Chinese runs on
    # Chinese: one run of the label; English: its head (the last word) and one more of its words
    need = 1 if CJK.search(words_[0]) else min(2, len(words_))
    head = "" if CJK.search(words_[0]) else words_[-1]
    lower = text.casefold()
    for sentence in _SENTENCE_END.split(lower):
        if head in sentence and sum(w in sentence for w in words_) >= need and _A_FIGURE.search(sentence):
            return True
    return False

