"""SEC EDGAR: ticker -> CIK (``company_tickers.json``), ``submissions`` JSON (and its older pages under
``filings.files``), and per filing the index page, whose Type column names the primary document and the
exhibits that carry statements or results (EX-13 annual reports, EX-99.1 earnings releases).

Fair access: every request carries the declared User-Agent and SEC's budget (10 requests/s at most) is
shared by all SEC requests of the process (``http.limiter_for``)."""

from __future__ import annotations

import datetime as dt
import re

from lxml import html as lxml_html

from mappings.sources import vocabulary
from schema.fiscal import fiscal_year_of
from warehouse.sources.base import Filing, Listing, RemoteFile, Source, SourceError, UnknownCompany, closest, safe_name, within
from warehouse.sources.http import Http, HttpError
from warehouse.sources.verify import Expect

ANNUAL_FORMS = frozenset({"10-K", "20-F", "40-F"})
_CIK = re.compile(r"(?:CIK)?0*(\d{1,10})", re.I)
_EXHIBIT = re.compile(r"EX-(\d+)(?:\.0*(\d+))?", re.I)
_NAME_NOISE = re.compile(r"[,.]|\b(inc|corp|corporation|co|ltd|plc|company|the)\b", re.I)


def exhibit_matches(wanted: str, actual: str) -> bool:
    """EX-13 matches EX-13 and EX-13.1; EX-99.1 matches EX-99.1, EX-99.01 and a bare EX-99."""
    w, a = _EXHIBIT.fullmatch(wanted.strip()), _EXHIBIT.fullmatch(actual.strip())
    if not w or not a or int(w.group(1)) != int(a.group(1)):
        return False
    return w.group(2) is None or a.group(2) is None or int(w.group(2)) == int(a.group(2))


def _kind_of(name: str, inline: bool) -> str | None:
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if suffix in ("htm", "html", "xhtml"):
        return "ixbrl" if inline else "html"
    if suffix in ("xml", "xsd"):
        return "xml"
    if suffix == "pdf":
        return "pdf"
    return None


def _rows(block: dict) -> list[dict]:
    """submissions' column arrays -> one dict per filing."""
    keys = [k for k, v in block.items() if isinstance(v, list)]
    n = min((len(block[k]) for k in keys), default=0)
    return [{k: block[k][i] for k in keys} for i in range(n)]


