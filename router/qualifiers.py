"""The words around a metric's name in a question that make it another figure than the metric: a non-GAAP qualifier
before it ("adjusted EBITDA", 经调整净利润: :func:`qualified_at`), a part of the company's figure before it ("services
revenue", "Apple Greater China net sales", 境外收入, 罐式集装箱毛利率: :func:`part_of`), or words after it ("goodwill
impairment", "revenue from US customers", "gross margin on X products": :func:`part_after`). The vocabularies are in
``mappings/vocabulary.yaml`` (``measures.non_gaap``, ``measures.part_of``). Positions are in :func:`normalised` text."""

from __future__ import annotations

import re

from mappings.vocabulary import (fold, generic_company_words, legal_form_words, longest_first, non_gaap_words,
                                 not_company_words, never_in_a_part_zh, part_after_words, part_fillers_zh, part_nouns, part_words,
                                 place_words, whole_words_zh)

_CJK = re.compile(r"[\u4e00-\u9fff]")


def normalised(text: str) -> str:
    """The question as spans are found in it: folded, case-folded, "R & D" as R&D, single spaces."""
    text = re.sub(r"(?<=[a-z])\s*&\s*(?=[a-z])", "&", fold(text).casefold())  # "R & D" is R&D
    return re.sub(r"\s+", " ", text).strip()


NON_GAAP_GAP = 2  # words a qualifier may stand before the metric it qualifies ("adjusted diluted EPS", "core net income")


def qualified_at(question: str, start: int) -> tuple[str, int] | None:
    """The non-GAAP qualifier ("adjusted", "core", 经调整) right before a metric mention, if any, and where it starts (in :func:`normalised` text): a part
    may stand before it ("Flexibles segment adjusted EBIT")."""
    text = normalised(question)
    for m in non_gaap_words().regex.finditer(text[:start]):
        between = text[m.end():start]
        if len(re.findall(r"[A-Za-z0-9&]+", between)) <= NON_GAAP_GAP and not re.search(r"[,;.?!，；。]", between) \
                and (not _CJK.search(between) or len(between.strip()) <= 4):
            return m.group(0), m.start()
    return None


PART_WORDS_EN = 4  # words of an English part's name read before the metric ("foundation and site formation works")
_JOINS = frozenset({"and", "&"})  # inside a part's name, never at its start
_LAST_WORD = re.compile(r"([a-z][a-z0-9&.'’\-]*)\s*$")
_NO_PART = re.compile(r"^(?:fy|q[1-4]|h[12]|\d)")


