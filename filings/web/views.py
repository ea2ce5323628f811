"""What each viewer page shows, as plain data for its template: citations numbered and linked to their page,
values with currency and period, search filters as links, metric series, a page with its marks."""

from __future__ import annotations

import logging
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from urllib.parse import quote, urlencode

import jinja2
from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from filings.web import charts, render
from filings.web.render import page_png  # noqa: F401  (the route's image)
from mappings.metrics import metrics as metric_catalogue
from parsers.html_fragments import fact_element_id, ink_offsets
from schema.errors import FilingsError
from warehouse import citations

log = logging.getLogger("filings.web")
TEMPLATES = Path(__file__).with_name("templates")
STYLE = (Path(__file__).with_name("style.css")).read_text(encoding="utf-8")
MAX_SPANS = 20  # highlight spans accepted on one page URL (a citation needs one or two)
MAX_HITS = 100  # largest k a search page or /api/search accepts
_SPAN = re.compile(r"^(\d{1,7})-(\d{1,7})$")


class Renderer:
    def __init__(self, viewer) -> None:
        self.viewer = viewer
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                                      undefined=jinja2.StrictUndefined)
        self.env.filters["number"] = number
        self.env.filters["pct"] = lambda v: f"{v * 100:.4f}".rstrip("0").rstrip(".") + "%"

    def page(self, request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
        html = self.env.get_template(template).render(
            request=request, url=lambda name, query=None, **params: link(request, name, query, **params),
            home=self.viewer.home, **context)
        return HTMLResponse(html, status_code=status)

    def exception_handlers(self) -> dict:
        def http_error(request: Request, exc: HTTPException) -> Response:
            if request.url.path.startswith("/api/"):
                return api_error(exc.detail, exc.status_code)
            return self.page(request, "error.html", status=exc.status_code, status_code=exc.status_code,
                             message=exc.detail)

        def filings_error(request: Request, exc: FilingsError) -> Response:
            return http_error(request, HTTPException(400, str(exc)))

        def server_error(request: Request, exc: Exception) -> Response:
            log.exception("viewer error on %s", request.url.path)
            return http_error(request, HTTPException(500, f"internal error ({type(exc).__name__}); the server log "
                                                          "has the details"))

        return {HTTPException: http_error, FilingsError: filings_error, Exception: server_error}


def api_error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


# ------------------------------------------------------------------------------------------------ links
def link(request: Request, name: str, query: dict | list | None = None, fragment: str | None = None,
         **path_params) -> str:
    """A site-relative URL built from parts: path parameters percent-encoded (a '/' in a value can never
    make another path), the query encoded, never concatenated from user text."""
    path = request.app.url_path_for(name, **{k: quote(str(v), safe="") for k, v in path_params.items()})
    items = [(k, v) for k, v in (query.items() if isinstance(query, dict) else query or []) if v not in (None, "")]
    return f"{path}{'?' + urlencode(items) if items else ''}{'#' + quote(fragment, safe='') if fragment else ''}"


# ------------------------------------------------------------------------------------------- formatting
def number(value) -> str:
    """An exact decimal with thousands separators, every digit kept (no rounding, no float)."""
    if value is None or value == "":
        return ""
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    text = format(d, ",f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def period_text(fiscal_period: str | None, fiscal_year, period_end) -> str:
    text = f"{fiscal_period or ''} {fiscal_year or ''}".strip()
    return f"{text} (to {period_end})" if period_end else text


# ------------------------------------------------------------------------------------------- citations
class Citations:
    """Numbered citations of one page; the same source cited twice keeps its number."""

    def __init__(self, request: Request, con) -> None:
        self.request, self.con = request, con
        self.items: list[dict] = []
        self._by_href: dict[str, int] = {}

    def add(self, href: str, label: str) -> int:
        if href not in self._by_href:
            self.items.append({"n": len(self.items) + 1, "href": href, "label": label})
            self._by_href[href] = len(self.items)
        return self._by_href[href]

    def page_href(self, document_id: str, page_no: int, spans: list[tuple[int, int]]) -> str:
        return link(self.request, "page", [("s", f"{a}-{b}") for a, b in spans], "hl" if spans else None,
                    document_id=document_id, page=int(page_no))

    def for_source(self, source: dict, label: str | None, value, text: str | None = None,
                   span: tuple[int, int] | None = None) -> int | None:
        document_id, page = source.get("document_id"), source.get("page")
        if not document_id or page in (None, ""):
            return None
        doc_label = f"{source.get('doc_name') or document_id[:12]}"
        if isinstance(page, int) or str(page).isdigit():
            page_no = int(page)
            if span is None and text:
                span = citations.text_span(self.con, document_id, page_no, text)
            spans = [span] if span else citations.figure_spans(self.con, document_id, page_no, label, value)
            section = f", {source['section']}" if source.get("section") else ""
            return self.add(self.page_href(document_id, page_no, spans), f"{doc_label} p{page_no}{section}")
        what = "" if str(page).startswith("SEC companyfacts") else "XBRL fact "  # the locator names its filing
        return self.add(link(self.request, "fact", {"id": str(page)}, document_id=document_id),
                        f"{doc_label} {what}{page}")


def answer_view(request: Request, con, answer) -> dict:
    cites = Citations(request, con)
    rows = []
    for r in answer.rows:
        n = cites.for_source(r.source, r.original_label, r.value)
        rows.append({"r": r, "cite": n, "period": period_text(r.fiscal_period, r.fiscal_year, r.period_end)})
    passages = []
    for p in answer.passages:
        src = p.source or {}
        span = None
        if src.get("char_start") is not None and src.get("char_end") is not None:
            span = (int(src["char_start"]), int(src["char_end"]))
        passages.append({"p": p, "cite": cites.for_source(src, None, None, text=p.text, span=span)})
    return {"rows": rows, "passages": passages, "citations": cites.items}


# ---------------------------------------------------------------------------------------------- search
def search_options(request: Request, api: bool = False) -> dict:
    """The facade's search arguments from the query string, checked."""
    q = request.query_params
    options: dict = {}
    for name in ("company", "section"):
        value = (q.get(name) or "").strip()
        if value:
            if len(value) > 200:
                raise HTTPException(414, f"{name} too long")
            options[name] = value
    if (q.get("doc") or "").strip():
        options["document"] = q["doc"].strip()[:200]
    for name, low, high in (("year", 1900, 2100), ("k", 1, MAX_HITS)):
        value = (q.get(name) or "").strip()
        if value:
            if not value.isdigit() or not low <= int(value) <= high:
                raise HTTPException(400, f"{name} must be a whole number from {low} to {high} (got {value[:20]!r})")
            options[name] = int(value)
    if q.get("raw") in ("1", "true", "yes"):
        options["raw"] = True
    return options


def _search_href(request: Request, query: str, options: dict, **change) -> str:
    params = {"q": query, "company": options.get("company"), "year": options.get("year"),
              "section": options.get("section"), "doc": options.get("document"), "k": options.get("k"),
              "raw": "1" if options.get("raw") else None}
    params.update(change)
    return link(request, "search", params)


def search_view(request: Request, con, query: str, options: dict, result: dict) -> dict:
    cites = Citations(request, con)
    hits = []
    for h in result["hits"]:
        n = cites.for_source({"document_id": h["document_id"], "doc_name": h["doc_name"], "page": h["page"],
                              "section": h.get("section")}, None, None, text=h["text"])
        links = []
        if h.get("company_id") and not options.get("company"):
            links.append(("company", h.get("stock_code") or h["company_id"],
                          _search_href(request, query, options, company=h["company_id"])))
        if h.get("fiscal_year") and not options.get("year"):
            links.append(("year", str(h["fiscal_year"]), _search_href(request, query, options, year=h["fiscal_year"])))
        if h.get("section") and not options.get("section"):
            links.append(("section", h["section"], _search_href(request, query, options, section=h["section"])))
        if not options.get("document"):
            links.append(("document", h["doc_name"], _search_href(request, query, options, doc=h["doc_name"])))
        hits.append({"h": h, "cite": n, "href": cites.items[n - 1]["href"] if n else None, "links": links})
    active = [(name, value, _search_href(request, query, options, **{key: None}))
              for name, key, value in (("company", "company", options.get("company")),
                                       ("year", "year", options.get("year")),
                                       ("section", "section", options.get("section")),
                                       ("document", "doc", options.get("document")),
                                       ("raw", "raw", "on" if options.get("raw") else None)) if value]
    raw_href = None if options.get("raw") else _search_href(request, query, options, raw="1")
    return {"hits": hits, "active": active, "raw_href": raw_href}


# --------------------------------------------------------------------------------------------- company
def company_view(request: Request, company_id: str, rows: list[dict], docs: list[dict]) -> dict:
    """Per metric: its rows (every period and listing) and a chart of its series."""
    by_metric: dict[str, list[dict]] = {}
    for r in rows:
        by_metric.setdefault(r["metric"], []).append(r)
    order = {m: i for i, m in enumerate(metric_catalogue())}
    metrics = []
    for metric, items in sorted(by_metric.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])):
        items.sort(key=lambda r: (r["stock_code"], r["period_end"] or r["fiscal_year"], r["fiscal_period"]))
        for r in items:
            r["period"] = period_text(r["fiscal_period"], r["fiscal_year"], r["period_end"])
            page = r.get("page")
            r["href"] = None  # a derived value has no page of its own: its formula is shown instead
            if page and str(page).isdigit():
                r["href"] = link(request, "page", document_id=r["document_id"], page=int(page))
            elif page:
                r["href"] = link(request, "fact", {"id": str(page)}, document_id=r["document_id"])
        metrics.append({"metric": metric, "rows": items, "charts": charts.series_charts(metric, items)})
    for d in docs:  # a document without pages (an XBRL instance, SEC companyfacts) is opened by its facts' links
        d["href"] = link(request, "page", document_id=d["document_id"], page=1) if d.get("pages") else None
    return {"metrics": metrics, "documents": docs}


