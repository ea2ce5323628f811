"""What is this PDF? Market, company, stock code, report kind, period, language, currency, standard.

Content first, file name second: every field is read from the page text; the file name is consulted
only when the content does not say (corpus names look like ``600080_jinhuagufen_2024_annual.pdf`` or
``0717_emperorcapital_2021_annual.pdf``; users' files will not) and only for the market and stock code.
When the market, the report kind or the period cannot be determined, :class:`UnrecognisedDocument`
is raised: recognition never guesses.

Rules (A-shares, Simplified Chinese, CSRC formats):
  * code: "公司代码：600080" / "证券代码：000999" / "股票代码 300347" in the first pages; H-share
    codes printed as "H股 ... 02359" or "06821.HK" go to ``other_codes`` as "2359.HK".
  * kind from the title: 半年度报告摘要 -> interim_summary (H1), 年度报告摘要 -> summary (FY),
    半年度报告 -> interim (H1), 第一季度报告 -> q1, 第三季度报告 -> q3, 年度报告 -> annual (FY).
  * year from "2024年年度报告" etc.; period_end the calendar quarter/half/year end (A-share fiscal
    years are calendar years); currency CNY; standard CAS; language zh-Hans.
Rules (Hong Kong):
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
Rules (US fallback, e.g. FinanceBench): "FORM 10-K" / "10-Q" / "8-K" on the cover, the period from
"for the fiscal year ended December 31, 2022" / "quarterly period ended" / "Date of Report".
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path

from schema.fiscal import fiscal_year_of, nominal_end
from schema.errors import UnrecognisedDocument
from parsers.issuer_names import issuer_names
from schema.models import DocumentInfo, IssuerName, Page

MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"])}
_CN_DIGITS = {"〇": 0, "零": 0, "○": 0, "Ｏ": 0, "O": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_TRAD = set("與個們這會報國財務歸屬東於產業戶權據經營總額損當變應稅資負債淨發實際幣點電際團劃");
_SIMP = set("与个们这会报国财务归属东于产业户权据经营总额损当变应税资负债净发实际币点电际团划")
_TRAD_ONLY = _TRAD - _SIMP
_SIMP_ONLY = _SIMP - _TRAD


def _is_cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _cn_number(s: str) -> int | None:
    """二零二五 -> 2025; 三十一 -> 31; 十二 -> 12; 九 -> 9."""
    s = s.strip()
    if not s:
        return None
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        t = _CN_DIGITS.get(tens, 1) if tens else 1
        o = _CN_DIGITS.get(ones, 0) if ones else 0
        return t * 10 + o
    digits = [_CN_DIGITS.get(ch) for ch in s]
    if None in digits:
        return None
    return int("".join(str(d) for d in digits))


def _date(y: int, m: int, d: int) -> dt.date | None:
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def _month_end(y: int, m: int) -> dt.date:
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def _text(pages: list[Page], first: int | None = None) -> str:
    sel = pages if first is None else pages[:first]
    return "\n".join(p.text for p in sel)


def _language(text: str) -> str:
    cjk = sum(1 for ch in text if _is_cjk(ch))
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    trad = sum(1 for ch in text if ch in _TRAD_ONLY)
    simp = sum(1 for ch in text if ch in _SIMP_ONLY)
    script = "zh-Hant" if trad > simp else "zh-Hans"
    # a CJK character carries roughly as much text as 3 Latin letters
    if cjk * 3 < 0.15 * latin:
        return "en"
    if latin < 0.15 * cjk * 3:
        return script
    return "en+" + script


# ------------------------------------------------------------------------------------------- A-shares
_A_CODE = re.compile(r"(?:公司代码|证券代码|股票代码|A股代码)\s*[：:]?\s*(\d{6})")
_A_KIND = [
    (re.compile(r"(\d{4})\s*年\s*半年度报告摘要"), "interim_summary", "H1"),
    (re.compile(r"(\d{4})\s*年\s*年度报告摘要"), "summary", "FY"),
    (re.compile(r"(\d{4})\s*年\s*半年度报告"), "interim", "H1"),
    (re.compile(r"(\d{4})\s*年\s*第?一季度报告"), "q1", "Q1"),
    (re.compile(r"(\d{4})\s*年\s*第?三季度报告"), "q3", "Q3"),
    (re.compile(r"(\d{4})\s*年\s*年度报告"), "annual", "FY"),
]
_A_PERIOD_END = {"FY": (12, 31), "H1": (6, 30), "Q1": (3, 31), "Q3": (9, 30)}
_A_NAME = re.compile(r"^([\u4e00-\u9fff（）()]{2,40}?(?:股份有限公司|有限责任公司|有限公司))\s*(?:\d{4}\s*年[^\n]{0,12}报告[^\n]{0,4})?$")
_H_CODE = re.compile(r"H股[^\n]{0,30}?\b(\d{4,5})\b|\b(\d{4,5})\.HK\b")


def _recognise_a(path: Path, pages: list[Page], info: DocumentInfo) -> DocumentInfo:
    head = _text(pages, 12)
    m = _A_CODE.search(head)
    info.stock_code = m.group(1) if m else None
    first = _text(pages, 3)
    for rx, kind, period in _A_KIND:
        km = rx.search(first)
        if km:
            info.form, info.fiscal_period, info.fiscal_year = kind, period, int(km.group(1))
            break
    else:
        raise UnrecognisedDocument(str(path), "A-share report but no report title (年度报告/半年度报告/季度报告) found")
    mo, d = _A_PERIOD_END[info.fiscal_period]
    info.period_end = dt.date(info.fiscal_year, mo, d)
    info.fiscal_year_end_month = 12
    for line in first.split("\n"):
        nm = _A_NAME.match(line.strip())
        if nm:
            info.company_name = nm.group(1)
            break
    others = []
    for hm in _H_CODE.finditer(head):
        code = (hm.group(1) or hm.group(2)).lstrip("0").zfill(4) + ".HK"
        if code not in others:
            others.append(code)
    info.other_codes = others
    info.currency = "CNY"
    info.accounting_standard = "CAS"
    return info


# -------------------------------------------------------------------------------------------- HK
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


_ETF_NAME = re.compile(r"((?:[A-Z0-9][\w&®-]*\s){1,8}(?:ETF|Index Fund))\b")


def _issuer_name(rx: re.Pattern, pages: list[Page], defined_as: str, anywhere: bool = True) -> str | None:
    """The issuer's name: the one the report defines as 'the Company' / 本公司, else the one in the
    running headers/footers, else the one on the cover pages, else (``anywhere``) the most frequent."""
    from schema.page_text import repeated_lines

    text = _text(pages)
    marked = re.compile(rx.pattern + defined_as)
    running = "\n".join(sorted(repeated_lines(pages))) if len(pages) >= 3 else ""
    return (_most_common_name(marked, text) or _most_common_name(rx, running)
            or _most_common_name(rx, _text(pages, 2)) or (_most_common_name(rx, text) if anywhere else None))


def _period_candidates(text: str) -> Counter:
    found: Counter = Counter()
    for m in _HK_YEAR_ENDED.finditer(text):
        kind = "H1" if m.group(1).lower() == "six months" else "FY"
        d = _date(int(m.group(4)), MONTHS[m.group(3).lower()], int(m.group(2)))
        if d:
            found[(d, kind)] += 1
    for m in _HK_CN_ENDED.finditer(text):
        y, mo, d = (_cn_number(g) for g in m.groups()[:3])
        kind = "H1" if m.group(4) == "六個月" else "FY"
        if y and mo and d and (day := _date(y, mo, d)):
            found[(day, kind)] += 1
    if not found:  # no "year ended" (some MD&A extracts): fall back to "as at <date>" statements
        for m in _HK_AS_AT.finditer(text):
            d = _date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))
            if d:
                found[(d, "FY")] += 1
    return found


def _recognise_hk(path: Path, pages: list[Page], info: DocumentInfo) -> DocumentInfo:
    text = _text(pages)
    head = _text(pages, 6)
    codes: list[str] = []
    for m in _HK_CODE.finditer(_text(pages, 10)):
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
    low1 = _text(pages, 2).lower()
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
    hdr = Counter()
    hdr["HKD"] = len(re.findall(r"HK\$\s?['’]000|千港元|港幣千元", text))
    hdr["CNY"] = len(re.findall(r"RMB\s?['’]000|人民幣千元", text))
    hdr["SGD"] = len(re.findall(r"(?<![A-Z])S\$\s?['’]000|新加坡元千元", text))
    hdr["USD"] = len(re.findall(r"US\$\s?['’]000", text))
    cur, n = hdr.most_common(1)[0]
    if n < 3:
        men = Counter()
        men["HKD"] = len(re.findall(r"HK\$|港元|港幣", text))
        men["CNY"] = len(re.findall(r"RMB|人民幣", text))
        men["SGD"] = len(re.findall(r"(?<![A-Z])S\$|新加坡元", text))
        men["USD"] = len(re.findall(r"US\$|美元", text))
        cur, n = men.most_common(1)[0]
    info.currency = cur if n else None
    hk = len(re.findall(r"HKFRS|Hong Kong Financial Reporting Standards?|香港財務報告準則", text))
    ifrs = len(re.findall(r"(?<!HK)IFRS|International Financial Reporting Standards?|國際財務報告準則", text))
    info.accounting_standard = "HKFRS" if hk > ifrs else ("IFRS" if ifrs > hk else None)
    en = _issuer_name(_EN_NAME, pages, r"\s*[（(]\s*(?:the\s+)?[“\"「]+\s*(?:Company|Fund|Trust)\b")
    zh = _issuer_name(_ZH_NAME, pages, r"\s*[（(]\s*[「“]?\s*本公司")
    if info.form == "fund_fs":
        en = _most_common_name(_ETF_NAME, _text(pages, 3)) or en
        zh = None
    # names of the issuer: only where the report marks them as its own (defined, running header, cover)
    own = [("name_en", _issuer_name(_EN_NAME, pages, r"\s*[（(]\s*(?:the\s+)?[“\"「]+\s*(?:Company|Fund|Trust)\b", False)),
           ("name_zh", _issuer_name(_ZH_NAME, pages, r"\s*[（(]\s*[「“]?\s*本公司", False))]
    if info.form == "fund_fs":
        own = [("name_en", en)]
    info.names = [IssuerName(kind=kind, text=name, page=next((p.page for p in pages if name in p.text), None))
                  for kind, name in own if name]
    lang = _language(text)
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


# -------------------------------------------------------------------------------------------- US
_US_FORM = re.compile(r"FORM\s+(10-K|10-Q|8-K|20-F)\b", re.I)
_US_DATE = r"(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),\s*(\d{4})"
# the date may follow on the next line, after words of a column printed beside it ("For the quarterly period ended
# Commission file" / "March 31, 2021 number 1-5805")
_US_PERIOD = re.compile(r"(?:fiscal\s+)?(year|quarterly period|period)\s+ended:?\s*(?:[^\n\d]{0,40}\n\s*)?" + _US_DATE, re.I)
_US_8K = re.compile(r"Date of Report[^\n]{0,80}?\n?\s*" + _US_DATE + r"|" + _US_DATE + r"\s*\n?[^\n]{0,20}Date of Report", re.I)


def _recognise_us(path: Path, pages: list[Page], info: DocumentInfo) -> DocumentInfo:
    head = _text(pages, 3)
    m = _US_FORM.search(head)
    if not m:
        raise UnrecognisedDocument(str(path), "SEC filing but no FORM 10-K/10-Q/8-K/20-F on its cover")
    info.form = m.group(1).upper()
    if info.form == "8-K":
        dm = _US_8K.search(head)
        if not dm:
            raise UnrecognisedDocument(str(path), "8-K without a date of report")
        g = [x for x in dm.groups() if x]
        info.period_end = _date(int(g[2]), MONTHS[g[0].lower()], int(g[1]))
        info.fiscal_year = info.period_end.year if info.period_end else None
    else:
        pm = _US_PERIOD.search(head)
        if not pm:
            raise UnrecognisedDocument(str(path), f"{info.form} without 'for the (fiscal year|quarterly period) ended'")
        info.period_end = _date(int(pm.group(4)), MONTHS[pm.group(2).lower()], int(pm.group(3)))
        if info.form in ("10-K", "20-F"):
            info.fiscal_period = "FY"
            info.fiscal_year = fiscal_year_of(info.period_end)  # J&J's year "ending" 2023-01-01 is 2022
            info.fiscal_year_end_month = nominal_end(info.period_end).month
        # a 10-Q's quarter number depends on the fiscal year end, which its cover does not state
    nm = re.search(r"\n([^\n]{3,80})\n\(?\s*Exact name of registrant", head, re.I)
    if nm:
        info.company_name = nm.group(1).strip()
    info.currency = "USD"
    info.accounting_standard = "IFRS" if info.form == "20-F" and "IFRS" in head else "US_GAAP"
    info.language = "en"
    return info


# ----------------------------------------------------------------------------------------- entry
def _market(path: Path, pages: list[Page]) -> str | None:
    head = _text(pages, 6)
    if re.search(r"SECURITIES AND EXCHANGE COMMISSION", head, re.I) and _US_FORM.search(head):
        return "US"
    if _A_CODE.search(_text(pages, 12)) and any(rx.search(_text(pages, 3)) for rx, _, _ in _A_KIND):
        return "A"
    strong_hk = (
        r"Stock Exchange of Hong Kong|香港聯合交易所|香港交易及結算所|Hong Kong Exchanges and Clearing|HKFRS|"
        r"Hong Kong Financial Reporting|HK\$\s?['’]000|千港元|股份代號|Stock Code|Hong Kong Companies Ordinance|"
        r"Securities and Futures Commission"
    )
    if re.search(strong_hk, _text(pages, 30), re.I):
        return "HK"
    if re.search(r"SECURITIES AND EXCHANGE COMMISSION|\bNYSE\b|NASDAQ|U\.S\. GAAP", head, re.I):
        return "US"
    name = path.name
    if re.match(r"^\d{6}[_\-]", name):
        return "A"
    if re.match(r"^\d{4,5}[_\-.]", name):
        return "HK"
    return None


def recognise_pdf(path: str | Path, pages: list[Page], hints: DocumentInfo | None = None) -> DocumentInfo:
    """DocumentInfo for an A-share, HK or US PDF from its page text (see the module docstring).

    ``hints`` (e.g. from a manifest beside the files) fill what the content leaves open; the content wins
    wherever it says something. Without content recognition, hints that give market, kind and period stand in."""
    try:
        info = _recognise_content(path, pages)
    except UnrecognisedDocument:
        if hints is None or not (hints.market and hints.form and (hints.period_end or hints.fiscal_year)):
            raise
        info = DocumentInfo(file_name=Path(path).name, pages=len(pages))
    if hints is not None:
        for name, value in hints.model_dump(exclude={"document_id", "file_name", "pages", "names"}).items():
            if value not in (None, [], "") and getattr(info, name) in (None, [], ""):
                setattr(info, name, value)
    info.names = issuer_names(info, pages, extra=info.names)
    return info


def _recognise_content(path: str | Path, pages: list[Page]) -> DocumentInfo:
    path = Path(path)
    if not any(p.text.strip() for p in pages):
        raise UnrecognisedDocument(str(path), "no text on any page")
    info = DocumentInfo(file_name=path.name, pages=len(pages))
    market = _market(path, pages)
    if market is None:
        raise UnrecognisedDocument(str(path), "market not recognised (no A-share code/title, no Hong Kong "
                                              "listing marks, no SEC form cover)")
    info.market = market
    if market == "A":
        _recognise_a(path, pages, info)
        info.language = _language(_text(pages, 20))
    elif market == "HK":
        _recognise_hk(path, pages, info)
    else:
        _recognise_us(path, pages, info)
    if info.stock_code is None:
        fm = re.match(r"^(\d{6}|\d{4,5})[_\-.]", path.name)
        if fm and market == "A" and len(fm.group(1)) == 6:
            info.stock_code = fm.group(1)
        elif fm and market == "HK" and len(fm.group(1)) in (4, 5):
            info.stock_code = fm.group(1).lstrip("0").zfill(4) + ".HK"
    if info.market is None or info.form is None or info.period_end is None:
        raise UnrecognisedDocument(str(path), "market, report kind or period could not be determined")
    return info