class SecEdgar(Source):
    name = "sec"
    market = "US"

    def __init__(self, config, cache_dir, http: Http | None = None):
        headers = {"User-Agent": config.sec_user_agent(), "Accept-Encoding": "gzip, deflate"}
        super().__init__(config, cache_dir, http or Http("sec", config.sec.rate, headers, config.timeout,
                                                         config.retries, config.backoff))
        self.base = config.sec.base_url.rstrip("/")
        self.data = config.sec.data_url.rstrip("/")
        self._tickers: dict[str, tuple[str, str]] | None = None

    # ---------------------------------------------------------------------------------- companies
    def tickers(self) -> dict[str, tuple[str, str]]:
        """TICKER -> (CIK as 10 digits, company title), from SEC's company_tickers.json."""
        if self._tickers is None:
            data = self.reference("company_tickers.json", f"{self.base}/files/company_tickers.json")
            rows = data.values() if isinstance(data, dict) else data
            self._tickers = {str(r["ticker"]).upper(): (f"{int(r['cik_str']):010d}", str(r["title"]))
                             for r in rows if isinstance(r, dict) and r.get("ticker") and r.get("cik_str")}
        return self._tickers

    def resolve(self, query: str) -> Listing:
        q = query.strip()
        tickers = self.tickers()
        if q.upper() in tickers:
            cik, title = tickers[q.upper()]
            return Listing("US", q.upper(), title, cik)
        m = _CIK.fullmatch(q)
        if m and (q.upper().startswith("CIK") or len(q) == 10):
            cik = f"{int(m.group(1)):010d}"
            found = [(t, title) for t, (c, title) in tickers.items() if c == cik]
            if found:
                return Listing("US", found[0][0], found[0][1], cik)
            return Listing("US", f"CIK{cik}", None, cik)
        plain = _NAME_NOISE.sub(" ", q).casefold().split()
        by_name = [(t, c, title) for t, (c, title) in tickers.items()
                   if _NAME_NOISE.sub(" ", title).casefold().split() == plain]
        if by_name:
            t, c, title = sorted(by_name, key=lambda r: len(r[0]))[0]
            return Listing("US", t, title, c)
        choices = {t: f"{t} ({title})" for t, (_, title) in tickers.items()}
        choices.update({title: f"{t} ({title})" for t, (_, title) in tickers.items()})
        raise UnknownCompany(query, "SEC EDGAR (company_tickers.json)", closest(q, choices))

    # ---------------------------------------------------------------------------------- filings
    def submissions(self, cik: str, since: dt.date) -> list[dict]:
        url = f"{self.data}/submissions/CIK{cik}.json"
        try:
            data = self.http.json("GET", url)
        except HttpError as exc:
            if exc.status == 404:
                raise SourceError(f"SEC EDGAR has no filings for CIK {cik} (404 from {url})") from None
            raise
        filings = data.get("filings") or {}
        rows = _rows(filings.get("recent") or {})
        earliest = min((r.get("filingDate") or "9999" for r in rows), default="9999")
        for page in filings.get("files") or []:
            if since.isoformat() < earliest and str(page.get("filingTo") or "9999") >= since.isoformat():
                rows += _rows(self.http.json("GET", f"{self.data}/submissions/{safe_name(str(page['name']))}"))
        return rows

    def filings(self, listing, since, kinds, languages):
        vocab = vocabulary()
        suffix = vocab.sec_amendment_suffix
        rows = self.submissions(listing.key, since)
        out: list[Filing] = []
        seen: set[str] = set()
        originals: dict[tuple[str, str], str] = {}
        for row in sorted(rows, key=lambda r: (r.get("filingDate") or "", r.get("accessionNumber") or "")):
            form = str(row.get("form") or "")
            base = form[: -len(suffix)] if form.endswith(suffix) else form
            accession = str(row.get("accessionNumber") or "")
            if base not in kinds or not accession or accession in seen:
                continue
            seen.add(accession)
            items = vocab.sec_forms[base].items
            if items and not set(items) & {i.strip() for i in str(row.get("items") or "").split(",")}:
                continue
            try:
                filed = dt.date.fromisoformat(str(row.get("filingDate")))
            except ValueError:
                continue
            try:
                period_end = dt.date.fromisoformat(str(row.get("reportDate") or ""))
            except ValueError:
                period_end = None
            source_id = f"sec:{accession}"
            key = (base, str(row.get("reportDate") or ""))
            amends = originals.get(key) if form != base else None
            if form == base:
                originals[key] = source_id
            if filed < since:
                continue
            out.append(Filing(
                source=self.name, source_id=source_id, listing=listing, form=form,
                title=str(row.get("primaryDocDescription") or form), filed=filed,
                fiscal_year=fiscal_year_of(period_end) if period_end and base in ANNUAL_FORMS else None,
                period_end=period_end, language="en", amends=amends,
                extra={"primary": str(row.get("primaryDocument") or ""), "inline": bool(row.get("isInlineXBRL"))},
            ))
        return out, []

    def index_rows(self, filing: Filing) -> list[dict]:
        """The filing index page's document table: seq, description, document, type, size."""
        accession = filing.source_id.split(":", 1)[1]
        folder = f"{self.base}/Archives/edgar/data/{int(filing.listing.key)}/{accession.replace('-', '')}/"
        page = self.http.get(f"{folder}{accession}-index.html")
        try:
            tree = lxml_html.fromstring(page.content)
        except (ValueError, lxml_html.etree.ParserError) as exc:
            raise SourceError(f"{page.url}: filing index unreadable ({exc})") from None
        rows = []
        for tr in tree.xpath("//table[contains(@class, 'tableFile')]//tr[td]"):
            cells = tr.xpath("./td")
            if len(cells) < 5:
                continue
            link = cells[2].xpath(".//a")
            name = (link[0].text_content() if link else cells[2].text_content()).strip().split()[0:1]
            if not name:
                continue
            size = cells[4].text_content().strip()
            url = within(folder, safe_name(name[0]))
            if url is None or safe_name(name[0]) != name[0]:
                continue  # a name that is not a plain file of this filing's folder
            rows.append({"description": cells[1].text_content().strip(), "name": name[0],
                         "type": cells[3].text_content().strip(), "size": int(size) if size.isdigit() else None,
                         "url": url})
        if not rows:
            raise SourceError(f"{page.url}: no document table in the filing index")
        return rows

    def files(self, filing: Filing) -> list[RemoteFile]:
        vocab = vocabulary()
        suffix = vocab.sec_amendment_suffix
        base = filing.form[: -len(suffix)] if filing.form.endswith(suffix) else filing.form
        primary_name, inline = filing.extra.get("primary", ""), filing.extra.get("inline", False)
        rows = self.index_rows(filing)
        out: list[RemoteFile] = []
        for row in rows:
            is_primary = row["name"] == primary_name or (not primary_name and row["type"] == filing.form)
            exhibit = next((e for e in vocab.sec_forms[base].exhibits if exhibit_matches(e, row["type"])), None)
            support = inline and row["type"].upper() in vocab.sec_support
            if not (is_primary or exhibit or support):
                continue
            kind = _kind_of(row["name"], inline and (is_primary or exhibit == "EX-13"))
            if kind is None:
                continue
            if kind == "ixbrl" and not is_primary:
                kind = "html"  # an exhibit may or may not carry inline XBRL; the parser decides
            role = "support" if support and not (is_primary or exhibit) else "document"
            out.append(RemoteFile(url=row["url"], name=safe_name(row["name"]), role=role,
                                  expect=Expect(kind, size=row["size"]), exhibit=None if is_primary else (exhibit or row["type"])))
        if not any(f.role == "document" for f in out):
            raise SourceError(f"{filing.source_id}: the filing index lists no primary document {primary_name!r}")
        return out
