"""Hong Kong reports: stock code, report kind, period, currency, accounting standard, language and names.

Rules:
  * code: "Stock Code: 717" / "股份代號：328" -> "0717.HK"; a second listed code (ETF series) goes
    to ``other_codes``.
  * kind: ETF / fund statements (sub-fund, unitholders, trustee, manager) -> fund_fs;
    業績公告 / results announcement -> results_announcement; a short document opening with
    "Management Discussion and Analysis" -> mda_extract; "Interim Report" / 中期報告 -> interim;
    "Annual Report" / 年報 -> annual. company_metrics is False for fund_fs and mda_extract.
  * period_end: the latest "year ended 30 September 2021" (or 截至二零二五年三月三十一日止年度,
    six months ended ... for interims) that recurs in the document.
  * currency: statement headers ("HK$'000", "RMB'000", "S$'000", 千港元, 人民幣千元), else money
    mentions (HK$, RMB, S$). standard: HKFRS vs IFRS by which the report cites more.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from parsers.recognise_text import MONTHS, cn_number, date_or_none, language_of, text_of
from schema.errors import UnrecognisedDocument
from schema.models import DocumentInfo, IssuerName, Page

# marks of a Hong Kong listing in the first 30 pages
_LISTING_MARKS = re.compile(
    r"Stock Exchange of Hong Kong|香港聯合交易所|香港交易及結算所|Hong Kong Exchanges and Clearing|HKFRS|"
    r"Hong Kong Financial Reporting|HK\$\s?['’]000|千港元|股份代號|Stock Code|Hong Kong Companies Ordinance|"
    r"Securities and Futures Commission", re.I
)
_HK_CODE = re.compile(r"(?:stock\s*code|股份代[號号]|股票代[號号])\s*(?:股份代[號号])?\s*[:：]?\s*(\d{1,5})\b", re.I)
_EN_DATE = r"(\d{1,2})(?:st|nd|rd|th)?\s+(January|February|March|April|May|June|July|August|September|October|November|December),?\s+(\d{4})"
_HK_AS_AT = re.compile(r"\bas (?:at|of)\s+" + _EN_DATE, re.I)
_HK_YEAR_ENDED = re.compile(r"(year|period|six months|twelve months) ended\s+" + _EN_DATE, re.I)
_CN_NUM = "[〇零○一二三四五六七八九十]"
_HK_CN_ENDED = re.compile(
    rf"截至({_CN_NUM}{{4}}|\d{{4}})\s*年\s*({_CN_NUM}{{1,3}}|\d{{1,2}})\s*月\s*({_CN_NUM}{{1,3}}|\d{{1,2}})\s*日\s*止(年度|六個月|期間)"
)
_EN_NAME = re.compile(r"((?<![\w(])(?:[A-Z][\w&.'’-]*|\([A-Z][\w&.'’-]*\))(?:\s(?:[A-Z(][\w&.'’()-]*)){0,7}\s(?:Limited|LIMITED|Ltd\.?))")
_ZH_NAME = re.compile(r"([\u4e00-\u9fff（）()]{2,25}有限公司)")
_NOT_ISSUER = re.compile(r"Exchange|Clearing|Bank|Registrar|Trust|Securities Limited|Investor Services|"
                         r"Deloitte|Ernst|Price|KPMG|BDO|Grant|Crowe|HLB|Mazars|Moore|RSM|Baker|"
                         r"交易所|結算|銀行|證券登記|會計師|核數師", re.I)


def _most_common_name(rx: re.Pattern, text: str) -> str | None:
    counts = Counter()
    for m in rx.finditer(text):
        name = " ".join(m.group(1).split())
        name = re.sub(r"^(?:The|THE|of|and|by|To|TO THE SHAREHOLDERS OF)\s+", "", name)
        name = re.sub(r"^(?:(?:Corporate|Profile|Information|Annual|Report|Contents|Chairman.s|Statement)\s+)+",
                      "", name, flags=re.I)
        if _NOT_ISSUER.search(name) or len(name) < 6 or name[0] in "（(" or "註冊成立" in name or "注册成立" in name:
            continue
        counts[name] += 1
    return counts.most_common(1)[0][0] if counts else None


# a currency's unit as statement headers print it, and any mention of the currency (on a tie the first listed wins)
_HEADER_UNITS = {"HKD": r"HK\$\s?['’]000|千港元|港幣千元", "CNY": r"RMB\s?['’]000|人民幣千元",
                 "SGD": r"(?<![A-Z])S\$\s?['’]000|新加坡元千元", "USD": r"US\$\s?['’]000"}
_MENTIONS = {"HKD": r"HK\$|港元|港幣", "CNY": r"RMB|人民幣", "SGD": r"(?<![A-Z])S\$|新加坡元", "USD": r"US\$|美元"}
MIN_HEADER_UNITS = 3  # with fewer statement-header units than this, the currency is the one mentioned most


def _most_found(patterns: dict[str, str], text: str) -> tuple[str, int]:
    """The currency whose pattern occurs most often in ``text`` (the first listed on a tie), and how often."""
    return Counter({cur: len(re.findall(rx, text)) for cur, rx in patterns.items()}).most_common(1)[0]


_ETF_NAME = re.compile(r"((?:[A-Z0-9][\w&®-]*\s){1,8}(?:ETF|Index Fund))\b")


def _issuer_name(rx: re.Pattern, pages: list[Page], defined_as: str, anywhere: bool = True) -> str | None:
    """The issuer's name: the one the report defines as 'the Company' / 本公司, else the one in the
    running headers/footers, else the one on the cover pages, else (``anywhere``) the most frequent."""
    from schema.page_text import repeated_lines

    text = text_of(pages)
    marked = re.compile(rx.pattern + defined_as)
    running = "\n".join(sorted(repeated_lines(pages))) if len(pages) >= 3 else ""
    return (_most_common_name(marked, text) or _most_common_name(rx, running)
            or _most_common_name(rx, text_of(pages, 2)) or (_most_common_name(rx, text) if anywhere else None))


def _period_candidates(text: str) -> Counter:
    found: Counter = Counter()
    for m in _HK_YEAR_ENDED.finditer(text):
        kind = "H1" if m.group(1).lower() == "six months" else "FY"
        d = date_or_none(int(m.group(4)), MONTHS[m.group(3).lower()], int(m.group(2)))
        if d:
            found[(d, kind)] += 1
    for m in _HK_CN_ENDED.finditer(text):
        y, mo, d = (cn_number(g) for g in m.groups()[:3])
        kind = "H1" if m.group(4) == "六個月" else "FY"
        if y and mo and d and (day := date_or_none(y, mo, d)):
            found[(day, kind)] += 1
    if not found:  # no "year ended" (some MD&A extracts): fall back to "as at <date>" statements
        for m in _HK_AS_AT.finditer(text):
            d = date_or_none(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))
            if d:
                found[(d, "FY")] += 1
    return found


def recognise_hk(path: Path, pages: list[Page], info: DocumentInfo) -> DocumentInfo:
    text = text_of(pages)
    head = text_of(pages, 6)
    codes: list[str] = []
    for m in _HK_CODE.finditer(text_of(pages, 10)):
        code = m.group(1).lstrip("0").zfill(4) + ".HK"
        if code not in codes:
            codes.append(code)
    # only codes printed as "the" stock code of this issuer: the first one; an ETF series lists several
    fund = bool(re.search(r"\b(sub-fund|unitholders?|ETF)\b", head, re.I)) and bool(
        re.search(r"\b(trustee|manager)\b", head, re.I))
    if codes:
        info.stock_code = codes[0]
        if fund:
            info.other_codes = codes[1:]
    low1 = text_of(pages, 2).lower()
    first_lines = " ".join(pages[0].text.split("\n")[:6]).lower() if pages else ""
    page1 = pages[0].text if pages else ""
    if fund:
        info.form = "fund_fs"
    elif "業績公告" in page1 or "业绩公告" in page1 or re.search(r"results announcement|announcement of (annual|interim) results", page1, re.I):
        info.form = "results_announcement"
    elif ("management discussion and analysis" in first_lines or "管理層討論及分析" in first_lines
          or "管理層討論與分析" in first_lines) and len(pages) <= 40:
        info.form = "mda_extract"
    elif re.search(r"interim\s*report", low1) or "中期報告" in low1:
        info.form = "interim"
    elif re.search(r"annual\s*report", low1) or "年報" in low1:
        info.form = "annual"
    else:
        raise UnrecognisedDocument(str(path), "Hong Kong document but its kind (annual/interim report, "
                                              "results announcement, MD&A, fund statements) is not stated")
    cands = _period_candidates(text)
    if not cands:
        raise UnrecognisedDocument(str(path), "no reporting period ('year ended ...' / 截至...止年度) found")
    top = cands.most_common(1)[0][1]
    want = "H1" if info.form == "interim" else None
    pool = [(k, n) for k, n in cands.items() if n >= max(2, 0.2 * top) and (want is None or k[1] == want)]
    if not pool:
        pool = [(k, n) for k, n in cands.items() if want is None or k[1] == want] or list(cands.items())
    (end, period), _ = max(pool, key=lambda kv: kv[0][0])
    info.period_end = end
    info.fiscal_period = "H1" if info.form == "interim" else "FY"
    info.fiscal_year = end.year
    if info.fiscal_period == "FY":
        info.fiscal_year_end_month = end.month
    info.company_metrics = info.form not in ("fund_fs", "mda_extract")
    # currency: statement headers first, then money mentions
    cur, n = _most_found(_HEADER_UNITS, text)
    if n < MIN_HEADER_UNITS:
        cur, n = _most_found(_MENTIONS, text)
    info.currency = cur if n else None
    hk = len(re.findall(r"HKFRS|Hong Kong Financial Reporting Standards?|香港財務報告準則", text))
    ifrs = len(re.findall(r"(?<!HK)IFRS|International Financial Reporting Standards?|國際財務報告準則", text))
    info.accounting_standard = "HKFRS" if hk > ifrs else ("IFRS" if ifrs > hk else None)
    en = _issuer_name(_EN_NAME, pages, r"\s*[（(]\s*(?:the\s+)?[“\"「]+\s*(?:Company|Fund|Trust)\b")
    zh = _issuer_name(_ZH_NAME, pages, r"\s*[（(]\s*[「“]?\s*本公司")
    if info.form == "fund_fs":
        en = _most_common_name(_ETF_NAME, text_of(pages, 3)) or en
        zh = None
    # names of the issuer: only where the report marks them as its own (defined, running header, cover)
    own = [("name_en", _issuer_name(_EN_NAME, pages, r"\s*[（(]\s*(?:the\s+)?[“\"「]+\s*(?:Company|Fund|Trust)\b", False)),
           ("name_zh", _issuer_name(_ZH_NAME, pages, r"\s*[（(]\s*[「“]?\s*本公司", False))]
    if info.form == "fund_fs":
        own = [("name_en", en)]
    info.names = [IssuerName(kind=kind, text=name, page=next((p.page for p in pages if name in p.text), None))
                  for kind, name in own if name]
    lang = language_of(text)
    info.language = lang
    zh_defined = _most_common_name(re.compile(_ZH_NAME.pattern + r"\s*[（(]\s*[「“]?\s*本公司"), text)
    en_defined_zh = _most_common_name(re.compile(_EN_NAME.pattern + r"\s*[（(]\s*[「“]?\s*本公司"), text)
    if lang.startswith("zh") and not zh_defined and en_defined_zh:
        zh = en_defined_zh
    if lang == "en":
        info.company_name = en
    elif lang.startswith("zh"):
        info.company_name = zh or en
    else:
        info.company_name = " ".join(x for x in (en, zh) if x) or None
    return info


def has_hk_marks(pages: list[Page]) -> bool:
    """The Stock Exchange, HKFRS, HK$'000, 股份代號 or another Hong Kong listing mark in the first 30 pages."""
    return bool(_LISTING_MARKS.search(text_of(pages, 30)))
