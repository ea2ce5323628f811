"""Names a filing prints about its own issuer, with the page they are printed on: the Chinese full name and
short name (证券简称), the English name and its abbreviation, former names (变更前股票简称, "formerly known as"),
A / H listing codes, US trading symbols, the CIK. Read from the cover and company-information pages only (the
first :data:`HEAD_PAGES` pages), from labelled fields: a name in a sentence about a subsidiary is never taken.

The warehouse records them in the company master (``aliases``, with document and page), so a question that
names the company the way its reports do resolves to it.
"""

from __future__ import annotations

import re

from schema.models import DocumentInfo, Fact, IssuerName, Page

HEAD_PAGES = 15  # A-share 公司简介 and 股票简况 sit within the first 15 pages of the longest reports read (平安银行 p9)
_NONE = re.compile(r"^(?:不适用|无|—+|-+|/|n/?a|none|not applicable)$", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")

# ----------------------------------------------------------------------------------------------- A-shares
_A_FIELDS = [
    (re.compile(r"公司的中文名称\s*[：:]?\s*(\S.{1,40})$"), "name_zh"),
    (re.compile(r"公司的中文简称(?:（如有）|\(如有\))?\s*[：:]?\s*(\S{2,12})$"), "short_name"),
    (re.compile(r"公司的外文名称(?:（如有）|\(如有\))?\s*[：:]?\s*([A-Za-z].{2,100})$"), "name_en"),
    (re.compile(r"公司的外文名称缩写(?:（如有）|\(如有\))?\s*[：:]?\s*([A-Za-z].{1,40})$"), "abbreviation"),
    (re.compile(r"变更前的?股票简称(?:（如有）|\(如有\))?\s*[：:]?\s*(\S{2,12})$"), "former_name"),
    (re.compile(r"^(?:公司)?曾用名\s*[：:]?\s*(\S{2,40})$"), "former_name"),
]
# "证券代码：600080 证券简称：金花股份" / "公司代码：600080 公司简称：金花股份" on the cover
_A_COVER = re.compile(r"(?:公司|证券|股票)代码\s*[：:]\s*(\d{6})\s+(?:公司|证券|股票)简称\s*[：:]\s*([^\s：:]{2,12})")
# "股票简称 凯莱英 股票代码 002821.SZ/06821.HK"
_A_SHORT_CODE = re.compile(r"股票简称\s+([^\s：:]{2,12})\s+股票代码\s+([\d./A-Z]+)")
# the 股票简况 table: "A股 上海证券交易所 金花股份 600080 不适用" / "H股 联交所 藥明康德 02359 不适用"
_A_LISTING_ROW = re.compile(r"^([AHB])股\s+\S+\s+([^\s\d]{2,12})\s+(\d{4,6})(?:\s+(\S{2,12}))?\s*$")


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" ，,;；。")


def _a_share(pages: list[Page]) -> list[IssuerName]:
    out: list[IssuerName] = []
    for p in pages[:HEAD_PAGES]:
        for line in (x.strip() for x in p.text.split("\n")):
            for rx, kind in _A_FIELDS:
                m = rx.search(line)
                if m:
                    out.append(IssuerName(kind=kind, text=_clean(m.group(1)), page=p.page))
            m = _A_COVER.search(line)
            if m:
                out += [IssuerName(kind="code", text=m.group(1), page=p.page),
                        IssuerName(kind="short_name", text=m.group(2), page=p.page)]
            m = _A_SHORT_CODE.search(line)
            if m:
                out.append(IssuerName(kind="short_name", text=m.group(1), page=p.page))
                out += [IssuerName(kind="code", text=c, page=p.page) for c in re.split(r"[/、]", m.group(2)) if c]
            m = _A_LISTING_ROW.match(line)
            if m:
                out += [IssuerName(kind="short_name", text=m.group(2), page=p.page),
                        IssuerName(kind="code", text=m.group(3) + (".HK" if m.group(1) == "H" else ""), page=p.page)]
                if m.group(4):
                    out.append(IssuerName(kind="former_name", text=m.group(4), page=p.page))
    return out


# ---------------------------------------------------------------------------------------------- Hong Kong
_HK_FORMER = [
    re.compile(r"formerly\s+known\s+as\s+[“\"]([^”\"]{3,80})[”\"]", re.I),
    re.compile(r"前稱為?\s*[“\"「]([^”\"」]{2,40})[”\"」]"),
    re.compile(r"carrying\s+on\s+business\s+in\s+Hong\s+Kong\s+as\s+[“\"]?([A-Z][\w&.'’ ()-]{2,80}?(?:Limited|LIMITED|Ltd\.?))",
               re.I),
]


# a change of the company's names: "the English name of the Company from “X” to “Y”", "由「X」更改為「Y」", in a
# paragraph about the company's names (a website or a stock code changed in the same paragraph is no name)
_NAME_CHANGE_TOPIC = re.compile(r"change\s+of\s+company\s+names?|names?\s+of\s+the\s+company|short\s+names?|"
                                r"更改公司名稱|更改公司名称|公司名稱|公司名称|股份簡稱|股份简称|中文名稱|英文名稱", re.I)
_NAME_CHANGE = [re.compile(r"from\s+[“\"]\s*([^”\"]{2,80}?)\s*[”\"]\s+to\s+[“\"]\s*([^”\"]{2,80}?)\s*[”\"]", re.I),
                re.compile(r"由\s*[「“]\s*([^」”]{2,80}?)\s*[」”]\s*(?:更改|變更|变更|改)為?為?\s*[「“]\s*([^」”]{2,80}?)\s*[」”]")]