def part_of(question: str, start: int, named: list[tuple[int, int]], flow: bool = True,
            companies_at: list[tuple[int, int]] = (), own_names: frozenset[str] = frozenset()) -> str | None:
    """The word right before a metric mention that narrows it to a part of the company's figure ("services
    revenue", "bitcoin revenue", 境外业务收入), if any: in English a word that is not a company's name, a period,
    another metric or one of ``measures.part_of.not_a_part``; in Chinese one of its ``markers`` ending the words
    before it, or (``flow``: a metric of a period, not a balance) the words left between the names and the metric
    (:func:`_unmarked_part`). ``named`` are the spans of the question (normalised) that name companies, periods and
    metrics."""
    text = normalised(question)
    plain, markers = part_words()
    # a name in brackets right before the metric is an aside of the part's ("测试业务（WuXi Testing）收入")
    before = re.sub(r"\s*[（(][^()（）]{1,40}[)）]\s*$", "", text[:start])
    if _CJK.search(before.rstrip()[-1:] or ""):  # Chinese words before an English metric ("Apple 大中华区 revenue")
        before = before.rstrip()
    if _CJK.search(before[-1:] or "") or before.endswith("的"):
        # an English name in brackets inside the part's Chinese words is an aside of it ("游戏（gaming）业务收入")
        before, named = _without_asides(before, named)
        m = markers.search(whole_words_zh().sub("", re.sub(r"的$", "", before)))  # (分部总收入: the part's total)
        if m is None:
            return _unmarked_part(before, named) if flow else None
        if any(a < m.end() and m.start() < b for a, b in named):
            return None
        # 小分子cdmo业务, 临床试验技术服务, "Pharmacy Services 分部"
        head = re.search(r"(?:[\u4e00-\u9fff]|[a-z0-9&]+[^\S\n]?)*$", before[: m.start()])
        start_at = max([head.start(), *(b for a, b in named if b <= m.start())])  # not a company's or period's words
        lead, _tail = part_fillers_zh()
        words_zh = _after_asking(_LATIN_ASKING.sub("", before[start_at: m.start()].strip()))
        while len(lead.sub("", words_zh)) != 1 and words_zh != (words_zh := lead.sub("", words_zh)):
            pass  # 公司全年临床试验技术服务: 临床试验技术服务 (a filler never leaves one character: 家电 is no 家 + 电)
        return words_zh + m.group(0)
    words_: list[str] = []
    nouns = part_nouns()
    while len([w for w in words_ if w not in nouns and w not in _JOINS]) < PART_WORDS_EN \
            and (m := _LAST_WORD.search(before)) is not None and not any(a < m.end(1) and m.start(1) < b for a, b in named):
        word = re.sub(r"['’]s?$", "", m.group(1)).strip(".")
        if (word in _BASIS or word in _SCOPE) and not words_:  # "FLNA reported operating profit", "DARZALEX worldwide
            before = before[: m.start(1)]  # sales": the basis or scope it is asked on, the part before it
            continue
        if word in _JOINS and words_ and words_[0] not in _JOINS:  # "Missiles and Fire Control", "Space & Security"
            words_.insert(0, word)
            before = before[: m.start(1)]
            continue
        named_part = bool(words_) and words_[0] in nouns  # "International segment", "China business"
        # a place names a part ("Europe turnover"); after the company's name a generic word of legal names that is a
        # place does too ("Apple Greater China net sales"); a legal form or a word of its own names never does
        # ("Wisdom Education International revenue")
        place = word not in legal_form_words() and word not in own_names and (word in place_words() or (
            word in generic_company_words() and any(b <= m.start(1) for a, b in companies_at)))
        # a comparison word that begins a place's name is the place's ("Greater China" is no "greater")
        of_place = place and bool(words_) and words_[0] in place_words()
        if word not in nouns and (len(word) < 3 and not place or word in plain and not of_place or _NO_PART.match(word) or (
                not named_part and not place and (word in not_company_words() or word in generic_company_words()))):
            break
        words_.insert(0, word)
        before = before[: m.start(1)]
    while words_ and (words_[0] in nouns or words_[0] in _JOINS):  # "... segment revenue" names no part by itself
        words_.pop(0)
    return " ".join(words_) or None


_BASIS = frozenset({"reported", "as-reported", "gaap", "us-gaap", "unadjusted"})  # the basis a figure is asked on
_SCOPE = frozenset({"worldwide", "global", "ww", "total", "overall"})  # the scope a part's figure is asked over
_ASIDE = re.compile(r"[（(][a-z][a-z0-9 &.'’-]{0,38}[)）](?=[\u4e00-\u9fff])")


