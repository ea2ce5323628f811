"""`filings serve`: a read-only web viewer over the warehouse (Starlette, server-rendered Jinja2, no JS).

Routes (DESIGN.md section 4): ``/`` ask box and companies; ``/ask?q=`` the answer with rows, passages,
caveats and numbered citations that open their page; ``/search?q=`` hits with filters as links;
``/company/{code}`` metric series (table and chart per metric); ``/doc/{id}/page/{n}`` the page with the
cited span or fact marked; ``/doc/{id}/page/{n}.png`` the page image; ``/doc/{id}/fact?id=`` an
XBRL fact's page; ``/api/ask?q=`` and ``/api/search?q=`` the JSON of ``filings ask --json`` /
``filings search --json``.

Everything a route shows comes from the ``Filings`` facade (ask, search, metrics, companies) and the
warehouse's read functions (``warehouse.citations``); this module only turns those into pages. The
warehouse is opened read-only; only GET and HEAD exist; every response carries a Content-Security-Policy
that allows no script and no resource from elsewhere.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from filings.session import ReadSession, records
from filings.web import views
from filings.web.guard import MAX_QUERY_CHARS, SecurityHeaders, text_param
from schema.errors import FilingsError
from schema.models import as_jsonable
from warehouse import citations


def create_app(home: str | Path | None = None, allowed_hosts: list[str] | None = None) -> Starlette:
    """The viewer app over the warehouse in ``home``. ``allowed_hosts``: Host header values accepted
    (``filings serve`` passes the loopback names on a loopback bind, so a web page elsewhere cannot reach
    the viewer through DNS rebinding); None accepts any."""
    viewer = ReadSession(home)
    render = views.Renderer(viewer)

    def index(request: Request) -> Response:
        with viewer.lock:
            companies = records(viewer.filings.companies())
        return render.page(request, "index.html", companies=companies)

    def ask(request: Request) -> Response:
        question = text_param(request, "q")
        if not question:
            return RedirectResponse(views.link(request, "index"), status_code=303)
        with viewer.lock:
            answer = viewer.filings.ask(question)
            model = views.answer_view(request, viewer.filings.con, answer)
        return render.page(request, "ask.html", question=question, a=answer, **model)

    def api_ask(request: Request) -> Response:
        question = text_param(request, "q", api=True)
        if not question:
            return views.api_error("missing the question: /api/ask?q=...", 400)
        with viewer.lock:
            answer = viewer.filings.ask(question)
        return JSONResponse(as_jsonable(answer.model_dump()))

    def search(request: Request) -> Response:
        query = text_param(request, "q")
        if not query:
            return RedirectResponse(views.link(request, "index"), status_code=303)
        options = views.search_options(request)
        with viewer.lock:
            result = viewer.filings.search(query, **options)
            model = views.search_view(request, viewer.filings.con, query, options, result)
        return render.page(request, "search.html", query=query, result=result, **model)

    def api_search(request: Request) -> Response:
        query = text_param(request, "q", api=True)
        if not query:
            return views.api_error("missing the query: /api/search?q=...", 400)
        options = views.search_options(request, api=True)
        with viewer.lock:
            result = viewer.filings.search(query, **options)
        return JSONResponse(as_jsonable(result))

    def company(request: Request) -> Response:
        code = request.path_params["code"]
        if len(code) > MAX_QUERY_CHARS:
            raise HTTPException(414, "company code too long")
        basis = request.query_params.get("basis") or "latest"
        if basis not in ("latest", "as_reported"):
            raise HTTPException(400, "basis is latest (restated, the default) or as_reported")
        with viewer.lock:
            try:
                company_id = viewer.filings.company_id(code)
            except FilingsError as exc:
                raise HTTPException(404, str(exc)) from None
            frame = viewer.filings.metrics(company_id, basis=basis)
            docs = citations.company_documents(viewer.filings.con, company_id)
            names = records(viewer.filings.companies())
        info = [c for c in names if c["company_id"] == company_id]
        model = views.company_view(request, company_id, records(frame), docs)
        return render.page(request, "company.html", company=info[0] if info else {"company_id": company_id},
                           basis=basis, **model)

    def doc_page(request: Request) -> Response:
        doc, page_no = _document_page(request)
        spans = views.span_params(request)
        fact = text_param(request, "fact") or None
        with viewer.lock:
            stored = citations.page(viewer.filings.con, doc.document_id, page_no)
            sections = citations.sections(viewer.filings.con, doc.document_id)
        model = views.page_view(request, viewer.home, doc, page_no, stored, spans, fact, sections)
        return render.page(request, "page.html", doc=doc, page_no=page_no, **model)

    def doc_png(request: Request) -> Response:
        doc, page_no = _document_page(request)
        if doc.kind != "pdf":
            raise HTTPException(404, f"{doc.doc_name} is not a PDF: its pages are shown as HTML or text")
        png = views.page_png(viewer.home, doc, page_no)
        if png is None:
            raise HTTPException(404, f"the source file of {doc.doc_name} is no longer at {doc.path}")
        return FileResponse(png, media_type="image/png", headers={"Cache-Control": "private, max-age=86400"})

    def doc_fact(request: Request) -> Response:
        doc = _document(request)
        fact_id = text_param(request, "id")
        if not fact_id or len(fact_id) > 200:
            raise HTTPException(400, "give the XBRL fact id: /doc/{document_id}/fact?id=FACT_ID")
        target = views.fact_target(request, viewer, doc, fact_id)
        if target is None:
            raise HTTPException(404, f"no fact {fact_id!r} in {doc.doc_name}")
        if isinstance(target, str):
            return RedirectResponse(target, status_code=302)
        return render.page(request, "fact.html", doc=doc, fact=target)

    def style(request: Request) -> Response:
        return Response(views.STYLE, media_type="text/css", headers={"Cache-Control": "max-age=3600"})

    def _document(request: Request) -> citations.StoredDocument:
        with viewer.lock:
            doc = citations.document(viewer.filings.con, request.path_params["document_id"])
        if doc is None:
            raise HTTPException(404, "unknown document id (ids are the 64-hex document_id of the warehouse)")
        return doc

    def _document_page(request: Request) -> tuple[citations.StoredDocument, int]:
        doc = _document(request)
        page_no = request.path_params["page"]
        if not doc.pages:
            raise HTTPException(404, f"{doc.doc_name} has no pages: its values are facts (an XBRL instance or SEC "
                                     "companyfacts); a value's source link opens its fact")
        if not 1 <= page_no <= doc.pages:
            raise HTTPException(404, f"{doc.doc_name} has pages 1-{doc.pages} (asked for {page_no})")
        return doc, page_no

    routes = [
        Route("/", index, name="index"),
        Route("/ask", ask, name="ask"),
        Route("/search", search, name="search"),
        Route("/company/{code}", company, name="company"),
        Route("/doc/{document_id}/page/{page:int}.png", doc_png, name="page_png"),
        Route("/doc/{document_id}/page/{page:int}", doc_page, name="page"),
        Route("/doc/{document_id}/fact", doc_fact, name="fact"),
        Route("/api/ask", api_ask, name="api_ask"),
        Route("/api/search", api_search, name="api_search"),
        Route("/style.css", style, name="style"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        viewer.close()

    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    app = Starlette(routes=routes, middleware=middleware, exception_handlers=render.exception_handlers(),
                    lifespan=lifespan)
    app.state.viewer = viewer
    return app
