"""Question -> QueryPlan: companies, periods, metrics, intent and route, by small rules over data
(mappings' aliases, the company master in the warehouse). No model, no network."""

from __future__ import annotations

import re
from functools import lru_cache

import duckdb

from mappings.metrics import PERIOD_WORDS, display_name, metrics, question_labels, ratios, share_ratio
from mappings.vocabulary import (ambiguous_metric_words, bare_metric_words, fold, income_kind, market_measure_words,
                                 not_company_words, part_metric_words, readings, summed_with_words,
                                 section_words, standard_words, words)
from router.calendar import company_named
from router.entities import LATIN_AFTER, LATIN_BEFORE, Lexicon, build_lexicon, find_companies, unknown_peer
from router.periods import cn_numerals, find_periods, resolve
from router.qualifiers import normalised as _norm
from router.qualifiers import part_after, part_of, qualified_at
from schema.models import PeriodRef, QueryPlan
from warehouse import lookup
from warehouse.fiscal_labels import label_offsets

_CJK = re.compile(r"[\u4e00-\u9fff]")


@lru_cache(maxsize=1)
def metric_lexicon() -> list[tuple[str, str]]:
    """(alias as matched, metric or ratio id), longest alias first."""
    out: dict[str, str] = {}
    for m in metrics().values():
        for a in (m.name_zh, *m.aliases):
            out.setdefault(_norm(a), m.id)
    # a share made for a question (``mappings.metrics.share_ratio``, "generated") is read from its two metrics' names,
    # never from names of its own: the lexicon is the same whatever was asked before
    listed = {rid: spec for rid, spec in ratios().items() if not spec.get("generated")}
    for rid, spec in listed.items():
        for a in (spec.get("name_zh"), *spec.get("aliases", [])):
            if a:
                out[_norm(a)] = rid  # a ratio alias wins over a metric alias ("gross margin")
    # ids and display names last: explicit aliases decide ("net income" is the parent's, as in us-gaap)
    for m in metrics().values():
        for a in (m.id.replace("_", " "), m.name_en):
            out.setdefault(_norm(a), m.id)
    for rid, spec in listed.items():
        for a in (rid.replace("_", " "), spec.get("name_en")):
            if a:
                out.setdefault(_norm(a), rid)
    for label, mid in question_labels().items():  # what the statements print, where no alias says otherwise
        out.setdefault(_norm(label), mid)
    for word in ambiguous_metric_words():  # bare words too ambiguous to name a metric on their own
        out.pop(word, None)
    for alias, (mid, _note) in readings().items():  # EBIT: one reading, stated in the answer
        out[_norm(alias)] = mid
    return sorted(out.items(), key=lambda kv: -len(kv[0]))


@lru_cache(maxsize=1)
def _alias_patterns() -> list[tuple[str, str, re.Pattern]]:
    """:func:`metric_lexicon` with each alias's pattern compiled once (Latin aliases whole-word, any whitespace)."""
    return [(alias, mid, re.compile(re.escape(alias)) if _CJK.search(alias) else
             re.compile(LATIN_BEFORE + re.escape(alias).replace(r"\ ", r"\s+") + LATIN_AFTER))
            for alias, mid in metric_lexicon()]


def _names_metric(text: str) -> bool:
    """Does a text name a metric or ratio (one of its aliases)?"""
    norm = _norm(text)
    return any(pattern.search(norm) for _, _, pattern in _alias_patterns())


# A parenthetical aside of two words or more ("depreciation and amortization (D&A from cash flow statement) %
# margin"): a metric's words are read around it first, and then inside it.
_ASIDE = re.compile(r"\((?=[^()]*\s)[^()]*\)")


def _weight(alias: str) -> int:
    """How much of a question an alias claims when names overlap: its length without its period words."""
    return len(PERIOD_WORDS.sub("", alias).strip())


# words that turn an amount into another measure: "net assets per share", 每股资产净值, "total gross margin percentage"
_AMONG = re.compile(r"\s*(?:中|当中|之中|里|里面|內|内)(?![国])|\s*,?\s*of\s+which\b")  # a whole, then a part of it
_OTHER_ITEM = re.compile(r"(?:其他|其它|其余)$")  # "other X": another line item than X
_AMOUNT_BECOMES_ANOTHER = (re.compile(r"^\s*(?:per share|percentage|%|ratio|rate|率|占比|比率)"), re.compile(r"每股$"))


