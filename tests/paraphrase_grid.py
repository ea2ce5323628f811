"""The paraphrase grid: questions generated from the mapping data, each with the plan it must give.

    companies in the warehouse x every name form each has (master names and aliases, names printed in its
    filings, listing codes in several spellings)
  x metric aliases (metrics.yaml, ratios.yaml, the readings of vocabulary.yaml, the statement labels a question may
    use as printed; Simplified and Traditional Chinese)
  x period phrases (years, fiscal years, quarters alone and year to date, H1, 9M, instants at quarter and year ends
    by date and by name, periods named by their end date, month-named quarters, "latest", "last three years"),
    placed in each company's own fiscal calendar by arithmetic written here (not the router's)
  x question templates (English and Chinese).

The full product is millions of questions; :func:`grid` covers it deterministically instead: every (company, name
form) meets every period phrase once, and the metric alias and template rotate, so every alias and template
appears many times. The grid grows by itself as the mappings and the warehouse grow. :func:`comparison_grid` pairs
every two companies, each with its own fiscal year, in English and Chinese.
"""

from __future__ import annotations

import calendar
import datetime as dt
import itertools
import re
from dataclasses import dataclass

from mappings.companies import alias_key, normalise_code
from mappings.metrics import metrics, question_labels, ratios
from mappings.vocabulary import ambiguous_metric_words, fold, generic_company_words, readings
from warehouse.lookup import filings_printing

YEARS = (2023, 2024)
_CN_Q = {1: "一", 2: "二", 3: "三", 4: "四"}
_ORD = {1: "first", 2: "second", 3: "third", 4: "fourth"}


@dataclass(frozen=True)
class Case:
    question: str
    company_id: str
    metric: str
    period: tuple  # (fiscal_year, fiscal_period) or ("relative", "latest") or ("last_n", 3)
    fiscal: bool | None  # the question named a fiscal year (None: not checked)


def _t2(text: str) -> str:
    from opencc import OpenCC

    return OpenCC("s2t").convert(text)


def metric_aliases() -> list[tuple[str, str]]:
    """(alias, metric or ratio id) from the mapping data; an alias a ratio lists belongs to the ratio; Chinese
    aliases in Traditional characters too."""
    out: dict[str, tuple[str, str]] = {}
    for m in metrics().values():
        for a in (m.name_zh, *m.aliases):
            out.setdefault(fold(a).casefold(), (a, m.id))
    for rid, spec in ratios().items():
        if spec.get("generated"):  # a share made for an earlier question (share_ratio) is no mapping data
            continue
        for a in (spec.get("name_zh"), *spec.get("aliases", [])):
            if a:
                out[fold(a).casefold()] = (a, rid)
    for alias, (mid, _note) in readings().items():
        out[alias] = (alias, mid)
    for label, mid in question_labels().items():  # statement labels as printed, where no alias says otherwise
        out.setdefault(fold(label).casefold(), (label, mid))
    for word in ambiguous_metric_words():
        out.pop(word, None)
    pairs = sorted(out.values())
    pairs += [(_t2(a), mid) for a, mid in pairs if re.search(r"[\u4e00-\u9fff]", a) and _t2(a) != a]
    return pairs


def _code_spellings(code: str, market: str) -> list[str]:
    if market == "HK":
        digits = code.removesuffix(".HK")
        return [code, digits.zfill(5), f"HK:{digits}", f"{int(digits)} HK", f"SEHK:{digits.zfill(5)}"]
    if market == "A":
        suffix = "SH" if code.startswith("6") else "SZ"
        return [code, f"{code}.{suffix}", f"{suffix}{code}"]
    return [code, f"${code}"]


