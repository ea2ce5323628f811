"""Companies named in a question: names and short names (English, Chinese), names and former names printed
in the filings, tickers as whole words, A-share codes, HK codes in every spelling, CIKs. One company with
several listings resolves to the company. Words shared by many legal names ("Technology", "Bank",
"Companies") never identify a company on their own, and a name two companies answer to identifies neither.

The lexicon is built from the warehouse: the master (mappings/companies.yaml), listings, companies met in
filings and every name form the filings print about their issuer (``aliases`` with a document source).
Matching runs on folded text (NFKC, Simplified Chinese), so 藥明康德 and 药明康德 are one name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import duckdb

from mappings.companies import alias_key, normalise_code
from mappings.vocabulary import fold, generic_company_words, longest_first
from schema.models import CompanyRef

_LEGAL = re.compile(
    r"[,.]?\s*\b(?:inc|incorporated|corp|corporation|co|company|ltd|limited|plc|holdings?|group|the|n\.?v|s\.?a|ag|llc|"
    r"international)\b\.?", re.I)
_LEGAL_ZH = re.compile(r"(?:股份有限公司|有限责任公司|有限公司|（[^）]{1,8}）|\([^)]{1,8}\)|集团|控股|国际)+$")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# a number followed by a unit is an amount, a date or a count, not a listing code ("2,359 million", "600股"); 年度 and
# 年内 (the year's, within the year) begin words after a code ("03928年度亏损"; a year is never read as a code), 股本 / 股东 / 股利 / 股息 / 股价 / 股份 / 股票 (share capital, shareholders, dividends, price, shares) begin words
_UNIT_AFTER = re.compile(r"^\s*(?:million|billion|thousand|m\b|bn\b|k\b|%|万|亿|元|港元|美元|股(?![本东权利息价份票])|年(?![内度])|月|日|个|家|季)",
                         re.I)
_HK_CONTEXT = re.compile(r"(?:\.HK\b|\bHK\b|港股|H股|港交所|联交所|stock code|股份代号|股票代码|SEHK|HKEX)", re.I)
# A listing code as users write it: 600080, 600080.SH, SH600080, 0700.HK, 00700, HK0700, HK:700, 700 HK, SEHK:700
_CODE = re.compile(r"(?<![A-Za-z0-9_.])(?:(?:HKEX|SEHK|HK|SH|SZ|SS)\s?[:.]?\s?)?(\d{1,6})(?:\s?\.?(?:HK|SH|SZ|SS)|\s(?:HK|HKEX)\b)?"
                   r"(?![A-Za-z0-9_])", re.I)  # Chinese may touch a code on either side: 2024年SH600080营收
_EXPLICIT_CODE = re.compile(r"^(?:HKEX|SEHK|HK|SH|SZ|SS)|(?:HK|SH|SZ|SS|HKEX)$", re.I)
# A ticker as users write it: AAPL, $AAPL, NASDAQ:AAPL, NYSE: T, AAPL US, AAPL.O (Reuters), Apple's AAPL
_TICKER = re.compile(r"(?<![A-Za-z0-9&$.])(\$|(?:NASDAQ|NYSE|AMEX|NYSEAMERICAN)\s?:\s?)?([A-Z][A-Z.\-]{0,5}?)"
                     r"(?:\.(?:O|N|OQ|K))?(?:['’]s)?(?![A-Za-z&])")  # digits may follow: WFC2024年
_CIK = re.compile(r"\bCIK\s*(?:#|no\.?|number)?\s*[:：]?\s*(\d{1,10})\b", re.I)
# Whole-word bounds of a Latin name: no letter on either side; digits only where the name itself does not end
# (or start) with one, so "Activision2023年" is Activision but "3M2024" is not 3M.
LATIN_BEFORE = r"(?<![A-Za-z&])(?<![0-9](?=[0-9]))"
LATIN_AFTER = r"(?![A-Za-z&])(?<![0-9](?=[0-9]))"
ABBREVIATION_MAX = 6  # an all-capitals printed abbreviation (GINWA, PAB) this short is matched like a ticker


@dataclass(frozen=True)
class Entry:
    company_id: str
    text: str  # folded, case-folded
    via: str  # name, alias, ticker, code
    exact_case: str | None = None  # single-word names derived from a legal name match only capitalised


@dataclass
class Lexicon:
    names: list[Entry]  # matched case-insensitively as whole words (CJK: as substrings), longest first
    tickers: dict[str, str]  # US ticker / short capital abbreviation -> company_id (case-sensitive whole word)
    codes: dict[str, str]  # normalised A/HK code -> company_id
    ciks: dict[str, str] = field(default_factory=dict)  # ten-digit CIK -> company_id
    _latin: re.Pattern | None = None

    def latin_pattern(self) -> re.Pattern | None:
        if self._latin is None:
            latin = longest_first({e.text for e in self.names if not _CJK.search(e.text)})
            if latin:
                self._latin = re.compile(LATIN_BEFORE + r"(?:" + "|".join(re.escape(t) for t in latin) + r")" + LATIN_AFTER)
        return self._latin


def short_name(name: str) -> str | None:
    """A legal name without its legal-form words: "Apple Inc." -> "Apple", "金花企业（集团）股份有限公司" -> "金花企业"."""
    if _CJK.search(name):
        short = _LEGAL_ZH.sub("", fold(name)).strip()
        return short if short and short != fold(name) and len(short) >= 2 else None
    short = re.sub(r"\([^)]*\)", " ", fold(name))
    short = _LEGAL.sub(" ", short)
    short = re.sub(r"\s+", " ", short).strip(" ,.&")
    return short if short and short.lower() != name.lower() else None


# the ways a Latin name is written besides its printed form: "S&T Holdings" as "ST Holdings" and "S and T Holdings",
# "Hong Kong Finance" as "HK Finance", "Eco-Tek" as "EcoTek" and "Eco Tek"
_WRITTEN = ((re.compile(r"\s*&\s*"), ("", " and ")), (re.compile(r"\bhong kong\b"), ("hk",)), (re.compile(r"\bhk\b"), ("hong kong",)),
            (re.compile(r"(?<=\w)-(?=\w)"), ("", " ")))


def written_forms(name: str) -> list[str]:
    """A folded Latin name's other common spellings (one change each), without the name itself."""
    if _CJK.search(name):
        return []
    return [v for pattern, replacements in _WRITTEN if pattern.search(name)
            for v in dict.fromkeys(re.sub(r"\s+", " ", pattern.sub(r, name)).strip() for r in replacements) if v != name]