def _not_the_amount(text: str, span: tuple[int, int], mid: str) -> bool:
    """Is a money metric's name here part of another measure (a per-share figure, a percentage)?"""
    metric = metrics().get(mid)
    if metric is None or metric.kind != "money":
        return False
    after, before = _AMOUNT_BECOMES_ANOTHER
    return bool(after.match(text[span[1]:]) or before.search(text[:span[0]]))


def metric_mentions(question: str, names: list[tuple[int, int]] = ()) -> list[tuple[int, int, str, str]]:
    """(start, end, alias, metric or ratio id) of every metric the question names, in question order, on the
    normalised text (the longest alias first, weighed without its period words: :func:`_weight`; mentions
    overlapping one taken, or a company's name in ``names``, are not counted: 金花股份回购股份 is 金花股份 and 回购股份,
    not 股份回购). Asides are blanked
    (positions kept) for a first pass, so that the words around one join up; a second pass reads the full text."""
    text = _norm(question)
    around = _ASIDE.sub(lambda m: " " * len(m.group(0)), text)
    taken: list[tuple[int, int]] = list(names)
    found: list[tuple[int, int, str, str]] = []
    for source in (around, text):
        hits = [(m.span(), alias, mid) for alias, mid, pattern in _alias_patterns()
                if " " in alias or alias in source  # the cheap test first: an alias without a space occurs as it is
                for m in pattern.finditer(source)]
        # the longest name first, not counting its period words: "net profit attributable to shareholders" is the
        # parent's, "gross profit for the year" gross profit ("profit for the year" weighs as "profit")
        for span, alias, mid in sorted(hits, key=lambda h: (-_weight(h[1]), h[0][0])):
            if _not_the_amount(source, span, mid) or (_OTHER_ITEM.search(source[:span[0]]) and _CJK.match(alias)):
                continue  # 其他应收账款 is the other receivables, never 应收账款
            if not any(span[0] < b and a < span[1] for a, b in taken):
                taken.append(span)
                found.append((span[0], span[1], alias, mid))
        if around == text:
            break
    for pattern, mid in bare_metric_words():  # 收入 / 收益 / 溢利 standing alone ("2021年度收入")
        for m in pattern.finditer(text):
            span = m.span(1)
            if not any(span[0] < b and a < span[1] for a, b in taken):
                taken.append(span)
                found.append((span[0], span[1], m.group(1), mid))
    for pattern, mid in part_metric_words():  # right after a part's name (数据中心收入): the part's figure
        for m in pattern.finditer(text):
            span = m.span(2)
            if not income_kind(m.group(1)) and not any(span[0] < b and a < span[1] for a, b in taken):
                taken.append(span)
                found.append((span[0], span[1], m.group(2), mid))
    return _named_again(text, sorted(found))


def _bracketed(text: str, first: tuple, second: tuple) -> bool:
    """Does the second mention fill the brackets right after the first ("X (Y)", "X（Y）")?"""
    return bool(re.fullmatch(r"\s*[（(]\s*", text[first[1]: second[0]]) and re.match(r"\s*[)）]", text[second[1]:]))


