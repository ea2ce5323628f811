"""A replay of SEC EDGAR, cninfo and HKEXnews on loopback, for tests and benches (never a real host).

One handler serves all three sources (their paths do not overlap), so every base URL points at the same
local server:

* Recorded responses from ``corpus/fetch`` (read in place, served byte for byte): SEC ``submissions`` of
  Apple and Nvidia, Tesla's older page, the 404 XML body for an unknown CIK, SEC's ``company_tickers.json``
  (``corpus/us/reference``); cninfo's stock list and 贵州茅台's announcement search; HKEXnews' stock-id
  lookups (Tencent, no match), Tencent's title searches (annual reports, all announcements, Chinese results)
  and the empty answer.
* Generated in the recorded shapes where nothing was recorded: an SEC filing index page (the recorded CARBO
  10-K index with its document table rewritten for the filing), cninfo searches and HKEX searches for the
  corpus companies (rows built from a recorded row, HKEX bodies serialised as HKEX/Gson does).
* Documents: a filing's primary iXBRL document is the corpus file of the same name when the corpus has it
  (Apple's FY2024 10-K and FY2025 Q2 10-Q, with its schema and label linkbase; Nvidia's); other SEC
  documents are small generated iXBRL documents of the right form and period (and a plain-HTML press
  release for EX-99.1). A recorded cninfo / HKEX row that names a PDF the corpus does not have is served a
  corpus PDF (distinct files, smallest first): its bytes then belong to another company.

Faults are queued per path (``fault(path, "429", "500", ...)``, one per request): 429 with Retry-After,
500, a connection reset mid-body, a truncated PDF, an HTML error page with status 200, the SEC 404 XML.
``log`` keeps (monotonic time, method, path, status) of every request.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import json
import re
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from werkzeug.wrappers import Request, Response

CHINA = dt.timezone(dt.timedelta(hours=8))
SEC_PREFIXES = ("/files/", "/submissions/", "/Archives/")


@dataclass
class CnRow:
    ann_id: str
    title: str
    date: dt.date
    body: Path | bytes
    category: str  # cninfo category of the announcement (category_ndbg_szsh ...)


@dataclass
class HkRow:
    news_id: str
    lang: str  # "E" or "C"
    title: str
    when: dt.datetime
    body: Path | bytes
    long_text: str  # HKEX category text, HTML-escaped as HKEX prints it
    t1code: int
    t2code: int = -2
    t2gcode: int = -2


@dataclass
class HkCompany:
    code5: str
    stock_id: int
    name: str
    counters: list[str] = field(default_factory=list)  # dual counters: ["00700", "80700"]
    rows: list[HkRow] = field(default_factory=list)


def gson(rows: list[dict]) -> str:
    """The inner result list as HKEX serialises it: compact, raw CJK, <, > and & as \\u escapes."""
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def ixbrl(ticker: str, cik: str, name: str, form: str, period_end: dt.date, fiscal_year: int, fiscal_period: str,
          salt: str) -> bytes:
    """A small inline XBRL filing (dei cover facts, one revenue fact unique to ``salt``)."""
    start = period_end - dt.timedelta(days=364 if fiscal_period == "FY" else 90)
    revenue = 1_000 + int(hashlib.sha256(salt.encode()).hexdigest()[:6], 16) % 900_000
    when = period_end.strftime("%B %-d, %Y")
    facts = "" if form.startswith("8-K") else (
        f'<table><tr><td>Total net sales</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" '
        f'decimals="-6" scale="6" format="ixt:num-dot-decimal" id="r1">{revenue:,}</ix:nonFraction></td></tr></table>')
    return f"""<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:link="http://www.xbrl.org/2003/linkbase"
 xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
 xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:us-gaap="http://fasb.org/us-gaap/2024"
 xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12">