def _usable(alias: str) -> bool:
    key = alias_key(fold(alias))
    words = re.findall(r"[\w&'-]+", key)
    generic = generic_company_words()
    # words shared by many legal names identify no company, unless three or more of them make one's name together
    # ("Hong Kong Finance Investment")
    if not words or (all(w in generic for w in words) and len(words) < 3) or key in generic:
        return False
    if re.fullmatch(r"\d+", key):
        return False
    if _CJK.search(key):
        return len(key) >= 2
    return len(key) >= 3 or (len(key) == 2 and any(ch.isdigit() for ch in key))  # "3M" names a company


def build_lexicon(con: duckdb.DuckDBPyConnection) -> Lexicon:
    names: dict[tuple[str, str], Entry] = {}
    tickers: dict[str, set[str]] = {}
    codes: dict[str, set[str]] = {}
    ciks: dict[str, str] = {}

    def add(company_id: str, text: str | None, via: str, derived: bool = False) -> None:
        if not text or not _usable(text):
            return
        folded = alias_key(fold(text))
        exact = None
        if derived and not _CJK.search(folded) and len(folded.split()) == 1:
            exact = fold(text).strip()  # "Square" from "SQUARE, INC.": not the word "square"
        names.setdefault((folded, company_id), Entry(company_id, folded, via, exact))
        for form in written_forms(folded):
            if _usable(form):
                names.setdefault((form, company_id), Entry(company_id, form, via))

    for alias, company_id, kind in con.execute("SELECT alias, company_id, kind FROM aliases").fetchall():
        if kind in ("code", "ticker"):
            code = normalise_code(alias)
            if code and (code.endswith(".HK") or code.isdigit()):
                codes.setdefault(code, set()).add(company_id)
            elif code:
                tickers.setdefault(code, set()).add(company_id)
            continue
        if kind == "cik":
            ciks[alias.zfill(10)] = company_id
            continue
        if kind == "abbreviation" and re.fullmatch(r"[A-Z][A-Z0-9&]{1,%d}" % (ABBREVIATION_MAX - 1), alias.strip()):
            tickers.setdefault(alias.strip(), set()).add(company_id)
            continue
        add(company_id, alias, "alias" if kind == "alias" else "name")
        if kind in ("name_en", "name_zh", "former_name"):
            add(company_id, short_name(alias), "name", derived=True)
    for company_id, name_en, name_zh, cik in con.execute(
            "SELECT company_id, name_en, name_zh, cik FROM companies").fetchall():
        for n in (name_en, name_zh):
            add(company_id, n, "name")
            if n:
                add(company_id, short_name(n), "name", derived=True)
        if cik:
            ciks[cik.zfill(10)] = company_id
    for code, company_id, market in con.execute("SELECT stock_code, company_id, market FROM securities").fetchall():
        (tickers if market == "US" else codes).setdefault(code, set()).add(company_id)
    # an abbreviation that is the first word of the company's own name ("GINWA" of "Ginwa Enterprise") is also
    # that name written as a word: "Ginwa" and "GINWA", never the lower-case word
    starts = {(key.split()[0], cid) for key, cid in names if not _CJK.search(key) and len(key.split()) > 1}
    for abbreviation, owners_of in list(tickers.items()):
        if len(abbreviation) >= 4 and abbreviation.isalpha():
            for cid in owners_of:
                if (abbreviation.casefold(), cid) in starts:
                    names.setdefault((abbreviation.casefold(), cid), Entry(cid, abbreviation.casefold(), "name", abbreviation))
    # a name, code or ticker that names two companies identifies neither
    owners: dict[str, set[str]] = {}
    for key, company_id in names:
        owners.setdefault(key, set()).add(company_id)
    entries = [e for (key, _), e in names.items() if len(owners[key]) == 1]
    entries.sort(key=lambda e: -len(e.text))
    return Lexicon(entries, {t: next(iter(c)) for t, c in tickers.items() if len(c) == 1},
                   {k: next(iter(c)) for k, c in codes.items() if len(c) == 1}, ciks)


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < b and a < span[1] for a, b in taken)


