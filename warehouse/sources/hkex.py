"""HKEXnews (披露易): code -> stockId (``prefix.do``, JSONP, prefix matches filtered to the exact code),
the title search (``titleSearchServlet.do``, whose ``result`` is a JSON string inside the JSON) per report
category (annual / interim / quarterly reports, results announcements) and language (English ``.pdf``,
Chinese ``_c.pdf``). Dual counters (``00700<br/>80700``) are one listing: a row belongs to the watched code
when that code is among its counters."""

from __future__ import annotations

import datetime as dt
import html
import json
import re

from mappings.companies import normalise_code
from mappings.sources import vocabulary
from warehouse.sources.base import Filing, Listing, RemoteFile, Skip, Source, SourceError, UnknownCompany, closest, safe_name, within
from warehouse.sources.http import Http, HttpError
from warehouse.sources.verify import Expect

HK_TIME = dt.timezone(dt.timedelta(hours=8))
ROW_RANGE = 100  # rows the servlet returns per answer unless asked for more
MAX_ROWS = 2000  # the most rows re-requested when an answer says hasNextRow
MARKETS = ("SEHK", "GEM")  # main board, then GEM, for the stock-id lookup
_JSONP = re.compile(r"^\s*[\w$.]*\((.*)\)\s*;?\s*$", re.S)
_SIZE = re.compile(r"([\d.]+)\s*(KB|MB|GB)", re.I)
_CN_DIGITS = str.maketrans("〇零○一二三四五六七八九", "00012345678" + "9")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
LANG_PARAM = {"en": "EN", "zh": "ZH"}


def _five(code: str) -> str:
    return code.removesuffix(".HK").zfill(5)


