"""A line item the vocabulary has no metric for ("dividend income", 个人贷款余额, 信贷成本): an amount question about it
is answered by the row or sentence that prints it with its figure: the question's topic words as a label, a number
right after them (the printed-figure rules of ``router.fallback``), in a report of the asked period, quoted whole
with its page. Nothing else is taken for it; without such a row the answer is the passages search finds."""

from __future__ import annotations

import re
from collections.abc import Callable

from mappings.analysis import analysis
from mappings.metrics import CJK
from mappings.vocabulary import fold, words
from router.fallback import figure_filters, figure_span, labels_of, row_passage
from router.search_words import content_query
from schema.models import Passage, QueryPlan

ITEMS_EACH = 3  # rows quoted per company
# words of a question that ask for the amount, not what it is of
_ASKING = re.compile(r"\b(?:what|was|were|is|are|the|a|an|how|much|many|did|does|do|for|of|in|at|on|as|to|by|its|their|"
                     r"amount|value|figure|reported|report|year|years|ended|ending|end|fiscal|period|quarter|"
                     r"annual|approximately|about)\b|[?？。，,]", re.I)
_ASKING_ZH = re.compile(r"(?:是多少|为多少|有多少|多少|几何|是什么|多大|情况|如何|怎么样|的)$")
_TAIL_ZH = re.compile(r"(?:余额|金额|总额|规模|数额|水平|账面余额|账面价值)$")


def topic_labels(plan: QueryPlan) -> list[str]:
    """The label the question's topic words would print as, longest reading first ("个人贷款余额", "个人贷款"): a run
    of two words or more, or four Chinese characters or more; none without such a run."""
    text = content_query(plan)
    if CJK.search(text):
        run = max(re.findall(r"[\u4e00-\u9fff]+", text), key=len)
        while _ASKING_ZH.search(run):
            run = _ASKING_ZH.sub("", run)
        bare = re.sub(r"(?:业务)?(?:板块|分部)", "", run)  # 临床试验技术服务板块收入 is printed 临床试验技术服务收入
        labels = [run, _TAIL_ZH.sub("", run), bare, _TAIL_ZH.sub("", bare)]
        return [w for w in dict.fromkeys(labels) if len(w) >= 4]
    runs = [r.strip() for r in _ASKING.split(text.casefold())]
    runs = [re.sub(r"[^\w&'’ -]", " ", r).strip() for r in runs if r.strip()]
    run = max(runs, key=len, default="")
    run = re.sub(r"\s+", " ", run)
    labels = [run, re.sub(r"^total ", "", run)]  # "total deposits" is printed "Total deposits" or "Deposits"
    return [w for w in dict.fromkeys(labels) if len(w.split()) >= 2]  # one word names many rows ("Deposits" at fair value)


def asks_line_item(plan: QueryPlan) -> bool:
    """An amount question (or a bare phrase: "X dividend income FY2021") about one company with no metric of the
    vocabulary named."""
    asks = analysis().amount_question.search(plan.question) or not words("narrative").search(fold(plan.question))
    return not plan.metrics and not plan.non_gaap and len(plan.companies) == 1 and bool(asks) and bool(topic_labels(plan))


# between a row's label and its first figure: spacing, a currency, a note reference or a linking word, nothing that
# makes the label part of another item ("Total deposits in U.S. offices 1,895,995" is not total deposits)
_GAP = re.compile(r"[\s:：$¥￥()（）\-–—,，、/]*(?:(?:hk\$?|us\$?|s\$?|rmb|hkd|usd|cny|人民币|港币|港元|约|約|approximately|about|"
                  r"was|were|amounted\s+to|of|losse?s?|charges?|expenses?|net|为|為|达|達|note\s*\d+|附注\s*\d+)[\s:：$()（）,，]*)*", re.I)
_LINE_HEAD = re.compile(r"[\s•●■◆▪·\-–—*]*(?:\(?[a-z0-9ivx]{1,4}[.)）]\s*)?(?:[（(]?[一二三四五六七八九十]+[、)）]\s*)?$", re.I)


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
    heads_row = bool(_LINE_HEAD.fullmatch(before)) or bool(CJK.search(label) and re.search(r"[，,。：:；;]\s*$", before))
    # a sentence names it ("dividend income was", "...的临床试验技术服务收入为"); in Chinese the label is not the tail of a
    # longer term (新兴业务毛利率 is not 业务毛利率)
    whole_word = not CJK.search(label) or not CJK.search(before[-1:]) or before.endswith("的")
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
            elif len(label) >= 3:
                out += [f"{word} {label}", f"{label} {word}"]
    return sorted(dict.fromkeys(w.casefold() for w in out), key=len, reverse=True)


def line_item_passages(searcher: Callable, plan: QueryPlan, labels: list[str] | None = None) -> list[Passage]:
    """The rows (or sentences) of the asked period's reports that print the question's line item (or ``labels``)
    with its figure, each quoted from the start of its line to the end of the row."""
    labels = labels or topic_labels(plan)
    filters = figure_filters(plan)
    evidence = searcher(plan, filters, whole=True)
    if filters.get("fiscal_period") and getattr(evidence, "widened", None):
        return []  # found only outside the asked period's reports
    out = []
    for p in evidence:
        span = figure_span(p.text, labels)
        if span is None or not own_row(p.text, span, labels):
            continue
        out.append(row_passage(p, span))
        if len(out) >= ITEMS_EACH:
            break
    return out