def _named_again(text: str, found: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """The mentions less one followed by another metric's name that fills the brackets right after it ("cash and
    bank balances (货币资金)"): the same figure named again as the filing prints it, which is the one asked."""
    out = []
    for i, mention in enumerate(found):
        after = found[i + 1] if i + 1 < len(found) else None
        before = found[i - 1] if i else None
        if before and before[3] == mention[3] and _bracketed(text, before, mention):
            continue  # the same metric named again in brackets (息税前利润（EBIT）): one mention, the first
        # (in the other script: the filing's own label; in the same script the brackets abbreviate the name before them,
        # "return on average equity (ROE)", which is the one asked)
        if after and after[3] != mention[3] and _bracketed(text, mention, after) \
                and bool(_CJK.search(mention[2])) != bool(_CJK.search(after[2])):
            continue
        out.append(mention)
    return out


# one metric as a share of another: "研发投入占营业收入的比例", "R&D as a percentage of revenue", "the ratio of capex to
# revenue", "capex to revenue ratio"
_SHARE_ZH = (re.compile(r"^\s*(?:占|佔)\s*$"), re.compile(r"^\s*的?\s*(?:比例|比重|百分比|占比|比率)"))
_SHARE_EN = re.compile(r"^\s*(?:as\s+(?:a\s+)?(?:percentage|percent|share|proportion|fraction|%)\s+of|divided\s+by|/)\s*"
                       r"(?:(?:the|total|its|their)\s+)*$")
_SHARE_TO = re.compile(r"^\s+(?:to|over)\s+(?:(?:the|total|its|their)\s+)*$")


def shares(question: str, mentions: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """The mentions with each pair "A as a share of B" made one mention of the ratio A / B
    (:func:`mappings.metrics.share_ratio`)."""
    text = _norm(question)
    out = list(mentions)
    i = 0
    while i + 1 < len(out):
        (a0, a1, alias_a, a), (b0, b1, alias_b, b) = out[i], out[i + 1]
        between, before, after = text[a1:b0], text[:a0], text[b1:]
        share = a in metrics() and b in metrics() and (
            (_SHARE_ZH[0].match(between) and _SHARE_ZH[1].match(after)) or _SHARE_EN.match(between)
            or (_SHARE_TO.match(between) and (re.search(r"ratio\s+of\s+(?:(?:the|its)\s+)*$", before)
                                               or re.match(r"\s*ratio\b", after))))
        if share:
            out[i: i + 2] = [(a0, b1, text[a0:b1], share_ratio(a, b))]
        i += 1
    return out


# (up to six words between, a name in brackets among them: "share of Asymchem's (凯莱英) H1 2025 revenue")
_SHARE_OF_BEFORE = (re.compile(r"\b(?:percentage|percent|share|proportion|portion|fraction)\s+of\s+(?:[^\s,;:?，。；：？]+\s+){0,6}$|"
                               r"%\s+of\s+(?:[^\s,;:?，。；：？]+\s+){0,6}$"),
                    re.compile(r"[占佔][^，。,；;？?\s]{0,6}$"))


def unmade_shares(question: str, mentions: list[tuple[int, int, str, str]]) -> tuple[list, list[str]]:
    """The mentions without those that are one side of a share the question asks for whose other side is no metric
    ("staff costs as a percentage of revenue", "现金分红占归母净利润的比例", "what share of its revenues came from New
    Jersey"): such a metric is not the figure asked, and is never answered in its place. Returns (mentions kept,
    the metrics set aside)."""
    text = _norm(question)
    kept, aside = [], []
    for mention in mentions:
        start, _end, _alias, mid = mention
        if mid in metrics() and any(rx.search(text[:start]) for rx in _SHARE_OF_BEFORE):
            aside.append(mid)
        else:
            kept.append(mention)
    return kept, aside


def find_metrics(question: str) -> list[str]:
    return list(dict.fromkeys(mid for *_, mid in metric_mentions(question)))


def _spans(text: str, phrases: list[str]) -> list[tuple[int, int]]:
    """Where the phrases (company names, periods as the question wrote them) stand in the normalised text."""
    out = []
    for phrase in filter(None, (_norm(p) for p in phrases)):
        out += [(m.start(), m.end()) for m in re.finditer(re.escape(phrase), text)]
    return out


def _name_spans(question: str, companies: list) -> list[tuple[int, int]]:
    """Where the companies' Chinese names stand in the normalised text (Chinese runs a name into the words after it;
    a Latin name is a word of its own, and a ticker "COST" is no "cost")."""
    text = _norm(question)
    return [m.span() for name in filter(None, (_norm(c.matched) for c in companies)) if _CJK.search(name)
            for m in re.finditer(re.escape(name), text)]


def paired_periods(question: str, companies: list, periods: list[PeriodRef]) -> dict[str, list[int]]:
    """Each company's period when the question names them in pairs, company then period, as many of each
    ("Apple's revenue in fiscal 2024 with Nvidia's in fiscal 2025"); {} otherwise (every period for every company:
    "Apple and Nvidia revenue in 2023 and 2024")."""
    if len(companies) < 2 or len(periods) != len(companies):
        return {}
    text = fold(question).casefold()
    spots = [(text.find(c.matched.casefold()), "c", i) for i, c in enumerate(companies)]
    spots += [(text.find(fold(p.matched).casefold()), "p", i) for i, p in enumerate(periods)]
    if any(at < 0 for at, _, _ in spots):
        return {}
    spots.sort()
    if [kind for _, kind, _ in spots] != ["c", "p"] * len(companies):
        return {}
    return {companies[spots[2 * j][2]].company_id: [spots[2 * j + 1][2]] for j in range(len(companies))}


class Planner:
    """Plans questions against one warehouse (its company master and listings)."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self._lexicon: Lexicon | None = None
        self._calendars: dict[str, tuple[int, str | None]] = {}
        self._offsets: dict[str, int] | None = None

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = build_lexicon(self.con)
        return self._lexicon

    def calendar(self, company_id: str | None) -> tuple[int, str | None]:
        """(fiscal year-end month, market) of a company, read from its documents (12 when none says)."""
        if company_id is None:
            return 12, None
        if company_id not in self._calendars:
            row = self.con.execute(
                "SELECT fiscal_year_end_month FROM documents WHERE company_id = ? AND fiscal_year_end_month IS NOT NULL "
                "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", [company_id]).fetchone()
            if row is None:  # no filing of its own: the year of the filings that print its name (an umbrella fund's)
                printing = lookup.filings_printing(self.con, {"company_id": [company_id]}).get("document_id") or []
                row = self.con.execute("SELECT fiscal_year_end_month FROM documents WHERE document_id IN (SELECT unnest(?)) "
                                       "AND fiscal_year_end_month IS NOT NULL LIMIT 1", [printing]).fetchone()
            market = self.con.execute("SELECT market FROM securities WHERE company_id = ? ORDER BY market = 'HK', "
                                      "stock_code LIMIT 1", [company_id]).fetchone()
            self._calendars[company_id] = (row[0] if row else 12, market[0] if market else None)
        return self._calendars[company_id]

    def other_standard(self, question: str, companies: list) -> str | None:
        """The accounting standard a question names ("under IFRS", 按国际会计准则) when none of the named companies'
        stored figures is under it (an A-share issuer's IFRS figures are printed beside its CAS statements)."""
        text = fold(question)
        named = [(m.group(0), std) for std, phrases in standard_words().items() if (m := phrases.search(text))]
        if not named or not companies:
            return None
        held = {r[0] for r in self.con.execute(
            "SELECT DISTINCT accounting_standard FROM financial_metrics WHERE company_id IN (SELECT unnest(?))",
            [[c.company_id for c in companies]]).fetchall()}
        if not held:
            return None
        return next((word for word, std in named if std not in held
                     and not (std in ("IFRS", "HKFRS") and held & {"IFRS", "HKFRS"})), None)

    def stored_years(self, companies: list, periods: list[PeriodRef]) -> list[PeriodRef]:
        """Periods a company names by its own fiscal year ("fiscal 2022" of a January filer), with the year the
        warehouse stores them under (``PeriodRef.stored_year``), when the named companies share one naming."""
        if self._offsets is None:
            self._offsets = label_offsets(self.con)
        offsets = {self._offsets.get(c.company_id, 0) for c in companies}
        if len(offsets) != 1 or not (offset := offsets.pop()):
            return periods
        return [p.model_copy(update={"stored_year": p.fiscal_year - offset}) if p.fiscal_year and company_named(p)
                else p for p in periods]

    def plan(self, question: str) -> QueryPlan:
        question = cn_numerals(question)  # 二零二五年三月三十一日 is read as 2025年3月31日 throughout
        companies = find_companies(question, self.lexicon)  # on folded text: 藥明康德 is 药明康德
        periods, last_n = find_periods(question)
        if any(p.period_end or p.instant for p in periods):  # dates: in the company's own fiscal calendar
            periods = resolve(periods, *self.calendar(companies[0].company_id if companies else None))
        periods = self.stored_years(companies, periods)
        mentions, aside = unmade_shares(question, shares(question, metric_mentions(question, _name_spans(question, companies))))
        metric_ids: list[str] = []
        notes: list[str] = [f"a share of {display_name(mid)} is asked whose other side is no stored metric: not computed, "
                            f"and {display_name(mid)} is not answered in its place; passages quote the filing"
                            for mid in dict.fromkeys(aside)]
        if companies and (peer := unknown_peer(question, companies, self.lexicon, not_company_words(), _names_metric)):
            notes.append(f"no company in the warehouse matches {peer!r}: only "
                         f"{', '.join(c.matched for c in companies)} answered; `filings companies` lists the companies")
        non_gaap: list[tuple[str, str]] = []
        named = _spans(_norm(question), [c.matched for c in companies] + [p.matched for p in periods]) \
            + [(a, b) for a, b, _, _ in mentions] \
            + [m.span() for phrases in standard_words().values() for m in phrases.regex.finditer(_norm(question))]
        companies_at = _spans(_norm(question), [c.matched for c in companies])
        ids = {c.company_id for c in companies}  # the words of their own names are never a place after them
        own_names = frozenset(w for e in self.lexicon.names if e.company_id in ids for w in e.text.split())
        # a longer name of the company that runs into the metric's words is still its name, no part (金宇生物股份回购:
        # 金宇 matched, 生物股份 another of its names, 股份回购 the metric)
        longer = [(a, a + len(e.text)) for a, _ in companies_at for e in self.lexicon.names
                  if e.company_id in ids and _norm(question).startswith(e.text, a)]
        companies_at += longer
        named += longer
        standard = self.other_standard(question, companies)
        for start, end, alias, mid in mentions:
            if standard:  # a figure under another standard than the company's stored ones: quoted, never swapped
                non_gaap.append((standard, mid))
                notes.append(f"{alias!r} under {standard} is not stored for this company (its figures are stored under "
                             f"another standard): it is not answered with the stored {display_name(mid)}; passages "
                             "quote the filing's own figure")
                continue
            word = qualified_at(question, start)
            # (without a company named, the word may be a company the warehouse lacks: "Tencent's revenue")
            flow = mid not in metrics() or metrics()[mid].period != "instant"
            if word:  # a company-defined measure: never answered with the GAAP metric it resembles
                non_gaap.append((word[0], mid))
                notes.append(f"{word[0]} {alias!r} is a company-defined (non-GAAP) measure: it is not answered with the "
                             f"reported {display_name(mid)}; passages quote the filing's own figure")
                # a part's before it ("Flexibles segment adjusted EBIT"): the part's own figure of that measure
                if companies and (part := part_of(question, word[1], named, flow, companies_at, own_names)):
                    non_gaap.append((part, mid))
                continue
            part = part_of(question, start, named, flow, companies_at, own_names) if companies else None
            if part:  # a segment's, product's or region's figure: never answered with the company's total
                non_gaap.append((part, mid))
                notes.append(f"'{part} {alias}' is a part of the company's {display_name(mid)} (a segment, product, "
                             f"region or line): it is not answered with the total; passages quote the filing's own "
                             "figure")
                continue
            after = part_after(question, end, companies_at, named) if companies else None
            if companies and not after and not flow:  # a balance summed with others listed after it: their sum
                summed = summed_with_words().regex.match(_norm(question), end)
                after = summed.group(0).strip() if summed else None
            if after:  # "goodwill impairment", "EPS from continuing operations": another figure than the metric's
                non_gaap.append((after, mid))
                notes.append(f"'{alias}{'' if after[:1] in ',，' else ' '}{after}' is another figure than the company's "
                             f"{display_name(mid)}: it is not "
                             "answered with it; passages quote the filing's own figure")
                continue
            if _AMONG.match(_norm(question)[end:]) and any(m[3] == mid and m[0] >= end for m in mentions):
                continue  # "营业收入中来自美国客户的收入": the whole is where the part asked for is read from, not asked
            if alias in readings():
                notes.append(readings()[alias][1])
            if mid not in metric_ids:
                metric_ids.append(mid)
        text = fold(question)
        market = list(dict.fromkeys(m.group(0) for m in market_measure_words().regex.finditer(text)))
        language = "zh" if _CJK.search(question) else "en"
        growth = bool(words("growth").search(text))
        if metric_ids:
            # question words outside the metrics' names ("attributable" in a metric is no "attribut*" of why)
            rest = fold("".join(" " if any(a <= i < b for a, b, _, _ in mentions) else ch for i, ch in enumerate(question)))
            if words("why").search(rest) or words("quote_verbs").search(rest) or words("outlook").search(rest):
                intent = "mixed"  # a figure and what the filing says about it (or expects of it)
            elif len(companies) >= 2:
                intent = "comparison"
            elif last_n or len({p.fiscal_year for p in periods}) >= 2 or words("trend").search(text):
                intent = "trend"
            else:
                intent = "metric"
        else:
            intent = "narrative"
        sections = [sid for sid, phrases in section_words().items() if phrases.search(text)]
        if metric_ids and intent != "mixed" and "transcript" in sections:
            intent = "mixed"  # a figure on an earnings call: what the call said, beside any stored number
        route = {"metric": "sql", "comparison": "sql", "trend": "sql", "narrative": "search", "mixed": "mixed"}[intent]
        sections = sections if route != "sql" else []
        return QueryPlan(question=question, companies=companies, periods=periods, metrics=metric_ids, intent=intent,
                         route=route, sections=sections, last_n_years=last_n, growth=growth, language=language,
                         notes=list(dict.fromkeys(notes)), market_measures=market, non_gaap=non_gaap,
                         set_aside=list(dict.fromkeys(aside)), company_periods=paired_periods(question, companies, periods))