<head><title>{html.escape(name)} {form}</title></head><body>
<div style="display:none"><ix:header><ix:resources>
<xbrli:context id="d"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">{cik}</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>{start}</xbrli:startDate><xbrli:endDate>{period_end}</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>FORM <ix:nonNumeric name="dei:DocumentType" contextRef="d" id="c1">{form}</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="d" id="c2">{html.escape(name)}</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="d" id="c3">{cik}</ix:nonNumeric>
<ix:nonNumeric name="dei:TradingSymbol" contextRef="d" id="c4">{ticker}</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="d" id="c5">{fiscal_year}</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="d" id="c6">{fiscal_period}</ix:nonNumeric>
For the period ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="d" id="c7" format="ixt:date-monthname-day-year-en">{when}</ix:nonNumeric></p>
<p>Management's discussion of results for the period, filing {salt}.</p>
{facts}
</body></html>
""".encode()


def press_release(name: str, period_end: dt.date, salt: str) -> bytes:
    return (f"<html><head><title>{html.escape(name)} reports results</title></head><body><p>{html.escape(name)} "
            f"reports results for the quarter ended {period_end:%B %-d, %Y} ({salt}).</p></body></html>\n").encode()


class ReplayWorld:
    def __init__(self, corpus: Path):
        self.corpus = Path(corpus)
        self.rec = self.corpus / "fetch"
        self.log: list[tuple[float, str, str, int]] = []
        self.faults: dict[str, list[str]] = {}
        self._lock = threading.Lock()
        # SEC
        self.submissions: dict[str, bytes] = {}
        self.sec_pages: dict[str, bytes] = {}
        self.sec_filings: dict[tuple[int, str], dict] = {}  # (cik, accession no dashes) -> filing
        self.sec_docs: dict[str, Path | bytes] = {}  # /Archives/... path -> body
        self.ixbrl_corpus = {p.name: p for p in (self.corpus / "us" / "ixbrl").glob("*/*") if p.is_file()}
        for rec in ("submissions_CIK0000320193.json", "submissions_CIK0001045810.json"):
            self.add_submissions(self.rec / "sec" / rec)
        self.sec_pages["CIK0001318605-submissions-001.json"] = (self.rec / "sec" / "submissions_CIK0001318605-submissions-001.json").read_bytes()
        # cninfo
        self.cn_rows: dict[str, list[CnRow]] = {}
        self.cn_static: dict[str, Path | bytes] = {}
        self.cn_recorded: dict[str, bytes] = {}
        self._cn_template = json.loads((self.rec / "cninfo" / "hisAnnouncement_600519_category_ndbg_szsh.json").read_text())["announcements"][0]
        self.cn_stock_list = (self.rec / "cninfo" / "szse_stock.json").read_bytes()
        self._replay_moutai()
        # HKEX
        self.hk: dict[str, HkCompany] = {}
        self.hk_recorded: dict[tuple, bytes] = {}
        self.hk_files: dict[str, Path | bytes] = {}
        self._hk_template = json.loads(json.loads((self.rec / "hkex" / "titleSearchServlet_00700_t1code51500_20260801-20260910.json").read_text())["result"])[0]
        self._replay_tencent()

    # ------------------------------------------------------------------------------ registration
    def fault(self, path: str, *faults: str) -> None:
        with self._lock:
            self.faults.setdefault(path, []).extend(faults)

    def add_submissions(self, path_or_body: Path | bytes, cik: str | None = None) -> None:
        body = path_or_body.read_bytes() if isinstance(path_or_body, Path) else path_or_body
        data = json.loads(body)
        cik = cik or str(data["cik"]).zfill(10)
        self.submissions[cik] = body
        recent = data.get("filings", {}).get("recent", {})
        for i, acc in enumerate(recent.get("accessionNumber", [])):
            row = {k: v[i] for k, v in recent.items()}
            self.sec_filings[(int(cik), acc.replace("-", ""))] = {**row, "cik": cik, "name": data.get("name"),
                                                                   "ticker": (data.get("tickers") or ["X"])[0],
                                                                   "fye": data.get("fiscalYearEnd") or "1231"}

    def sec_documents(self, cik: int, accession: str) -> list[dict]:
        """The documents of a filing: name, type, description, body (corpus file or generated)."""
        f = self.sec_filings[(cik, accession.replace("-", ""))]
        form, primary = f["form"], f["primaryDocument"]
        period = dt.date.fromisoformat(f["reportDate"] or f["filingDate"])
        fye_month = int(f["fye"][:2])
        months = (period.month - fye_month) % 12
        base = form.removesuffix("/A")
        fp = "FY" if base in ("10-K", "20-F", "40-F") else {3: "Q1", 6: "Q2", 9: "Q3"}.get(round(months / 3) * 3, "Q1")
        fy = period.year + (1 if (period.month, period.day) > (fye_month, 28) and fye_month != 12 else 0)
        docs = []
        if primary in self.ixbrl_corpus:
            src = self.ixbrl_corpus[primary]
            docs.append({"name": primary, "type": form, "description": form, "body": src})
            for sup, typ, desc in ((".xsd", "EX-101.SCH", "XBRL TAXONOMY EXTENSION SCHEMA"),
                                   ("_lab.xml", "EX-101.LAB", "XBRL TAXONOMY EXTENSION LABEL LINKBASE"),
                                   ("_pre.xml", "EX-101.PRE", "XBRL TAXONOMY EXTENSION PRESENTATION LINKBASE")):
                p = src.with_name(src.stem + sup)
                if p.is_file():
                    docs.append({"name": p.name, "type": typ, "description": desc, "body": p})
        else:
            docs.append({"name": primary, "type": form, "description": form,
                         "body": ixbrl(f["ticker"], f["cik"], f["name"], base, period, fy, fp, f["accessionNumber"])})
        if f.get("x_ex13"):  # an annual report exhibit (IBM and Wells Fargo file their statements this way)
            docs.append({"name": primary.replace(".htm", "xex13.htm"), "type": "EX-13", "description": "EX-13",
                         "body": ixbrl(f["ticker"], f["cik"], f["name"], base, period, fy, fp, f["accessionNumber"] + "ex13")})
        if base == "8-K":
            docs.append({"name": primary.replace(".htm", "ex991.htm"), "type": "EX-99.1", "description": "EX-99.1",
                         "body": press_release(f["name"], period, f["accessionNumber"])})
        docs.append({"name": f"{primary.rsplit('.', 1)[0]}ex31.htm", "type": "EX-31.1", "description": "EX-31.1",
                     "body": b"<html><body>Certification</body></html>\n"})
        return docs

    def cninfo_company(self, code: str, rows: list[CnRow]) -> None:
        self.cn_rows[code] = list(rows)
        for r in rows:
            self.cn_static[f"/finalpage/{r.date}/{r.ann_id}.PDF"] = r.body

    def hkex_company(self, company: HkCompany) -> None:
        self.hk[company.code5] = company
        for r in company.rows:
            self.hk_files[self._hk_link(company, r)] = r.body

    # ------------------------------------------------------------------------------ recorded worlds
    def _replay_moutai(self) -> None:
        body = (self.rec / "cninfo" / "hisAnnouncement_600519_category_ndbg_szsh.json").read_bytes()
        self.cn_recorded["600519"] = body
        pdfs = sorted((self.corpus / "cn").glob("*.pdf"), key=lambda p: p.stat().st_size)
        rows = sorted(json.loads(body)["announcements"], key=lambda a: a["announcementId"])
        for i, a in enumerate(rows):
            self.cn_static["/" + a["adjunctUrl"]] = pdfs[i % len(pdfs)]

    def _replay_tencent(self) -> None:
        rec = self.rec / "hkex"
        self.hk_recorded[("7609", "EN", 40000, 40100)] = (rec / "edgarpack_servlet_annual_reports_tencent.json").read_bytes()
        self.hk_recorded[("7609", "EN", "all")] = (rec / "titleSearchServlet_00700_all_20260801-20260910.json").read_bytes()
        self.hk_recorded[("7609", "ZH", 10000, -2, 3)] = (rec / "titleSearchServlet_7609_zh_t1code10000_20250319.json").read_bytes()
        pdfs = sorted((self.corpus / "hk").glob("*.pdf"), key=lambda p: p.stat().st_size)
        links: list[str] = []
        for body in self.hk_recorded.values():
            for row in json.loads(json.loads(body)["result"]):
                if row["FILE_LINK"] not in links:
                    links.append(row["FILE_LINK"])
        reports = [l for l in links if self._tencent_is_report(l)]
        for i, link in enumerate(reports + [l for l in links if l not in reports]):
            self.hk_files[link] = pdfs[i % len(pdfs)]

    def _tencent_is_report(self, link: str) -> bool:
        for body in self.hk_recorded.values():
            for row in json.loads(json.loads(body)["result"]):
                if row["FILE_LINK"] == link:
                    text = html.unescape(row["LONG_TEXT"])
                    return any(w in text for w in ("Report]", "Results", "業績"))
        return False

    # ------------------------------------------------------------------------------ serving
    def handle(self, request: Request) -> Response:
        path = request.path
        with self._lock:
            queued = self.faults.get(path)
            fault = queued.pop(0) if queued else None
        try:
            response = self._fault(request, fault) if fault else self._route(request)
        except Exception as exc:  # a bug in the world must show up as a 500, not hang the client
            response = Response(f"replay world error: {type(exc).__name__}: {exc}", 500)
        with self._lock:
            self.log.append((time.monotonic(), request.method, path, response.status_code))
        return response

    def sec_times(self) -> list[float]:
        return [t for t, _m, p, _s in self.log if p.startswith(SEC_PREFIXES)]

    def _fault(self, request: Request, fault: str) -> Response:
        if fault == "429":
            return Response("Too Many Requests", 429, headers={"Retry-After": "1"})
        if fault == "500":
            return Response("Internal Server Error", 500)
        if fault == "404xml":
            return Response((self.rec / "sec" / "error_404_submissions_CIK-000000001.xml").read_bytes(), 404,
                            content_type="application/xml")
        if fault == "html200":
            return Response("<!DOCTYPE html><html><head><title>系统维护 Service unavailable</title></head><body>"
                            "<p>The service is under maintenance.</p></body></html>", 200, content_type="text/html")
        normal = self._route(request)
        body = normal.get_data()
        if fault == "truncate":
            return Response(body[: len(body) * 3 // 5], 200, content_type=normal.content_type)
        if fault == "reset":
            return self._reset(request, body, normal.content_type)
        raise ValueError(f"unknown fault {fault!r}")

    def _reset(self, request: Request, body: bytes, content_type: str) -> Response:
        sock = request.environ.get("werkzeug.socket")

        def stream():
            yield body[: len(body) // 2]
            if sock is not None:  # linger 0 then close: the peer sees a TCP reset mid-body
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()

        return Response(stream(), 200, headers={"Content-Length": str(len(body)), "ETag": _etag(body)},
                        content_type=content_type, direct_passthrough=True)

    def _route(self, request: Request) -> Response:
        p = request.path
        if p == "/files/company_tickers.json":
            return self._file(request, self.corpus / "us" / "reference" / "company_tickers.json", "application/json")
        m = re.fullmatch(r"/submissions/(CIK\d{10})\.json", p)
        if m:
            body = self.submissions.get(m.group(1)[3:])
            if body is None:
                return self._fault(request, "404xml")
            return Response(body, 200, content_type="application/json")
        m = re.fullmatch(r"/submissions/(CIK\d{10}-submissions-\d{3}\.json)", p)
        if m:
            body = self.sec_pages.get(m.group(1))
            return Response(body, 200, content_type="application/json") if body else self._fault(request, "404xml")
        m = re.fullmatch(r"/Archives/edgar/data/(\d+)/(\d{18})/(\d{10}-\d{2}-\d{6})-index\.html", p)
        if m:
            return self._sec_index(int(m.group(1)), m.group(3))
        m = re.fullmatch(r"/Archives/edgar/data/(\d+)/(\d{18})/([^/]+)", p)
        if m and (int(m.group(1)), m.group(2)) in self.sec_filings:
            acc = self.sec_filings[(int(m.group(1)), m.group(2))]["accessionNumber"]
            doc = next((d for d in self.sec_documents(int(m.group(1)), acc) if d["name"] == m.group(3)), None)
            if doc:
                ctype = "application/xml" if doc["name"].endswith((".xml", ".xsd")) else "text/html"
                return self._file(request, doc["body"], ctype)
        if p == "/new/data/szse_stock.json":
            return Response(self.cn_stock_list, 200, content_type="application/json")
        if p == "/new/hisAnnouncement/query" and request.method == "POST":
            return self._cn_query(request)
        if p in self.cn_static:
            return self._file(request, self.cn_static[p], "application/pdf")
        if p == "/search/prefix.do":
            return self._hk_prefix(request)
        if p == "/ncms/script/eds/activestock_sehk_e.json":
            rows = json.loads((self.rec / "hkex" / "activestock_sehk_e_trimmed_evagle.json").read_text())
            rows += [{"i": c.stock_id, "c": c.code5, "n": c.name, "s": 0} for c in self.hk.values()]
            return Response(json.dumps(rows), 200, content_type="application/json")
        if p == "/search/titlesearch.xhtml":  # the search page a browser opens first (sets cookies)
            return Response("<html><head><title>HKEXnews</title></head><body></body></html>", 200,
                            content_type="text/html", headers={"Set-Cookie": "JSESSIONID=replay; Path=/"})
        if p == "/search/titleSearchServlet.do":
            return self._hk_search(request)
        if p in self.hk_files:
            return self._file(request, self.hk_files[p], "application/pdf")
        if p.startswith(SEC_PREFIXES):
            return self._fault(request, "404xml")
        return Response("Not Found", 404)

    def _file(self, request: Request, body: Path | bytes, content_type: str) -> Response:
        data = body.read_bytes() if isinstance(body, Path) else body
        etag = _etag(data)
        rng = request.headers.get("Range")
        if_range = request.headers.get("If-Range")
        if rng and (not if_range or if_range == etag):
            m = re.fullmatch(r"bytes=(\d+)-", rng.strip())
            if m:
                start = int(m.group(1))
                if start >= len(data):
                    return Response(status=416, headers={"Content-Range": f"bytes */{len(data)}"})
                return Response(data[start:], 206, content_type=content_type, headers={
                    "Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}", "ETag": etag, "Accept-Ranges": "bytes"})
        return Response(data, 200, content_type=content_type, headers={"ETag": etag, "Accept-Ranges": "bytes"})

    # SEC -------------------------------------------------------------------------------------------
    def _sec_index(self, cik: int, accession: str) -> Response:
        if (cik, accession.replace("-", "")) not in self.sec_filings:
            return Response("Not Found", 404)
        template = (self.rec / "sec" / "0001564590-18-004771-index.html").read_text()
        folder = f"/Archives/edgar/data/{cik}/{accession.replace('-', '')}"
        docs = self.sec_documents(cik, accession)
        main = [d for d in docs if not d["type"].startswith("EX-101")]
        data = [d for d in docs if d["type"].startswith("EX-101")]

        def rows(items, first_seq):
            out = []
            for i, d in enumerate(items):
                body = d["body"]
                data = body.read_bytes() if isinstance(body, Path) else body
                href = f"{folder}/{d['name']}"
                link = f'<a href="{href}">{d["name"]}</a>'
                if d["name"].endswith(".htm") and b"inlineXBRL" in data[:65536]:
                    link = f'<a href="/ix?doc={href}">{d["name"]}</a> &nbsp;&nbsp;<span class="badge bg-info">iXBRL</span>'
                even = ' class="evenRow"' if i % 2 else ""
                out.append(f"         <tr{even}>\n"
                           f'            <td scope="row">{first_seq + i}</td>\n'
                           f'            <td scope="row">{d["description"]}</td>\n'
                           f'            <td scope="row">{link}</td>\n'
                           f'            <td scope="row">{d["type"]}</td>\n'
                           f'            <td scope="row">{len(data)}</td>\n'
                           f"         </tr>\n")
            return "".join(out)

        def replace_table(text, summary, body_rows):
            start = text.index(f'summary="{summary}"')
            head_end = text.index("</tr>", start) + len("</tr>\n")
            end = text.index("</table>", head_end)
            return text[:head_end] + body_rows + "      " + text[end:]

        page = replace_table(template, "Document Format Files", rows(main, 1))
        page = replace_table(page, "Data Files", rows(data, len(main) + 1))
        page = page.replace("0001564590-18-004771", accession)
        return Response(page, 200, content_type="text/html")

    # cninfo ----------------------------------------------------------------------------------------
    def _cn_query(self, request: Request) -> Response:
        form = request.form
        code = form.get("stock", "").split(",")[0]
        categories = set(filter(None, form.get("category", "").split(";")))
        page, size = int(form.get("pageNum", 1)), int(form.get("pageSize", 30))
        if code in self.cn_recorded and "category_ndbg_szsh" in categories and page == 1:
            return Response(self.cn_recorded[code], 200, content_type="application/json;charset=UTF-8")
        start_s, _, end_s = form.get("seDate", "~").partition("~")
        start = dt.date.fromisoformat(start_s) if start_s else dt.date.min
        end = dt.date.fromisoformat(end_s) if end_s else dt.date.max
        rows = [r for r in self.cn_rows.get(code, []) if (not categories or r.category in categories) and start <= r.date <= end]
        rows.sort(key=lambda r: (r.date, r.ann_id), reverse=True)
        chunk = rows[(page - 1) * size: page * size]
        announcements = [self._cn_row(code, r) for r in chunk]
        total_pages = (len(rows) + size - 1) // size
        body = {"classifiedAnnouncements": None, "totalSecurities": 0, "totalAnnouncement": len(rows),
                "totalRecordNum": len(rows), "announcements": announcements or None, "categoryList": None,
                "hasMore": page < total_pages, "totalpages": total_pages}
        return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), 200,
                        content_type="application/json;charset=UTF-8")

    def _cn_row(self, code: str, r: CnRow) -> dict:
        stock = next((s for s in json.loads(self.cn_stock_list)["stockList"] if s["code"] == code), {})
        size = r.body.stat().st_size if isinstance(r.body, Path) else len(r.body)
        when = dt.datetime.combine(r.date, dt.time(), CHINA)
        return {**self._cn_template, "secCode": code, "secName": stock.get("zwjc"), "orgId": stock.get("orgId"),
                "announcementId": r.ann_id, "announcementTitle": r.title, "shortTitle": r.title,
                "tileSecName": stock.get("zwjc"), "announcementTime": int(when.timestamp() * 1000),
                "adjunctUrl": f"finalpage/{r.date}/{r.ann_id}.PDF", "adjunctSize": (size + 1023) // 1024}

    # HKEX ------------------------------------------------------------------------------------------
    def _hk_prefix(self, request: Request) -> Response:
        name = request.args.get("name", "")
        if name == "00700":
            return Response((self.rec / "hkex" / "prefix_00700_EN.jsonp").read_bytes(), 200,
                            content_type="application/javascript")
        found = [{"stockId": c.stock_id, "code": c.code5, "name": c.name} for c in self.hk.values()
                 if c.code5.startswith(name) and request.args.get("market") == "SEHK"]
        if not found:
            return Response((self.rec / "hkex" / "prefix_nomatch.jsonp").read_bytes(), 200,
                            content_type="application/javascript")
        body = "callback(" + json.dumps({"more": "1", "stockInfo": found}, separators=(",", ":")) + ");\r\n"
        return Response(body, 200, content_type="application/javascript")

    def _hk_link(self, c: HkCompany, r: HkRow) -> str:
        return f"/listedco/listconews/sehk/{r.when:%Y}/{r.when:%m%d}/{r.news_id}{'_c' if r.lang == 'C' else ''}.pdf"

    def _hk_search(self, request: Request) -> Response:
        a = request.args
        stock, lang = a.get("stockId", ""), a.get("lang", "EN").upper()
        t1, t2g, t2 = int(a.get("t1code", -2)), int(a.get("t2Gcode", -2)), int(a.get("t2code", -2))
        for key in ((stock, lang, t1, t2), (stock, lang, t1, t2, t2g), (stock, lang, "all")):
            if key in self.hk_recorded:
                return Response(self.hk_recorded[key], 200, content_type="application/json")
        company = next((c for c in self.hk.values() if str(c.stock_id) == stock), None)
        frm = dt.datetime.strptime(a.get("fromDate", "19000101"), "%Y%m%d").date()
        to = dt.datetime.strptime(a.get("toDate", "29991231"), "%Y%m%d").date()
        code = "C" if lang.startswith("Z") else "E"
        rows = []
        for r in (company.rows if company else []):
            if r.lang != code or not frm <= r.when.date() <= to or r.t1code != t1:
                continue
            if (t2 != -2 and r.t2code != t2) or (t2g != -2 and r.t2gcode != t2g):
                continue
            rows.append(r)
        rows.sort(key=lambda r: r.when, reverse=True)
        row_range = int(a.get("rowRange", 100))
        rendered = [self._hk_row(company, r, len(rows)) for r in rows[:row_range]]
        body = {"result": gson(rendered), "hasNextRow": len(rows) > row_range, "sortList": "[[0,0]]",
                "rowRange": row_range, "lang": code, "loadedRecord": len(rendered), "recordCnt": len(rows)}
        return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), 200, content_type="application/json")

    def _hk_row(self, c: HkCompany, r: HkRow, total: int) -> dict:
        size = r.body.stat().st_size if isinstance(r.body, Path) else len(r.body)
        counters = c.counters or [c.code5]
        return {**self._hk_template, "FILE_INFO": f"{max(1, size // 1024)}KB", "NEWS_ID": r.news_id,
                "SHORT_TEXT": r.long_text + "<br/>", "TOTAL_COUNT": str(total), "DOD_WEB_PATH": "",
                "STOCK_NAME": "<br/>".join([c.name] * len(counters)), "TITLE": r.title, "FILE_TYPE": "PDF",
                "DATE_TIME": r.when.strftime("%d/%m/%Y %H:%M"), "LONG_TEXT": r.long_text,
                "STOCK_CODE": "<br/>".join(counters), "FILE_LINK": self._hk_link(c, r)}


def _etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


# ---------------------------------------------------------------------------------------- the corpus world
def corpus_world(corpus: Path) -> ReplayWorld:
    """The recorded worlds plus the corpus companies the end-to-end tests watch: 金花股份 (600080) on cninfo
    with its 2024 annual and 2025 reports (publication dates from the corpus README's source file names),
    ALCO (0328.HK) on HKEXnews with its FY2025 annual results in Traditional Chinese (published 2025-06-30)."""
    world = ReplayWorld(corpus)
    cn = corpus / "cn"
    world.cninfo_company("600080", [
        CnRow("1223212001", "金花股份2024年年度报告", dt.date(2025, 4, 25), cn / "600080_jinhuagufen_2024_annual.pdf", "category_ndbg_szsh"),
        CnRow("1223212002", "金花股份2024年年度报告摘要", dt.date(2025, 4, 25), cn / "600080_jinhuagufen_2024_summary.pdf", "category_ndbg_szsh"),
        CnRow("1223212003", "金花股份2025年第一季度报告", dt.date(2025, 4, 25), cn / "600080_jinhuagufen_2025_q1.pdf", "category_yjdbg_szsh"),
        CnRow("1224555001", "金花股份2025年半年度报告", dt.date(2025, 8, 22), cn / "600080_jinhuagufen_2025_interim.pdf", "category_bndbg_szsh"),
        CnRow("1224555002", "金花股份2025年半年度报告摘要", dt.date(2025, 8, 22), cn / "600080_jinhuagufen_2025_interim-summary.pdf", "category_bndbg_szsh"),
        CnRow("1224888001", "金花股份2025年第三季度报告", dt.date(2025, 10, 30), cn / "600080_jinhuagufen_2025_q3.pdf", "category_sjdbg_szsh"),
        CnRow("1223212000", "金花股份2023年年度报告", dt.date(2024, 4, 27), cn / "600080_jinhuagufen_2023_summary.pdf", "category_ndbg_szsh"),
    ])
    world.hkex_company(HkCompany("00328", 1020, "ALCO HOLDINGS", rows=[
        HkRow("11700001", "C", "截至二零二五年三月三十一日止年度全年業績公佈", dt.datetime(2025, 6, 30, 16, 30),
              corpus / "hk" / "0328_alco_2025_annual-results.pdf", "公告及通告 - [末期業績]", 10000, -2, 3),
    ]))
    return world