def _code_of(m: re.Match, text: str) -> str | None:
    """The listing code a number in a question is, if it is one (years and amounts are numbers too)."""
    raw, digits = m.group(0), m.group(1)
    after = text[m.end():]
    explicit = bool(_EXPLICIT_CODE.search(raw.strip()))
    if not explicit and (_UNIT_AFTER.match(after) or re.match(r"^\s*[-–~至到]\s*\d", after) or re.match(r"^[.,]\d", after)):
        return None
    if len(digits) == 6:
        return digits
    if len(digits) in (4, 5) and (digits.startswith("0") or explicit):
        return normalise_code(digits)
    if len(digits) == 4 and not re.fullmatch(r"(19|20)\d\d", digits):
        return normalise_code(digits)  # 1161, 2359: not a year, no unit after it
    if len(digits) <= 3 and (explicit or _HK_CONTEXT.search(text[max(0, m.start() - 12): m.end() + 12])):
        return normalise_code(digits)
    return None


def _positions(text: str, word: str) -> list[int]:
    """Every place ``word`` starts in ``text`` (overlapping ones too)."""
    out, at = [], text.find(word)
    while at != -1:
        out.append(at)
        at = text.find(word, at + 1)
    return out


def find_companies(question: str, lex: Lexicon) -> list[CompanyRef]:
    text = fold(question)
    lower = text.casefold()
    found: list[tuple[int, CompanyRef]] = []
    taken: list[tuple[int, int]] = []

    def hit(start: int, end: int, company_id: str, via: str) -> None:
        if _overlaps((start, end), taken):
            return
        taken.append((start, end))
        found.append((start, CompanyRef(company_id=company_id, matched=text[start:end].strip(), via=via)))

    for m in _CIK.finditer(text):
        cid = lex.ciks.get(m.group(1).zfill(10))
        if cid:
            hit(m.start(), m.end(), cid, "cik")
    for m in _CODE.finditer(text):
        code = _code_of(m, text)
        if code and code in lex.codes:
            hit(m.start(), m.end(), lex.codes[code], "code")
    # names, longest first: CJK as substrings (of two as long that overlap, the one read first: 金宇生物股份回购 is
    # 金宇生物 and 股份回购, not 生物股份), Latin as whole words through one alternation
    cjk = [(start, entry) for entry in lex.names if entry.text in lower and _CJK.search(entry.text)
           for start in _positions(lower, entry.text)]
    for start, entry in sorted(cjk, key=lambda x: (-len(x[1].text), x[0])):
        hit(start, start + len(entry.text), entry.company_id, entry.via)
    pattern = lex.latin_pattern()
    if pattern is not None:
        by_text: dict[str, list[Entry]] = {}
        for e in lex.names:
            by_text.setdefault(e.text, []).append(e)
        for m in pattern.finditer(lower):
            for e in by_text.get(m.group(0), []):
                original = text[m.start():m.end()]
                if e.exact_case and original not in (e.exact_case, e.exact_case.title(), e.exact_case.upper()):
                    continue
                hit(m.start(), m.end(), e.company_id, e.via)
    # tickers: case-sensitive whole words (AT&T's T never matches "discussed"; DIS only as DIS)
    for m in _TICKER.finditer(text):
        ticker = m.group(2)
        if ticker in lex.tickers and (len(ticker) > 1 or m.group(1) or m.group(0).endswith(("'s", "’s"))):
            hit(m.start(2), m.end(2), lex.tickers[ticker], "ticker")
    found.sort(key=lambda x: x[0])
    out: list[CompanyRef] = []
    for _, ref in found:
        if all(ref.company_id != r.company_id for r in out):
            out.append(ref)
    return out



