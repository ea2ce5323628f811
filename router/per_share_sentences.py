"""A per-share figure printed in a sentence rather than on a row: the words before it, the figure, and "per share"
after it ("Our annual common stock dividend was $1.48 per share", "making the full-year dividend 22.0 HK cents (2020:
6.0 HK cents) per share"). The words are data (``measures.per_share_sentences`` in mappings/vocabulary.yaml).

Not read as the year's figure: a part of it (a final, interim, special or quarterly dividend), a figure converted or
looked ahead to ("equivalent to a full year dividend of $1.56 per share in 2018"), a change ("increased our
quarterly dividend by 5 percent"), a preferred stock's dividend."""

from __future__ import annotations

import re

from mappings.vocabulary import per_share_sentence_words
from router.fallback import LABEL_NUMBER_WINDOW, figure_span_number, of_other_year, sentence_start
from router.periods import years_named

# a part of the year's figure, or one converted or looked ahead to, when these stand right before the words
_NOT_THE_YEARS = re.compile(r"(?:final|interim|special|quarterly|quarter|monthly|semi-annual|first|second|third|fourth|"
                            r"equivalent\s+to\s+a|末期|中期|特别|特別|季度)(?:\W{1,3}(?:cash|ordinary|common))?\W{0,3}$", re.I)
# a part of the year named after the figure ("$0.39 per share each quarter", "for the six months ended")
_PART_OF_YEAR_AFTER = re.compile(r"[^.;。；]{0,40}?\b(?:each|per|a|every)\s+quarter\b|[^.;。；]{0,40}?\b(?:six|three|nine)\s+months\b|"
                                 r"[^.;。；]{0,40}?\b(?:first|second)\s+half\b|[^.;。；]{0,40}?\binterim\b", re.I)
# "per share" after the figure, with its unit and a comparative in brackets between ("22.0 HK cents (2020: 6.0 HK
# cents) per share")
_PER_SHARE_AFTER = re.compile(r"\s*(?:hk|us|rmb|s)?\s*(?:cents?|仙|dollars?)?\s*(?:[(（][^()（）]{0,40}[)）]\s*)?"
                              r"(?:per|a|each)\s+(?:ordinary\s+|common\s+)?share\b", re.I)
# the years the sentence gives its figures for ("$1.48 per share, $1.40 per share and $1.32 per share in 2017, 2016 and
# 2015", "$1.56 per share in 2018"): the first figure is the first year's
_YEARS_AFTER = re.compile(r"(?:[^.;。；]|\.(?=\d)){0,80}?\b(?:in|for)\s+(?:fiscal\s+(?:years?\s+)?)?((?:19|20)\d\d)\b", re.I)


# a preferred stock's dividend ("redeemable preferred stock ... A cumulative dividend of $0.10 per share"): not the
# common shares' the metric is, when named in the sentence or the one before it
_PREFERRED = re.compile(r"\bpreferred\b|\bpreference\s+shares?\b|优先股|優先股")
PREFERRED_BEFORE = 200  # characters before the words read for a preferred stock's name


# an A-share profit distribution's cash dividend for every ten shares ("拟向全体股东每10股派发现金红利0.3元（含税）"),
# quoted as printed: the figure is ten shares'
# (one "合计" for the year, after an interim's and the final's, is the year's whole: read first)
_PER_TEN_SHARES = re.compile(r"每\s*10\s*股\s*(合[计計]\s*)?派(?:发|發|送)?(?:现金|現金)?(?:红利|紅利|股利|股息)?\s*(?:人民币|人民幣)?\s*"
                             r"\d+(?:\.\d+)?\s*元(?:\s*[（(]含税[)）])?")


def per_share_sentence_span(text: str, metric: str, years: frozenset[int] = frozenset()) -> tuple[int, int] | None:
    """(start, end) of "<words> ... <figure> per share" for ``metric``, or None. When the sentence names the years of
    its figures, the first figure is the first year's: read only when that is one of ``years`` (the years asked). An
    A-share report's dividend for every ten shares is read as printed, from its sentence's start."""
    tens = sorted(_PER_TEN_SHARES.finditer(text), key=lambda m: m.group(1) is None) if metric == "dividends_per_share" else []
    for ten in tens:
        # the year whose profit it distributes ("2018年年度股东大会", "2019年度利润分配预案"): none other than those asked
        if not of_other_year(text, ten.start(), years):
            return sentence_start(text, ten.start()), ten.end()
    lower = text.casefold()
    for word in per_share_sentence_words().get(metric, []):
        pattern = r"(?<![\w&-])" + re.escape(word).replace(r"\ ", r"[\s-]+") + r"(?![\w&-])"
        for m in re.finditer(pattern, lower):
            if _NOT_THE_YEARS.search(lower[max(0, m.start() - 25): m.start()]):
                continue
            n = figure_span_number(text, m.end(), LABEL_NUMBER_WINDOW)
            if n is None:
                continue
            between = text[m.end(): n]
            if between.count("(") + between.count("（") > between.count(")") + between.count("）"):
                continue  # a comparative in brackets ("any dividend for the year (2020: HK$0.05 per share)")
            if years and years_named(between) - years:
                continue  # another year's ("Dividends paid in 2019 were $1.32 per share")
            after = _PER_SHARE_AFTER.match(text, n)
            if after is None:
                continue
            if _PART_OF_YEAR_AFTER.match(text, after.end()) or _PREFERRED.search(lower, max(0, m.start() - PREFERRED_BEFORE),
                                                                                   after.end()):
                continue
            named = _YEARS_AFTER.match(text, after.end())
            if named is None or not years or int(named.group(1)) in years:
                start = max(text.rfind("\n", 0, m.start()), text.rfind(". ", 0, m.start()) + 1, 0)
                return start + (text[start] in "\n "), after.end()
    return None
