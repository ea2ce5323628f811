"""cninfo (巨潮资讯): code -> orgId from the stock list, the announcement search (``hisAnnouncement/query``,
paged), report titles classified by ``mappings/sources.yaml`` (annual, summary 摘要, interim, Q1, Q3; English
versions; corrected versions 更正后 / 修订版, which supersede the report they correct; notices about a report,
which are not reports), PDFs from the static host."""

from __future__ import annotations

import datetime as dt
import re

from mappings.sources import vocabulary
from warehouse.sources.base import Filing, Listing, RemoteFile, Skip, Source, SourceError, UnknownCompany, closest, safe_name, within
from warehouse.sources.http import Http
from warehouse.sources.verify import Expect

CHINA_TIME = dt.timezone(dt.timedelta(hours=8))  # announcementTime is 00:00 Asia/Shanghai (no DST) in epoch ms
PAGE_SIZE = 30  # rows per page, as cninfo's own site and every recorded client asks
MAX_PAGES = 200  # a listing longer than 6,000 rows is a runaway answer, not a company's reports
PERIOD_END = {"annual": (12, 31), "summary": (12, 31), "interim": (6, 30), "interim_summary": (6, 30),
              "q1": (3, 31), "q3": (9, 30)}  # A-share fiscal years are calendar years
_TAG = re.compile(r"<[^>]+>")


class Cninfo(Source):
    name = "cninfo"
    market = "A"

    def __init__(self, config, cache_dir, http: Http | None = None):
        base = config.cninfo.base_url.rstrip("/")
        headers = {"User-Agent": config.user_agent or "filings-warehouse/0.1",
                   "Accept": "application/json, text/plain, */*", "X-Requested-With": "XMLHttpRequest",
                   "Origin": base, "Referer": f"{base}/new/commonUrl/pageOfSearch?url=disclosure/list/search"}
        super().__init__(config, cache_dir, http or Http("cninfo", config.cninfo.rate, headers, config.timeout,
                                                         config.retries, config.backoff))
        self.base = base
        self.static = config.cninfo.static_url.rstrip("/")
        self._stocks: dict[str, dict] | None = None

    def stocks(self) -> dict[str, dict]:
        """code -> {orgId, zwjc (short name), pinyin, category}, from cninfo's stock list."""
        if self._stocks is None:
            data = self.reference("szse_stock.json", f"{self.base}/new/data/szse_stock.json")
            rows = data.get("stockList") if isinstance(data, dict) else None
            if not isinstance(rows, list):
                raise SourceError(f"{self.base}/new/data/szse_stock.json: no stockList in the answer")
            self._stocks = {str(r["code"]): r for r in rows if isinstance(r, dict) and r.get("code") and r.get("orgId")}
        return self._stocks

    def resolve(self, query: str) -> Listing:
        q = query.strip()
        code = re.sub(r"\.(SH|SZ|SS|BJ)$", "", q.upper())
        stocks = self.stocks()
        row = stocks.get(code) or next((r for r in stocks.values()
                                        if q in (r.get("zwjc"), str(r.get("pinyin") or "").lower())), None)
        if row:
            return Listing("A", str(row["code"]), row.get("zwjc"), str(row["orgId"]))
        choices = {c: f"{c} ({r.get('zwjc')})" for c, r in stocks.items()}
        choices.update({str(r.get("zwjc")): f"{c} ({r.get('zwjc')})" for c, r in stocks.items() if r.get("zwjc")})
        raise UnknownCompany(query, "cninfo (stock list)", closest(code if code.isdigit() else q, choices))

    def _pages(self, listing: Listing, since: dt.date, categories: str):
        column = "sse" if listing.code.startswith(("6", "9")) else "szse"
        page = 1
        while page <= MAX_PAGES:
            data = self.http.json("POST", f"{self.base}/new/hisAnnouncement/query", data={
                "stock": f"{listing.code},{listing.key}", "tabName": "fulltext", "pageSize": PAGE_SIZE,
                "pageNum": page, "column": column, "category": categories, "plate": "", "searchkey": "",
                "secid": "", "trade": "", "seDate": f"{since.isoformat()}~{dt.date.today().isoformat()}",
                "sortName": "", "sortType": "", "isHLtitle": "true"})
            if not isinstance(data, dict):
                raise SourceError(f"{self.base}/new/hisAnnouncement/query: expected a JSON object")
            rows = data.get("announcements") or []
            yield from rows
            total_pages = int(data.get("totalpages") or 0)
            if not rows or not data.get("hasMore") or (total_pages and page >= total_pages):
                return
            page += 1

    def filings(self, listing, since, kinds, languages):
        vocab = vocabulary()
        categories = ";".join(sorted({vocab.cninfo_categories[k] for k in kinds}))
        out: list[Filing] = []
        skips: list[Skip] = []
        seen: set[str] = set()
        for row in self._pages(listing, since, categories):
            ann_id = str(row.get("announcementId") or "")
            if not ann_id or ann_id in seen:
                continue
            seen.add(ann_id)
            source_id = f"cninfo:{ann_id}"
            title = _TAG.sub("", str(row.get("announcementTitle") or "")).strip()
            if str(row.get("secCode") or listing.code) != listing.code:
                continue
            if any(w in title for w in vocab.cninfo_not_reports):
                skips.append(Skip(listing, source_id, title, "a notice about a report, not the report itself"))
                continue
            kind = next((k for k, p in vocab.cninfo_kinds if p.search(title)), None)
            if kind is None or kind not in kinds:
                continue
            language = "en" if any(w in title for w in vocab.cninfo_english) else "zh"
            if language not in languages:
                continue
            url = within(self.static, str(row.get("adjunctUrl") or ""))
            if str(row.get("adjunctType") or "PDF").upper() != "PDF" or not row.get("adjunctUrl") or url is None:
                skips.append(Skip(listing, source_id, title, f"no PDF on cninfo's static host ({row.get('adjunctType')}, "
                                                             f"{row.get('adjunctUrl')!r})"))
                continue
            try:
                filed = dt.datetime.fromtimestamp(int(row["announcementTime"]) / 1000, CHINA_TIME).date()
            except (KeyError, TypeError, ValueError):
                skips.append(Skip(listing, source_id, title, "no publication time in the listing"))
                continue
            if filed < since:
                continue
            m = vocab.cninfo_year.search(title)
            year = int(m.group(1)) if m else None
            month, day = PERIOD_END[kind]
            corrected = any(w in title for w in vocab.cninfo_corrected)
            size_kb = row.get("adjunctSize")
            name = f"{listing.code}_{year or 'na'}_{kind}{'_en' if language == 'en' else ''}_{safe_name(ann_id)}.pdf"
            out.append(Filing(
                source=self.name, source_id=source_id, listing=listing, form=kind, title=title, filed=filed,
                fiscal_year=year, period_end=dt.date(year, month, day) if year else None, language=language,
                group=f"{listing.code}|{kind}|{year}|{language}" if year else None, corrected=corrected,
                files=[RemoteFile(url=url, name=name,
                                  expect=Expect("pdf", approx_size=int(size_kb) * 1024 if str(size_kb).isdigit() else None))],
            ))
        return out, skips
