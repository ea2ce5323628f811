"""Inline XBRL transformation functions: arelle's registry for ``ixt:`` plus the SEC ``ixt-sec`` set.

arelle-release ships the XBRL International transformation registries (TR1-TR5: ``num-dot-decimal``,
``fixed-zero``, ``date-monthname-day-year-en``, ...) in ``arelle.FunctionIxt``; we call those. The SEC
registry (``http://www.sec.gov/inlineXBRL/transformation/2015-08-31``: ``numwordsen``, ``duryear``,
``durwordsen``, ``boolballotbox``, ``exchnameen``, ``stateprovnameen`` ...) lives in the separate EDGAR
plugin, which is not part of arelle-release, so arelle offline marks those facts invalid
(``invalidTransformation``). They are implemented here from the EDGAR Filer Manual descriptions.

``transform(namespace, name, text)`` returns the XBRL lexical value or raises :class:`TransformError`.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from arelle import FunctionIxt

SEC_NAMESPACES = frozenset(
    {
        "http://www.sec.gov/inlineXBRL/transformation/2015-08-31",
        "http://www.sec.gov/inlineXBRL/transformation/2019-01-31",  # never published, seen in drafts
    }
)


class TransformError(ValueError):
    pass


# ---------------------------------------------------------------- number words

_ONES = {
    "zero": 0, "no": 0, "none": 0, "nil": 0, "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "both": 2,
    "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
           "trillion": 1_000_000_000_000}
_NUM = re.compile(r"^[+-]?\d+(?:\.\d+)?$")


def _words_to_number(words: list[str]) -> Decimal:
    """English number words ("two", "twenty five", "one hundred and six") to a Decimal."""
    if not words:
        raise TransformError("no number")
    if len(words) == 1 and _NUM.match(words[0]):
        return Decimal(words[0])
    total = 0
    current = 0
    seen = False
    for w in words:
        if w == "and":
            continue
        if _NUM.match(w):
            current += int(Decimal(w))
        elif w in _ONES:
            current += _ONES[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _SCALES:
            total += max(current, 1) * _SCALES[w]
            current = 0
        else:
            raise TransformError(f"not a number word: {w!r}")
        seen = True
    if not seen:
        raise TransformError("no number")
    return Decimal(total + current)


def _tokens(arg: str) -> list[str]:
    return [t for t in re.split(r"[\s\-,]+", arg.strip().lower().replace("\u2011", "-")) if t]


def numwordsen(arg: str) -> str:
    toks = _tokens(arg)
    return format(_words_to_number(toks), "f")


# ---------------------------------------------------------------- durations


def _duration(years: Decimal = Decimal(0), months: Decimal = Decimal(0), days: Decimal = Decimal(0),
              hours: Decimal = Decimal(0)) -> str:
    """xs:duration from (possibly fractional) components, cascading fractions downwards."""
    neg = any(x < 0 for x in (years, months, days, hours))
    years, months, days, hours = (abs(x) for x in (years, months, days, hours))
    y = int(years)
    months += (years - y) * 12
    m = int(months)
    days += (months - m) * Decimal("30.4375")
    d = int(days)
    hours += (days - d) * 24
    h = hours.quantize(Decimal("0.01")).normalize() if hours else Decimal(0)
    out = "-P" if neg else "P"
    if y:
        out += f"{y}Y"
    if m:
        out += f"{m}M"
    if d:
        out += f"{d}D"
    if h:
        out += f"T{format(h, 'f')}H"
    if out in ("P", "-P"):
        out = "P0D"
    return out


def _num(arg: str) -> Decimal:
    s = arg.strip().replace(",", "")
    try:
        return Decimal(s)
    except InvalidOperation:
        return _words_to_number(_tokens(arg))


def duryear(arg: str) -> str:
    return _duration(years=_num(arg))


def durmonth(arg: str) -> str:
    return _duration(months=_num(arg))


def durweek(arg: str) -> str:
    return _duration(days=_num(arg) * 7)


def durday(arg: str) -> str:
    return _duration(days=_num(arg))


def durhour(arg: str) -> str:
    return _duration(hours=_num(arg))


_UNIT_WORDS = {"year": "Y", "years": "Y", "yr": "Y", "yrs": "Y", "month": "M", "months": "M",
               "week": "W", "weeks": "W", "day": "D", "days": "D"}


def durwordsen(arg: str) -> str:
    """"five years", "three-year", "one year and six months", "thirty-six months", "2 years" -> xs:duration."""
    toks = _tokens(arg)
    parts = {"Y": Decimal(0), "M": Decimal(0), "D": Decimal(0)}
    pending: list[str] = []
    found = False
    for t in toks:
        if t in _UNIT_WORDS:
            n = _words_to_number(pending) if pending else Decimal(1)
            u = _UNIT_WORDS[t]
            if u == "W":
                parts["D"] += n * 7
            else:
                parts[u] += n
            pending = []
            found = True
        elif t in ("and", "a", "an", "of", "period") and not pending:
            continue
        else:
            pending.append(t)
    if not found:
        raise TransformError(f"no duration in {arg!r}")
    return _duration(years=parts["Y"], months=parts["M"], days=parts["D"])


# ---------------------------------------------------------------- booleans, names


def boolballotbox(arg: str) -> str:
    s = arg.strip()
    if s in ("\u2610",):
        return "false"
    if s in ("\u2611", "\u2612", "\u2713", "\u2714", "\u2717", "\u2718"):
        return "true"
    raise TransformError(f"not a ballot box: {arg!r}")


def yesnoballotbox(arg: str) -> str:
    return "Yes" if boolballotbox(arg) == "true" else "No"


def _norm(arg: str) -> str:
    s = re.sub(r"[^a-z0-9 ]+", " ", arg.lower())
    s = re.sub(r"\b(the|inc|llc|l l c|corporation)\b", " ", s)
    return " ".join(s.split())


def exchnameen(arg: str) -> str:
    s = _norm(arg)
    rules = [
        ("arca", "NYSEArca"), ("nyse american", "NYSEAMER"), ("nyse mkt", "NYSEAMER"), ("american stock", "NYSEAMER"),
        ("nyse texas", "NYSETEXAS"), ("new york stock exchange", "NYSE"), ("nyse", "NYSE"), ("nasdaq", "NASDAQ"),
        ("bzx", "CboeBZX"), ("byx", "CboeBYX"), ("edga", "CboeEDGA"), ("edgx", "CboeEDGX"), ("cboe", "CBOE"),
        ("chicago board options", "CBOE"), ("chicago stock exchange", "CHX"), ("iex", "IEX"),
        ("investors exchange", "IEX"), ("miax", "MIAX"), ("boston", "BOX"), ("long term stock", "LTSE"),
        ("philadelphia", "Phlx"), ("phlx", "Phlx"), ("24x", "24X"),
    ]
    for key, code in rules:
        if key in s:
            return code
    raise TransformError(f"unknown exchange name: {arg!r}")


_STATES = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
    "connecticut": "CT", "delaware": "DE", "district of columbia": "DC", "florida": "FL", "georgia": "GA",
    "hawaii": "HI", "idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS",
    "kentucky": "KY", "louisiana": "LA", "maine": "ME", "maryland": "MD", "massachusetts": "MA",
    "michigan": "MI", "minnesota": "MN", "mississippi": "MS", "missouri": "MO", "montana": "MT",
    "nebraska": "NE", "nevada": "NV", "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM",
    "new york": "NY", "north carolina": "NC", "north dakota": "ND", "ohio": "OH", "oklahoma": "OK",
    "oregon": "OR", "pennsylvania": "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD",
    "tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT", "virginia": "VA", "washington": "WA",
    "west virginia": "WV", "wisconsin": "WI", "wyoming": "WY", "puerto rico": "PR", "guam": "GU",
    "virgin islands": "VI", "american samoa": "AS", "northern mariana islands": "MP",
    "alberta": "AB", "british columbia": "BC", "manitoba": "MB", "new brunswick": "NB",
    "newfoundland and labrador": "NL", "newfoundland": "NL", "nova scotia": "NS", "ontario": "ON",
    "prince edward island": "PE", "quebec": "QC", "saskatchewan": "SK", "yukon": "YT",
    "northwest territories": "NT", "nunavut": "NU",
}


def stateprovnameen(arg: str) -> str:
    s = " ".join(re.sub(r"[^a-z ]+", " ", arg.lower().replace("état", "etat")).split())
    s = s.removeprefix("state of ").removeprefix("commonwealth of ")
    if s in _STATES:
        return _STATES[s]
    raise TransformError(f"unknown state or province: {arg!r}")


_COUNTRIES = {
    "united states": "US", "united states of america": "US", "usa": "US", "canada": "CA",
    "united kingdom": "GB", "england": "GB", "ireland": "IE", "netherlands": "NL", "the netherlands": "NL",
    "japan": "JP", "china": "CN", "people s republic of china": "CN", "switzerland": "CH", "germany": "DE",
    "france": "FR", "bermuda": "BM", "cayman islands": "KY", "israel": "IL", "luxembourg": "LU",
    "singapore": "SG", "hong kong": "HK", "taiwan": "TW", "india": "IN", "australia": "AU", "brazil": "BR",
    "mexico": "MX", "jersey": "JE", "guernsey": "GG", "british virgin islands": "VG", "panama": "PA",
    "marshall islands": "MH", "south korea": "KR", "korea": "KR", "sweden": "SE", "denmark": "DK",
    "norway": "NO", "finland": "FI", "belgium": "BE", "spain": "ES", "italy": "IT", "argentina": "AR",
    "chile": "CL", "colombia": "CO", "peru": "PE", "south africa": "ZA", "greece": "GR", "cyprus": "CY",
}


def countrynameen(arg: str) -> str:
    s = " ".join(re.sub(r"[^a-z ]+", " ", arg.lower()).split())
    if s in _COUNTRIES:
        return _COUNTRIES[s]
    raise TransformError(f"unknown country: {arg!r}")


def entityfilercategoryen(arg: str) -> str:
    s = " ".join(re.sub(r"[^a-z ]+", " ", arg.lower()).split())
    if s.startswith("large accelerated"):
        return "Large Accelerated Filer"
    if s.startswith("non accelerated") or s.startswith("nonaccelerated"):
        return "Non-accelerated Filer"
    if s.startswith("accelerated"):
        return "Accelerated Filer"
    raise TransformError(f"unknown filer category: {arg!r}")


def numinf(arg: str) -> str:
    return "INF"


def numneginf(arg: str) -> str:
    return "-INF"


def numnan(arg: str) -> str:
    return "NaN"


SEC_FUNCTIONS = {
    "numwordsen": numwordsen,
    "duryear": duryear,
    "durmonth": durmonth,
    "durweek": durweek,
    "durday": durday,
    "durhour": durhour,
    "durwordsen": durwordsen,
    "boolballotbox": boolballotbox,
    "yesnoballotbox": yesnoballotbox,
    "exchnameen": exchnameen,
    "stateprovnameen": stateprovnameen,
    "countrynameen": countrynameen,
    "entityfilercategoryen": entityfilercategoryen,
    "numinf": numinf,
    "numneginf": numneginf,
    "numnan": numnan,
}


def transform(namespace: str | None, name: str, text: str) -> str:
    """Apply the transformation ``{namespace}name`` to the displayed ``text``."""
    if namespace in FunctionIxt.ixtNamespaceFunctions:
        fn = FunctionIxt.ixtNamespaceFunctions[namespace].get(name)
        if fn is None:
            raise TransformError(f"unknown transformation {name} in {namespace}")
        try:
            return fn(text)
        except Exception as err:  # arelle raises its own XPathException / ValueError kinds
            raise TransformError(f"{name}: cannot transform {text!r}: {err}") from None
    if namespace in SEC_NAMESPACES:
        fn = SEC_FUNCTIONS.get(name)
        if fn is None:
            raise TransformError(f"unsupported SEC transformation ixt-sec:{name}")
        try:
            return fn(text)
        except TransformError:
            raise
        except Exception as err:
            raise TransformError(f"ixt-sec:{name}: cannot transform {text!r}: {err}") from None
    raise TransformError(f"unknown transformation namespace {namespace}")