def _without_asides(before: str, named: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """The text without the English asides in brackets between Chinese words, and the named spans moved with it."""
    out, spans = before, list(named)
    for m in reversed(list(_ASIDE.finditer(before))):
        out = out[: m.start()] + out[m.end():]
        size = m.end() - m.start()
        spans = [(a - size if a >= m.end() else a, b - size if b >= m.end() else b) for a, b in spans]
    return out, spans


# a question's English words before a Chinese part ("what is the 境外业务收入", "药明康德's 境外"): no part's words
_LATIN_ASKING = re.compile(r"^(?:(?:[a-z0-9&]|what|which|how|much|many|is|was|were|are|did|does|do|the|of|for|in|on|its|"
                           r"their|from|at|by|to|and)(?:\s+|$))+")


def _after_asking(run: str) -> str:
    """The Chinese words after the last word of the question's asking (管理层如何解释境外: 境外): a part's name never holds
    how, why or explain (``measures.part_of.never_in_a_part_zh``)."""
    last = None
    for last in never_in_a_part_zh().finditer(run):
        pass
    return run[last.end():] if last else run


def _unmarked_part(before: str, named: list[tuple[int, int]]) -> str | None:
    """A Chinese part without a marker word: a product or line named right before the metric (罐式集装箱毛利率): the
    Chinese words after the last company or period name, less those at either end that narrow nothing
    (``measures.part_of.not_a_part_zh``: 公司, 全年, 实现 ...); two characters or more."""
    start_at = max([0, *(b for a, b in named if b <= len(before))])
    run = _after_asking(re.search(r"[\u4e00-\u9fff]*$", before[start_at:]).group(0))
    head, tail = part_fillers_zh()
    periods_off = run
    while periods_off != (periods_off := tail.sub("", periods_off)) and not whole_words_zh().search(periods_off):
        pass
    if whole_words_zh().search(periods_off) or whole_words_zh().search(run):
        return None  # the whole is asked (全年整体收入, 总体毛利率): what comes before it is no part
    while True:  # (a filler at the head never leaves one character: 家电 is no 家 + 电; at the end it may: 谁的, 各季度)
        lead_off = head.sub("", run)
        new = tail.sub("", run if len(lead_off) == 1 else lead_off)
        if new == run:
            break
        run = new
    return run if len(run) >= 2 else None


# between a metric and what narrows it, the verb of a question put the other way round ("how much revenue did Ri Ying
# earn from its consultancy business", "the revenue that Apple generated from services")
_EARNED = re.compile(r"\s*(?:[\w.&'’()（）,，-]+\s+){0,9}?(?:earn|earned|earns|generate|generated|generates|make|made|makes|"
                     r"recogni[sz]e|recogni[sz]ed|post|posted|achieve|achieved|derive|derived|derives|record|recorded|"
                     r"records|book|booked|books|receive|received|receives|get|got|gets|produce|produced|produces|"
                     r"contribute|contributed|contributes|deliver|delivered|delivers|report|reported|reports|"
                     r"(?:bring|brought|brings|rack|racked|ring|rang)\s+(?:in|up))\s+", re.I)


# a figure of one deal ("goodwill recorded for the SRS acquisition", "revenue from acquired businesses"), anywhere
# after the metric in the question
_DEAL = re.compile(r"\b(?:for|from|on|of|in|related\s+to|arising\s+(?:from|on)|in\s+connection\s+with|associated\s+with|"
                   r"attributable\s+to)\s+(?:the\s+|its\s+|our\s+|their\s+)?(?:[\w.&'’/-]+\s+){0,4}?(?:acquisitions?|"
                   r"acquired\s+(?:businesses|companies|entities)|mergers?|business\s+combinations?)\b")


def _subject_part(between: str) -> str | None:
    """The part that is the subject of the verb after a metric ("[operating income] did Boeing's defense business
    generate", "[revenue] did the Domestic segment earn"): its words up to its part noun, without the company's
    possessive name before them."""
    nouns = "|".join(re.escape(n) for n in longest_first(part_nouns()))
    hit = re.match(rf"\s*(?:did|does|do|has|have|had|will|would)\s+(?:(?:[\w.&-]+\s+){{0,3}}[\w.&-]+['’]s\s+|the\s+|its\s+|"
                   rf"their\s+|our\s+)?((?:[\w.&/-]+\s+){{1,4}}?(?:{nouns}))\s+[a-z]+(?:\s+(?:in|up))?\s*$", between)
    if hit:
        return hit.group(1)
    # after the company's possessive name, any words are its part ("did Best Buy's Yardbird stores generate")
    hit = re.match(r"\s*(?:did|does|do|has|have|had|will|would)\s+(?:[\w.&()（）,，-]+\s+){0,4}?[\w.&)）-]+['’]s\s+"
                   r"((?:[\w.&/-]+\s+){0,3}?[\w.&/-]+)\s+[a-z]+(?:\s+(?:in|up))?\s*$", between)
    return hit.group(1) if hit else None


# "for X" / "by X" right after a metric (or after "breakdown", "split", "mix"): X is a part ("net sales for iPhone",
# "operating income for Sam's Club", "revenue by segment") unless it is a company, a period or generic words
_FOR_BY = re.compile(r"\s*(?:(?:breakdown|split|mix|details?)\s+)?(for|by)\s+((?:the\s+|its\s+|our\s+)?[\w.&'’/-]+"
                     r"(?:\s+(?!(?:in|for|during|over|through|of|at|as|from|to|than|compared|versus|vs|between|"
                     r"ended|ending)\b)[\w.&'’/-]+){0,6})")
_GENERIC = re.compile(r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|each|every|all|both|latest|past|next|"
                      r"coming|comparable|corresponding|reporting|financial|calendar|year-to-date|[a-z]+-months?|"
                      r"periods?|months?|weeks?|days?|years?|quarters?|halves|half|fy\d*|q[1-4]|h[12]|\d+[mq])$")


def _for_part(rest: str, at: int, end: int, named: list[tuple[int, int]]) -> str | None:
    """The part named by "for X" / "by X" at ``at`` of ``rest`` (the question after a metric ending at ``end``)."""
    hit = _FOR_BY.match(rest, at)
    if hit is None:
        return None
    a, b = end + hit.start(2), end + hit.end(2)
    owner = next((y for x, y in named if x == a and re.match(r"['’]s\s", rest[y - end:])), None)
    if owner is not None:  # "for Ri Ying's foundation works": the company's part
        a = owner + len(re.match(r"['’]s\s+", rest[owner - end:]).group(0))
    if any(x <= a < y for x, y in named):
        return None  # a company or a period ("revenue for Apple", "revenue for fiscal 2023")
    cut = min([x for x, _ in named if a < x < b] + [b])  # the words up to a name after them ("for iPhone fiscal 2023")
    part = rest[a - end: cut - end].strip()
    never = part_words()[0]
    words_ = [w for w in re.findall(r"[\w.&'’/-]+", part) if w not in never and not _GENERIC.fullmatch(w)]
    if not words_ or words_[-1] in ("company", "group", "firm", "business", "period"):
        return None
    return f"{hit.group(1)} {part}"


def part_after(question: str, end: int, companies: list[tuple[int, int]] = (),
               names: list[tuple[int, int]] = ()) -> str | None:
    found = _part_after(question, end, companies, names)
    return " ".join(found.split()) if found else found


def _part_after(question: str, end: int, companies: list[tuple[int, int]] = (),
                names: list[tuple[int, int]] = ()) -> str | None:
    """The words right after a metric mention that make it another figure ("goodwill impairment", "EPS from
    continuing operations") or name a part of it, if any (``measures.part_of.after`` and ``after_parts``, a part as
    the subject of a verb after it, one deal's figure, "for X" / "by X"); ``companies``: where the companies are named
    (words that end in one are its name: "... margin of International Business Machines" is IBM's margin); ``names``:
    where anything is named (companies, periods, metrics), none of which is a part after "for"."""
    # (a name in brackets inside the words is an aside: "on its immunology (免疫类) products"; blanked, so that
    # positions stay those of the question)
    rest = re.sub(r"[（(][^()（）]{1,40}[)）]", lambda a: " " * len(a.group(0)), normalised(question)[end:])
    m = _EARNED.match(rest) or re.match(r"\s*", rest)  # "revenue did X earn from ..." reads as "revenue from ..."
    # "operating income did Boeing's defense business generate" (an aside in brackets after the part left out:
    # "did X's polyresin series (home decor products) generate")
    subject = _subject_part(re.sub(r"\s*[（(][^()（）]{1,60}[)）]", "", rest[: m.end()]))
    if subject:
        return subject
    hit = part_after_words().regex.match(rest, m.end())
    if hit is None:
        deal = _DEAL.search(rest, m.end())  # "goodwill ... for the SRS acquisition": that deal's figure
        return deal.group(0).strip() if deal else _for_part(rest, m.end(), end, list(names) or list(companies))
    # a name the words end in is the company's; a part may hold it ("net sales generated by the Walmart International
    # segment")
    if any(a < end + hit.end() <= b for a, b in companies):
        return None
    # a company's possessive name inside them is whose part it is ("segment results of Water Oasis's product
    # segment": the product segment)
    for a, b in companies:
        own = re.match(r"['’]s?\s+", rest[b - end:]) if end + hit.start() <= a and b < end + hit.end() else None
        if own:
            lead = re.match(r"\s*(?:from|of|for|in|by|at)\s+(?:the\s+)?", hit.group(0))
            return (lead.group(0) if lead else "") + rest[b - end + own.end(): hit.end()]
    return hit.group(0)


_LINK_WORDS = re.compile(r"^(?:(?:generated|earned|contributed|derived|attributable|attributed|coming|came|recorded|"
                         r"reported)\s+)?(?:(?:from|on|of|for|in|by|to)\s+)?(?:(?:the|its|our|their)\s+)?")
_LINK_ZH = re.compile(r"^(?:(?:其中|当中|之中|中)?(?:来自于?|源自|来源于|产生自)|(?:里|中|当中|之中|其中)的?)|的$")


def part_name(qualifier: str) -> str:
    """A part's name without the words that linked it to the metric in the question ("from the consultancy
    business" -> "consultancy business", 来自美国客户的 -> 美国客户), case-folded."""
    q = _LINK_WORDS.sub("", qualifier.casefold().strip())
    return _LINK_ZH.sub("", q) or q