# A company the question is about but the warehouse does not know: named as the subject ("Tencent's revenue", "What
# did Tencent say", "贵州茅台2024年...", "贵州茅台2024财年", "贵州茅台截至2024年...") while no company of the warehouse is named. Kept narrow on purpose: a name
# the warehouse does not know is refused only where the question's grammar makes it the company asked about, and
# never a word of ``not_company_words`` (question words, roles, places: "What's", "Management's", "China's").
_SUBJECT_EN = re.compile(r"(?:^|[\s(\"“])([A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3})['’]s\b"
                         r"|\b(?:did|does|do|has|have|will)\s+([A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3})\s+"
                         r"(?:say|said|describe|discuss|mention|report|disclose|expect|explain|plan)\b")
_SUBJECT_ZH = re.compile(r"^\s*([\u4e00-\u9fff]{2,8}?)\s*(?:截至|截止|于|在)?\s*(?:19|20)\d\d\s*(?:年|财年|財年|Q[1-4]|H1)", re.I)


def unknown_subject(question: str, never: frozenset[str]) -> str | None:
    """The name a question asks about as its subject, for a question that names no company of the warehouse (the
    caller checks that), or None. ``never``: words that are never a company name on their own."""
    text = fold(question)
    for m in _SUBJECT_EN.finditer(text):
        name = (m.group(1) or m.group(2) or "").strip()
        if name and not all(w.casefold().strip(".-&") in never for w in name.split()):
            return name
    m = _SUBJECT_ZH.match(text)
    if m and m.group(1) not in never:
        return m.group(1)
    return None


# A name joined to a company the question names ("波音与洛克希德·马丁", "Apple and Samsung"): a peer asked beside it
_JOIN_ZH = r"(?:与|和|及|跟|同|、|对比|相比|(?i:vs\.?|versus))"
_PEER_ZH = r"([\u4e00-\u9fff][\u4e00-\u9fff·・]{1,9}?)(?=\s*(?:(?:19|20)\d\d|FY|Q[1-4]|H[12]|的|在|于|截至|截止|分别|各自|哪|谁|[,，。？?]|$))"
_PEER_EN = r"((?:[A-Z][\w&.'’-]*)(?:\s+[A-Z][\w&.'’-]*){0,3})"


def unknown_peer(question: str, companies: list[CompanyRef], lex: Lexicon, never: frozenset[str],
                 other=lambda name: False) -> str | None:
    """A name joined to a named company by "and" / 与 / vs that no company of the warehouse answers to, or None: a
    comparison whose other side is not in the warehouse must say so, never answer one side as if it were both.
    ``never``: words that are never a company; ``other(name)``: is it something else (a metric's name)?"""
    text = fold(question)
    for ref in companies:
        name = re.escape(ref.matched or "")
        if not name:
            continue
        for m in [*re.finditer(rf"(?i:{name})\s*{_JOIN_ZH}\s*{_PEER_ZH}", text),
                  *re.finditer(rf"(?i:{name})(?:['’]s?)?\s+(?i:and|vs\.?|versus|or)\s+{_PEER_EN}", text)]:
            peer = (m.group(1) or m.group(2) or "").strip()
            words = peer.casefold().split()
            if not peer or find_companies(peer, lex) or all(w.strip(".'’") in never for w in words) or other(peer) \
                    or re.match(r"^(?:其|该|本|各|所有|同行|同业)", peer):
                continue
            return peer
    return None