def name_forms(con) -> dict[str, list[str]]:
    """Company -> every name form that identifies it alone: aliases (master and printed) that no other company
    answers to and that are not made of generic words only, and its listing codes in several spellings."""
    owners: dict[str, set[str]] = {}
    rows = con.execute("SELECT alias, company_id, kind FROM aliases").fetchall()
    for alias, cid, kind in rows:
        owners.setdefault(alias_key(fold(alias)), set()).add(cid)
    generic = generic_company_words()
    forms: dict[str, list[str]] = {}
    for alias, cid, kind in rows:
        if kind in ("code", "ticker", "cik", "abbreviation"):
            continue
        key = alias_key(fold(alias))
        words = re.findall(r"[\w&'-]+", key)
        if owners[key] != {cid} or all(w in generic for w in words) or len(key) < 2:
            continue
        if not re.search(r"[\u4e00-\u9fff]", key) and len(key) < 3 and not any(c.isdigit() for c in key):
            continue
        forms.setdefault(cid, [])
        if alias not in forms[cid]:
            forms[cid].append(alias)
    for code, cid, market in con.execute("SELECT stock_code, company_id, market FROM securities").fetchall():
        if normalise_code(code) and len(code) > 1:
            forms.setdefault(cid, []).extend(_code_spellings(code, market))
    return forms


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def _quarter_end(fy: int, q: int, fye: int) -> dt.date:
    """The end of fiscal quarter ``q`` of the fiscal year that ends in month ``fye`` of year ``fy``: 3 x (4 - q)
    months before the year's end."""
    months = fy * 12 + (fye - 1) - 3 * (4 - q)
    return _month_end(months // 12, months % 12 + 1)


def _en_date(d: dt.date) -> str:
    return f"{calendar.month_name[d.month]} {d.day}, {d.year}"


_CN_NUMERAL = "〇一二三四五六七八九"


def _cn_date(d: dt.date) -> str:
    """A date in Chinese numerals, as HK reports print it: 2025-03-31 -> 二〇二五年三月三十一日."""
    def small(n: int) -> str:
        return (("" if n < 20 else _CN_NUMERAL[n // 10]) + "十" if n >= 10 else "") + (_CN_NUMERAL[n % 10] if n % 10 else "")
    return "".join(_CN_NUMERAL[int(c)] for c in str(d.year)) + f"年{small(d.month)}月{small(d.day)}日"


def period_phrases(fye: int, market: str) -> list[tuple[str, str, tuple, bool | None]]:
    """(English phrase, Chinese phrase, expected (fiscal_year, fiscal_period), fiscal flag)."""
    out: list[tuple[str, str, tuple, bool | None]] = []
    for y in YEARS:
        yy = y % 100
        out += [(f"fiscal {y}", f"{y}财年", (y, "FY"), True), (f"FY{y}", f"{y}年度", (y, "FY"), None),
                (f"FY{yy:02d}", f"{yy:02d}财年", (y, "FY"), True), (f"in {y}", f"{y}年", (y, None), False)]
        if fye != 12:  # a fiscal year named by the two calendar years it spans (FY2020/21, 2020/21財年)
            out += [(f"FY{y - 1}/{yy:02d}", f"{y - 1}/{yy:02d}财年", (y, "FY"), True),
                    (f"the {y - 1}/{y} financial year", f"{y - 1}/{y}年度", (y, "FY"), True)]
        for q in range(1, 5):
            out += [(f"Q{q} {y}", f"{y}年第{_CN_Q[q]}季度", (y, f"Q{q}"), None),
                    (f"{q}Q{yy:02d}", f"{y}年{_CN_Q[q]}季度", (y, f"Q{q}"), None),
                    (f"the {_ORD[q]} quarter of fiscal {y}", f"{y}Q{q}", (y, f"Q{q}"), None)]
            end = _quarter_end(y, q, fye)
            span = {1: "three months", 2: "six months", 3: "nine months", 4: "year"}[q]
            ytd = {1: f"Q{q}", 2: "H1", 3: "9M", 4: "FY"}[q]
            out.append((f"the {span} ended {_en_date(end)}", f"截至{end.year}年{end.month}月{end.day}日止"
                        + {1: "三个月", 2: "六个月", 3: "九个月", 4: "年度"}[q], (y, ytd), None))
            if q in (2, 3):  # named by the month alone, and year to date through a quarter
                month = f"{calendar.month_name[end.month]} {end.year}"
                zh = f"{y}年1-{3 * q}月"
                out += [(f"the {span} ending {month}", zh, (y, ytd), None),
                        (f"year-to-date through Q{q} fiscal {y}", zh, (y, ytd), True),
                        (f"Q{q} {y} YTD", zh, (y, ytd), None), (f"Q{q} YTD fiscal {y}", zh, (y, ytd), True),
                        (f"FY{y} Q{q} YTD", zh, (y, ytd), True),
                        (f"through the {_ORD[q]} quarter of {y}", zh, (y, ytd), None),
                        (f"year-to-date through Q{q} fiscal {y}", f"{y}年年初至{_CN_Q[q]}季度末", (y, ytd), True),
                        (f"year-to-date through Q{q} fiscal {y}", f"{y}年年初至第{_CN_Q[q]}季度末", (y, ytd), True)]
            instant = "FY" if q == 4 else ("H1" if q == 2 and market != "US" else f"Q{q}")
            out.append((f"as of {_en_date(end)}", f"{end.year}年{end.month}月{end.day}日", (y, instant), None))
            if q in (2, 3):  # a month's end as analysts shorten it ("at end-September 2025", 2025年9月末)
                out.append((f"at end-{calendar.month_name[end.month]} {end.year}", f"{end.year}年{end.month}月末",
                            (y, instant), None))
            if q in (2, 4):  # the same dates in Chinese numerals (截至二〇二五年三月三十一日止年度)
                out += [(f"the {span} ended {_en_date(end)}",
                         f"截至{_cn_date(end)}止" + ("六个月" if q == 2 else "年度"), (y, ytd), None),
                        (f"at {_en_date(end)}", _cn_date(end), (y, instant), None)]
            out.append((f"the {calendar.month_name[end.month]} {end.year} quarter", f"{y}年第{_CN_Q[q]}季度",
                        (y, f"Q{q}"), None))
        out += [(f"H1 {y}", f"{y}年上半年", (y, "H1"), None), (f"first half of {y}", f"{y}年1-6月", (y, "H1"), None),
                (f"9M {y}", f"{y}年前三季度", (y, "9M"), None), (f"first nine months of {y}", f"{y}年1-9月", (y, "9M"), None),
                (f"at the end of fiscal {y}", f"{y}年末", (y, "FY"), None),
                (f"at the end of Q3 {y}", f"{y}年三季度末", (y, "Q3"), None)]
    out += [("latest", "最新", ("relative", "latest"), None), ("over the last three years", "近三年", ("last_n", 3), None)]
    return out


EN_TEMPLATES = ["What was {c}'s {m} for {p}?", "{c} {m} {p}", "{m} of {c}, {p}", "Show {c} {m} for {p}"]
ZH_TEMPLATES = ["{c}{p}的{m}是多少", "{c} {p} {m}", "{p}{c}{m}"]


def _glue(template: str, c: str, m: str, p: str) -> str:
    """A Chinese template filled in; a space where two runs of Latin letters or digits would touch ("AAPL 2024年",
    "2024年SH600080" stays), as Chinese writers separate them."""
    parts = re.split(r"(\{[cmp]\})", template)
    values = {"{c}": c, "{m}": m, "{p}": p}
    out = ""
    for part in parts:
        text = values.get(part, part)
        if out and text and re.match(r"[A-Za-z0-9$]", text[0]) and re.search(r"[A-Za-z0-9]$", out):
            out += " "
        out += text
    return out


def grid(con) -> list[Case]:
    forms = name_forms(con)
    aliases = metric_aliases()
    en_aliases = [a for a in aliases if not re.search(r"[\u4e00-\u9fff]", a[0])]
    zh_aliases = [a for a in aliases if re.search(r"[\u4e00-\u9fff]", a[0])]
    calendars = {}
    for cid in forms:
        row = con.execute("SELECT fiscal_year_end_month FROM documents WHERE company_id = ? AND fiscal_year_end_month "
                          "IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", [cid]).fetchone()
        if row is None:  # a fund without filings of its own keeps the year of the filings that print it (its trust's)
            printing = filings_printing(con, {"company_id": [cid]}).get("document_id") or []
            row = con.execute("SELECT fiscal_year_end_month FROM documents WHERE document_id IN (SELECT unnest(?)) AND "
                              "fiscal_year_end_month IS NOT NULL LIMIT 1", [printing]).fetchone()
        market = con.execute("SELECT market FROM securities WHERE company_id = ? ORDER BY market = 'HK', stock_code "
                             "LIMIT 1", [cid]).fetchone()
        calendars[cid] = (row[0] if row else 12, market[0] if market else "US")
    cases: list[Case] = []
    counter = itertools.count()
    for cid in sorted(forms):
        fye, market = calendars[cid]
        for name in forms[cid]:
            for en, zh, expected, fiscal in period_phrases(fye, market):
                i = next(counter)
                if i % 2:
                    alias, mid = zh_aliases[i // 2 % len(zh_aliases)]
                    q = _glue(ZH_TEMPLATES[i // 2 % len(ZH_TEMPLATES)], name, alias, zh)
                    flag = fiscal if fiscal is not None and ("财年" in zh or zh.endswith("年")) else None
                else:
                    alias, mid = en_aliases[i // 2 % len(en_aliases)]
                    q = EN_TEMPLATES[i // 2 % len(EN_TEMPLATES)].format(c=name, m=alias, p=en)
                    flag = fiscal
                cases.append(Case(q, cid, mid, expected, flag))
    return cases


PAIR_TEMPLATES_EN = ["Compare {c1}'s {m} in {p1} with {c2}'s in {p2}", "{c1} {m} {p1} vs {c2} {p2}"]
PAIR_TEMPLATES_ZH = ["{c1}{p1}的{m}与{c2}{p2}对比"]


@dataclass(frozen=True)
class PairCase:
    question: str
    companies: tuple[str, str]
    metric: str
    years: tuple[int, int]


def comparison_grid(con) -> list[PairCase]:
    """Two companies, each with its own fiscal year ("Compare A's revenue in fiscal 2023 with B's in fiscal 2024"):
    every ordered pair of companies once, names (not codes), aliases and templates rotating."""
    forms = {cid: [n for n in names if not re.fullmatch(r"[$A-Z0-9.:\s]+", n)] for cid, names in name_forms(con).items()}
    forms = {cid: names for cid, names in forms.items() if names}
    aliases = metric_aliases()
    en = [a for a in aliases if not re.search(r"[\u4e00-\u9fff]", a[0])]
    zh = [a for a in aliases if re.search(r"[\u4e00-\u9fff]", a[0])]
    cases: list[PairCase] = []
    for i, (c1, c2) in enumerate(itertools.permutations(sorted(forms), 2)):
        n1, n2 = forms[c1][i % len(forms[c1])], forms[c2][i % len(forms[c2])]
        y1, y2 = YEARS if i % 2 else YEARS[::-1]
        if i % 3 == 2:
            alias, mid = zh[i % len(zh)]
            q = _glue(PAIR_TEMPLATES_ZH[0], "{c1}", alias, "{p1}")
            q = q.replace("{c1}", n1).replace("{p1}", f"{y1}财年").replace("{c2}", n2).replace("{p2}", f"{y2}财年")
        else:
            alias, mid = en[i % len(en)]
            q = PAIR_TEMPLATES_EN[i % 2].format(c1=n1, c2=n2, m=alias, p1=f"fiscal {y1}", p2=f"fiscal {y2}")
        cases.append(PairCase(q, (c1, c2), mid, (y1, y2)))
    return cases