# not a name: a web address, a code, or text run together from the other language's column of a bilingual page
# ("智富資源投 之中文第二名稱已由「香港金融...": a quote mark of the other column inside it)
_NOT_A_NAME = re.compile(r"www\.|\.com\b|https?:|^\d+$|[「」“”\"]|[A-Za-z]{4}.*[\u4e00-\u9fff]{2}|"
                         r"[\u4e00-\u9fff]{2}.*[A-Za-z]{4}", re.I)


def _name_changes(text: str, page: int) -> list[IssuerName]:
    """Former and current names from a paragraph about a change of the company's names."""
    out = []
    for para in re.split(r"(?<=[.。])\s+(?=[A-Z\u4e00-\u9fff])", text):
        if not _NAME_CHANGE_TOPIC.search(para):
            continue
        for rx in _NAME_CHANGE:
            for m in rx.finditer(para):
                old, new = _clean(m.group(1)), _clean(m.group(2))
                if not _NOT_A_NAME.search(old):
                    out.append(IssuerName(kind="former_name", text=old, page=page))
                if not _NOT_A_NAME.search(new):
                    out.append(IssuerName(kind="name_zh" if _CJK.search(new) else "name_en", text=new, page=page))
    return out


def _hk(pages: list[Page]) -> list[IssuerName]:
    out = []
    for p in pages[:HEAD_PAGES]:
        text = re.sub(r"\s+", " ", p.text)
        text = re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", text)  # 智 富 資 源: letter-spaced Chinese
        for rx in _HK_FORMER:
            for m in rx.finditer(text):
                kind = "name_en" if "business" in rx.pattern else "former_name"
                out.append(IssuerName(kind=kind, text=_clean(m.group(1)), page=p.page))
        out += _name_changes(text, p.page)
    return out


# -------------------------------------------------------------------------------------------------- US
_EXCHANGE = r"(?:The\s+)?(?:New\s+York\s+Stock\s+Exchange|NYSE|Nasdaq|NASDAQ|Chicago\s+Stock\s+Exchange)"
_SYMBOL_ROW = re.compile(r"(?:Common|Ordinary|Class\s+A)[^\n]{0,120}?\s([A-Z]{1,5}(?:\.[A-Z])?)\s+" + _EXCHANGE)
_FORMER = re.compile(r"\n([^\n]{2,120})\n\s*\(?\s*Former name", re.I)


def _us(pages: list[Page], info: DocumentInfo) -> list[IssuerName]:
    out = []
    for p in pages[:3]:
        for m in _SYMBOL_ROW.finditer(p.text):
            out.append(IssuerName(kind="ticker", text=m.group(1), page=p.page))
        m = _FORMER.search("\n" + p.text)
        if m and not _NONE.match(m.group(1).strip(" ()")) and not re.search(r"\d{3}|Indicate|N/A", m.group(1)):
            out.append(IssuerName(kind="former_name", text=_clean(m.group(1)), page=p.page))
        if info.company_name and info.company_name in p.text and not any(n.kind == "name_en" for n in out):
            out.append(IssuerName(kind="name_en", text=info.company_name, page=p.page))
    return out


# ------------------------------------------------------------------------------------------------ entry
def _page_of(pages: list[Page], text: str) -> int | None:
    return next((p.page for p in pages if text in p.text), None)


def issuer_names(info: DocumentInfo, pages: list[Page], extra: list[IssuerName] = ()) -> list[IssuerName]:
    """Every name form the report prints about its issuer, first occurrence of each (kind, text) kept."""
    found: list[IssuerName] = list(extra)
    if info.market == "A":
        found += _a_share(pages)
    elif info.market == "HK":
        found += _hk(pages)
    elif info.market == "US":
        found += _us(pages, info)
    if info.stock_code:
        found.append(IssuerName(kind="ticker" if info.market == "US" else "code", text=info.stock_code,
                                page=_page_of(pages[:HEAD_PAGES], info.stock_code.removesuffix(".HK").lstrip("0"))))
    return dedupe(found)


def dedupe(names: list[IssuerName]) -> list[IssuerName]:
    """Each (kind, text) once; a text printed as a former name is only that (a cover that prints "formerly
    known as X" next to X may lead a heuristic to read X as the current name)."""
    out: list[IssuerName] = []
    seen: set[tuple[str, str]] = set()
    former = {_clean(n.text).casefold() for n in names if n.kind == "former_name"}
    for n in names:
        text = _clean(n.text)
        if not text or _NONE.match(text) or len(text) > 120:
            continue
        if n.kind != "former_name" and text.casefold() in former:
            continue
        key = (n.kind, text.casefold())
        if key not in seen:
            seen.add(key)
            out.append(n.model_copy(update={"text": text}))
    return out


def dei_names(facts: list[Fact]) -> list[IssuerName]:
    """An XBRL filing's cover (dei): registrant name, former name, trading symbols, CIK."""
    kinds = {"EntityRegistrantName": "name_en", "EntityFormerLegalOrRegisteredName": "former_name",
             "TradingSymbol": "ticker", "EntityCentralIndexKey": "cik"}
    out = []
    for f in facts:
        local = (f.concept or "").split(":")[-1]
        if local in kinds and (f.concept or "").startswith("dei") and (f.value_text or "").strip():
            text = f.value_text.strip()
            if local == "TradingSymbol":
                text = text.upper()
            if local == "EntityCentralIndexKey" and text.isdigit():
                text = text.zfill(10)
            out.append(IssuerName(kind=kinds[local], text=text, page=f.page))
    return dedupe(out)