# ------------------------------------------------------------------------------------------------ page
def span_params(request: Request) -> list[tuple[int, int]]:
    spans = []
    for value in request.query_params.getlist("s")[: MAX_SPANS + 1]:
        m = _SPAN.match(value)
        if not m or int(m.group(1)) >= int(m.group(2)):
            raise HTTPException(400, f"a highlight span is start-end in characters of the page (got {value[:40]!r})")
        spans.append((int(m.group(1)), int(m.group(2))))
    if len(spans) > MAX_SPANS:
        raise HTTPException(400, f"at most {MAX_SPANS} highlight spans per page")
    return spans


def page_view(request: Request, home: Path, doc: citations.StoredDocument, page_no: int,
              stored: tuple[str, bool] | None, spans: list[tuple[int, int]], fact: str | None,
              sections: list[dict]) -> dict:
    text, ocr = stored if stored else ("", False)
    spans = [(a, min(b, len(text))) for a, b in spans if a < len(text)]
    nav = {
        "prev": link(request, "page", document_id=doc.document_id, page=page_no - 1) if page_no > 1 else None,
        "next": link(request, "page", document_id=doc.document_id, page=page_no + 1) if page_no < doc.pages else None,
    }
    for s in sections:
        s["href"] = link(request, "page", document_id=doc.document_id, page=s["page_start"])
        s["current"] = s["page_start"] <= page_no <= s["page_end"]
    model = {"nav": nav, "sections": sections, "text": text, "ocr": ocr, "spans": spans, "kind": doc.kind,
             "marked_text": Markup(render.mark_text(text, spans)), "image": None, "rects": [], "fragment": None,
             "notice": None, "quotes": [text[a:b] for a, b in spans]}
    if doc.kind == "pdf":
        if citations.source_file(doc) is None:
            model["notice"] = f"The source file is no longer at {doc.path}: the stored page text is shown."
        else:
            model["image"] = link(request, "page_png", document_id=doc.document_id, page=page_no)
            rects = render.pdf_span_rects(doc, page_no, text, spans) if spans else []
            if rects is None:
                model["notice"] = ("This page's text came from OCR (or the file changed): the quote is marked in "
                                   "the text below the image.")
            else:
                model["rects"] = [{"span": i, **r.__dict__} for i, group in enumerate(rects) for r in group]
                if model["rects"]:
                    model["marked_text"] = Markup(render.mark_text(text, spans, anchor=False))
    elif doc.kind == "html":
        data = render.html_document(home, doc)
        if data is None:
            model["notice"] = f"The source file is no longer at {doc.path}: the stored page text is shown."
        else:
            fragment = data[0][page_no - 1]
            fragment = render.mark_fragment(fragment, [ink_offsets(text, a, b) for a, b in spans])
            if fact:
                fragment = render.mark_fact(fragment, fact_element_id(fact))
            model["fragment"] = Markup(fragment)
    return model


def fact_target(request: Request, viewer, doc: citations.StoredDocument, fact_id: str):
    """Where an XBRL fact is shown: the URL of its page (inline XBRL), the fact itself (an instance
    document without pages), or None."""
    if doc.kind == "html":
        data = render.html_document(viewer.home, doc)
        page_no = data[1].get(fact_id) if data else None
        if page_no is None:
            return None
        return link(request, "page", {"fact": fact_id}, fact_element_id(fact_id), document_id=doc.document_id,
                    page=page_no)
    with viewer.lock:
        return citations.xbrl_fact(viewer.filings.con, doc.document_id, fact_id)