def _size(text: str) -> int | None:
    m = _SIZE.search(text or "")
    if not m:
        return None
    return int(float(m.group(1)) * {"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[m.group(2).upper()])


def title_year(title: str) -> int | None:
    """The report's year as its title prints it: "ANNUAL REPORT 2025", "截至二零二四年十二月三十一日止年度"."""
    years = _YEAR.findall(title.translate(_CN_DIGITS))
    return int(years[-1]) if years else None


class HkexNews(Source):
    name = "hkex"
    market = "HK"

    def __init__(self, config, cache_dir, http: Http | None = None):
        base = config.hkex.base_url.rstrip("/")
        headers = {"User-Agent": config.user_agent or "filings-warehouse/0.1", "Accept": "application/json, */*",
                   "Referer": f"{base}/search/titlesearch.xhtml"}
        super().__init__(config, cache_dir, http or Http("hkex", config.hkex.rate, headers, config.timeout,
                                                         config.retries, config.backoff))
        self.base = base
        self._warm = False

    def _prefix(self, code5: str, market: str) -> list[dict]:
        response = self.http.get(f"{self.base}/search/prefix.do",
                                 params={"callback": "callback", "lang": "EN", "type": "A", "name": code5,
                                         "market": market})
        m = _JSONP.match(response.text)
        try:
            data = json.loads(m.group(1) if m else response.text)
        except ValueError:
            raise SourceError(f"{response.url}: stock lookup answer is not JSONP ({response.text[:60]!r})") from None
        rows = data.get("stockInfo") if isinstance(data, dict) else None
        return [r for r in rows or [] if isinstance(r, dict)]

    def active_stocks(self) -> list[dict]:
        """HKEX's list of active stocks ({i: stockId, c: code, n: name}), for names and close matches."""
        data = self.reference("activestock_sehk_e.json", f"{self.base}/ncms/script/eds/activestock_sehk_e.json")
        return [r for r in data if isinstance(r, dict) and r.get("c")] if isinstance(data, list) else []

    def resolve(self, query: str) -> Listing:
        q = query.strip()
        code = normalise_code(q)
        if code and code.endswith(".HK"):
            code5 = _five(code)
            candidates: list[dict] = []
            for market in MARKETS:
                rows = self._prefix(code5, market)
                exact = next((r for r in rows if str(r.get("code")) == code5 and r.get("stockId")), None)
                if exact:
                    return Listing("HK", code, str(exact.get("name") or "") or None, str(exact["stockId"]))
                candidates += rows
            suggestions = [f"{int(r['code']):04d}.HK ({r.get('name')})" for r in candidates
                           if str(r.get("code", "")).isdigit()][:5]
            raise UnknownCompany(query, "HKEXnews (stock code lookup)", suggestions)
        try:
            stocks = self.active_stocks()
        except SourceError:
            stocks = []
        hit = next((r for r in stocks if str(r.get("n", "")).casefold() == q.casefold()), None)
        if hit and str(hit.get("c", "")).isdigit():
            return Listing("HK", f"{int(hit['c']):04d}.HK", str(hit["n"]), str(hit["i"]))
        choices = {str(r["n"]): f"{int(r['c']):04d}.HK ({r['n']})" for r in stocks
                   if r.get("n") and str(r.get("c", "")).isdigit()}
        raise UnknownCompany(query, "HKEXnews (active stock list)", closest(q, choices))

    def _warm_up(self) -> None:
        """Open the title-search page once, as a browser would: HKEXnews has answered the servlet with empty
        bodies to clients without its cookies (edgarpack's notes, 2026-07); a failure here is not an error."""
        if not self._warm:
            self._warm = True
            try:
                self.http.get(f"{self.base}/search/titlesearch.xhtml", params={"lang": "en"})
            except HttpError:
                pass

    def _search(self, listing: Listing, since: dt.date, query: dict[str, int], lang: str) -> list[dict]:
        self._warm_up()
        today = dt.date.today()
        params = {"sortDir": 0, "sortByOptions": "DateTime", "category": 0, "market": "SEHK",
                  "stockId": listing.key, "documentType": -1, **query, "title": "", "searchType": 1,
                  "lang": LANG_PARAM[lang], "fromDate": since.strftime("%Y%m%d"), "toDate": today.strftime("%Y%m%d"),
                  "from": since.strftime("%Y%m%d"), "to": today.strftime("%Y%m%d"), "MB-Daterange": 0,
                  "rowRange": ROW_RANGE}
        url = f"{self.base}/search/titleSearchServlet.do"
        data = self.http.json("GET", url, params=params)
        if isinstance(data, dict) and data.get("hasNextRow") and int(data.get("recordCnt") or 0) > ROW_RANGE:
            params["rowRange"] = min(int(data["recordCnt"]), MAX_ROWS)
            data = self.http.json("GET", url, params=params)
        if not isinstance(data, dict):
            raise SourceError(f"{url}: expected a JSON object")
        result = data.get("result")
        if result in (None, "", "null"):
            return []
        try:
            rows = json.loads(result) if isinstance(result, str) else result
        except ValueError:
            raise SourceError(f"{url}: 'result' is not a JSON list ({str(result)[:60]!r})") from None
        return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []

    def filings(self, listing, since, kinds, languages):
        vocab = vocabulary()
        code5 = _five(listing.code)
        out: list[Filing] = []
        skips: list[Skip] = []
        seen: set[str] = set()
        queries: dict[tuple, list[str]] = {}
        for kind in kinds:
            queries.setdefault(tuple(sorted(vocab.hkex_queries[kind].items())), []).append(kind)
        for lang in languages:
            for query, wanted in queries.items():
                for row in self._search(listing, since, dict(query), lang):
                    filing = self._filing(row, listing, code5, lang, wanted, since, vocab, skips)
                    if filing and filing.source_id not in seen:
                        seen.add(filing.source_id)
                        out.append(filing)
        return out, skips

    def _filing(self, row, listing, code5, lang, wanted, since, vocab, skips) -> Filing | None:
        codes = [c.strip() for c in str(row.get("STOCK_CODE") or "").split("<br/>")]
        news_id = str(row.get("NEWS_ID") or "")
        if code5 not in codes or not news_id:
            return None
        category = html.unescape(str(row.get("LONG_TEXT") or ""))
        kind, word = next(((k, w) for k in wanted for w in vocab.hkex_categories[k] if w.casefold() in category.casefold()),
                          (None, None))
        if kind is None:
            return None
        title = html.unescape(str(row.get("TITLE") or "")).strip()
        source_id = f"hkex:{news_id}:{lang}"
        url = within(self.base, str(row.get("FILE_LINK") or ""))
        if str(row.get("FILE_TYPE") or "PDF").upper() != "PDF" or not row.get("FILE_LINK") or url is None:
            skips.append(Skip(listing, source_id, title, f"no PDF on HKEXnews ({row.get('FILE_TYPE')}, "
                                                         f"{row.get('FILE_LINK')!r})"))
            return None
        try:
            filed = dt.datetime.strptime(str(row.get("DATE_TIME")), "%d/%m/%Y %H:%M").date()
        except ValueError:
            skips.append(Skip(listing, source_id, title, f"unreadable DATE_TIME {row.get('DATE_TIME')!r}"))
            return None
        if filed < since:
            return None
        year = title_year(title)
        corrected = any(w.casefold() in title.casefold() for w in vocab.hkex_corrected)
        name = f"{listing.code.removesuffix('.HK')}_{year or 'na'}_{kind}_{lang}_{safe_name(news_id)}.pdf"
        return Filing(source=self.name, source_id=source_id, listing=listing, form=kind, title=title, filed=filed,
                      fiscal_year=year, language=lang, group=f"{listing.code}|{kind}|{word}|{year}|{lang}" if year else None,
                      corrected=corrected,
                      files=[RemoteFile(url=url, name=name, expect=Expect("pdf", approx_size=_size(str(row.get("FILE_INFO")))))])
