"""The ``filings`` command line (DESIGN.md section 4)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from filings import coverage_cli, fetch_cli, ingest_report, metrics_cli, output
from filings.cli_options import NARROW, HomeOpt, JsonOpt, fail
from filings.fetch_cli import ClusterOpt
from filings.api import Filings
from filings.output import add_row, line, markup_safe
from schema import limits
from schema.errors import FilingsError
from warehouse import lookup, sql as sql_mod, store

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Offline multi-market filings warehouse: ingest filings, look up exact metrics, query SQL.")
out = Console()
err = Console(stderr=True)



def _print_json(data) -> None:
    output.print_json(data)


@app.command()
def ingest(paths: Annotated[list[Path], typer.Argument(help="Files or folders, any market")],
           home: HomeOpt = None, as_json: JsonOpt = False,
           no_index: Annotated[bool, typer.Option("--no-index", help="Store pages, facts and metrics only; "
                                                  "no search units (run `filings index` later)")] = False,
           keywords_only: Annotated[bool, typer.Option("--keywords-only", help="Search units by keywords (BM25) only; "
                                                       "`filings index` adds their dense vectors later")] = False,
           cluster: ClusterOpt = None) -> None:
    """Ingest filings (idempotent: documents are keyed by content). Exit status 1 if any document failed.
    Readers (every other command, notebooks, the viewer) keep working meanwhile and see each document whole
    once it is published; a second writer waits FILINGS_WRITER_WAIT seconds, then refuses."""
    with Filings(home, read_only=False) as f, Progress(TextColumn("[bold]ingest"), BarColumn(), MofNCompleteColumn(),
                                      TimeElapsedColumn(), TextColumn("{task.description}"), console=err,
                                      disable=as_json or not err.is_terminal) as progress:
        task = progress.add_task("", total=None)
        embed = None

        def embedded(name: str) -> None:
            nonlocal embed
            if embed is None:  # every document is searchable by keywords now; the dense vectors follow
                embed = progress.add_task("", total=None)
            progress.update(embed, advance=1, description=markup_safe(f"embedded {name[:40]}"))

        report = f.ingest(
            *paths, index=not no_index, dense=not keywords_only, on_embedded=embedded, cluster=cluster,
            on_total=lambda n: progress.update(task, total=n),
            on_progress=lambda r: progress.update(task, advance=1, description=markup_safe(Path(r.path).name[:40])),
        )
    ingest_report.render(report, out, err, as_json, store.db_path(home))
    raise typer.Exit(1 if report.failed else 0)


@app.command()
def index(home: HomeOpt = None,
          rebuild: Annotated[bool, typer.Option("--rebuild", help="Drop the search index and rebuild it from every "
                                                "stored document (embeddings come from the cache)")] = False) -> None:
    """Build search units for documents whose index is missing (after `ingest --no-index`), failed or stale."""
    with Filings(home, read_only=False) as f, Progress(TextColumn("[bold]index"), TextColumn("{task.description}"),
                                      TimeElapsedColumn(), console=err, disable=not err.is_terminal) as progress:
        task = progress.add_task("", total=None)
        n = f.index_missing(on_progress=lambda name: progress.update(task, description=markup_safe(name)),
                            rebuild=rebuild)
        older = f.index.older_sparse()
    out.print(f"indexed {n} document(s)")
    for name, setting in older.items():
        line(err, ("note:", "yellow"), f" {name} is keyword-indexed as {setting}; `filings index --rebuild` indexes it "
             "as units found by the headings above them too (embeddings come from the cache)")
    for name, reason in f.index_failures:
        line(err, ("failed:", "red"), f" {name}: {reason}")
    if f.index_failures:
        raise typer.Exit(1)


@app.command()
def search(query: Annotated[str, typer.Argument(help="What to look for, in English or Chinese")],
           company: Annotated[str | None, typer.Option("--company", help="Ticker, code or name")] = None,
           year: Annotated[int | None, typer.Option("--year", help="Fiscal year")] = None,
           section: Annotated[str | None, typer.Option("--section", help="risk_factors, mdna, business, ...")] = None,
           k: Annotated[int, typer.Option("--k", min=1, max=limits.SEARCH_K.default,
                                          help=f"Number of hits (1-{limits.SEARCH_K.default})")] = 20,
           raw: Annotated[bool, typer.Option("--raw", help="Do not turn names and years in the query into filters")] = False,
           document: Annotated[str | None, typer.Option("--doc", help="Search inside one document (doc_name or id)")] = None,
           home: HomeOpt = None, as_json: JsonOpt = False) -> None:
    """Hybrid (dense + BM25) search over sections, statements pages and transcripts, page-exact hits."""
    with Filings(home, read_only=True) as f:
        found = f.searcher.search(query, company=company, year=year, section=section, k=k, raw=raw, document=document)
    result = found.as_json()
    if as_json:
        _print_json(result)
        return
    if found.widened:
        line(out, f"no hits with {found.filters_asked}: widened")
    line(out, f"filters applied: {result['filters_applied'] or 'none'}")
    if found.keywords_only:
        line(err, ("note:", "yellow"), f" {found.keywords_only:,} unit(s) in scope are searched by keywords only "
                                       "(dense vectors not built yet: `filings index`)")
    if not result["hits"]:
        out.print("no hits (is the index built? `filings ingest` builds it; `filings index` after --no-index)")
    hits = output.table(None, "#", "document", "page", "section", "company", "year", "text", wide={"text": 90},
                        lines=True)
    for i, h in enumerate(result["hits"], 1):
        snippet = h["text"] if len(h["text"]) < 300 else h["text"][:300] + "…"
        add_row(hits, i, h["doc_name"], h["page"], h["section"] or "", h["company_id"] or "",
                h["fiscal_year"] or "", snippet)
    out.print(hits)


@app.command()
def companies(market: Annotated[str | None, typer.Option("--market", help="A, HK or US")] = None,
              home: HomeOpt = None, as_json: JsonOpt = False) -> None:
    """Companies in the master and the warehouse, with their listings."""
    if market and market.upper() not in {"A", "HK", "US"}:
        fail(f"--market must be A, HK or US (got {market!r})")
    con = store.connect(home, read_only=True)
    rows = lookup.company_rows(con, market.upper() if market else None)
    if as_json:
        _print_json(rows)
        return
    listing = output.table("companies (names as the master and the filings print them)", "company_id", "name",
                           "listings", "documents", "metrics", right={"documents", "metrics"})
    if out.width < NARROW:  # ids whole, listings one per line, names take the rest
        listing.columns[0].no_wrap = True
        listing.columns[3].header, listing.columns[4].header = "docs", "facts"
        listing.box = box.SIMPLE_HEAD
    for r in rows:
        name = r["name_en"] or r["name_zh"] or ""
        if r.get("printed_names"):
            name += f"\nprinted: {r['printed_names']}"
        codes = (r["listings"] or "").replace(", ", "\n") if out.width < NARROW else r["listings"] or ""
        add_row(listing, r["company_id"], name, codes, r["documents"], r["metrics"])
    out.print(listing)


@app.command()
def ask(question: Annotated[str, typer.Argument(help="A question in English or Chinese")], home: HomeOpt = None,
        as_json: JsonOpt = False,
        explain: Annotated[bool, typer.Option("--explain", help="Print the query plan")] = False) -> None:
    """Answer a question: numbers from SQL, passages from search, cited; `no_data` rather than a guess."""
    with Filings(home, read_only=True) as f:
        answer = f.ask(question)
        plan = f.plan(question) if explain else None
    if as_json:
        data = answer.model_dump()
        if plan is not None:
            data["explain"] = plan.model_dump()
        _print_json(data)
        return
    if plan is not None:
        line(out, ("plan", "bold"), f" intent={plan.intent} route={plan.route} "
                  f"companies={[c.company_id + ' <- ' + repr(c.matched) for c in plan.companies]} "
                  f"periods={[(p.fiscal_year, p.fiscal_period or p.relative) for p in plan.periods]} "
                  f"metrics={plan.metrics} sections={plan.sections} last_n={plan.last_n_years} growth={plan.growth}")
    style = "green" if answer.status == "answered" else "yellow"
    line(out, (answer.status, style), f" (route: {answer.route})")
    if answer.answer:
        line(out, answer.answer)
    if answer.reason:
        line(out, f"reason: {answer.reason}")
    for c in answer.caveats:
        line(out, (f"caveat: {c}", "dim"))


@app.command("eval")
def eval_cmd(suite: Annotated[Path | None, typer.Option("--suite", help="JSON-lines suite (default: router/eval_suite.jsonl)")] = None,
             home: HomeOpt = None, as_json: JsonOpt = False,
             show_failures: Annotated[bool, typer.Option("--failures", help="List the cases that failed")] = False) -> None:
    """Run the labelled eval suite against this warehouse: per-category accuracy, router accuracy,
    citation validity, refusal precision and recall."""
    from router import evaluate

    with Filings(home, read_only=True) as f:
        cases = evaluate.load_suite(suite)
        with Progress(TextColumn("[bold]eval"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                      disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task("", total=len(cases))
            report = evaluate.run(f.router, f.con, cases, on_case=lambda r: progress.update(task, advance=1))
    figures = report.figures()
    if as_json:
        _print_json({"figures": figures, "failures": [r.__dict__ for r in report.results if not r.correct]})
        return
    table = output.table(f"eval: {figures['cases']} cases", "category", "cases", "answer accuracy",
                         "router accuracy", right={"cases", "answer accuracy", "router accuracy"})
    for cat, f_ in figures["by_category"].items():
        add_row(table, cat, f_["cases"], f"{f_['accuracy']:.1%}", f"{f_['router']:.1%}")
    out.print(table)
    langs = output.table("by question language", "category / language", "cases", "answer accuracy",
                         right={"cases", "answer accuracy"})
    for key, f_ in figures.get("by_category_language", {}).items():
        add_row(langs, key, f_["cases"], f"{f_['accuracy']:.1%}")
    out.print(langs)
    for key in ("answer_accuracy", "router_accuracy", "citation_validity", "refusal_precision", "refusal_recall"):
        value = figures[key]
        out.print(f"{key.replace('_', ' ')}: {'n/a' if value is None else f'{value:.1%}'}")
    if show_failures:
        for r in report.results:
            if not r.correct:
                line(out, (r.id, "red"), f" {r.question} -> {r.status}: {r.why}")


@app.command("sql")
def sql_cmd(query: Annotated[str, typer.Argument(help="One read-only SELECT")], home: HomeOpt = None,
            as_json: JsonOpt = False,
            as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (exact decimals) for spreadsheets")] = False) -> None:
    """Run one read-only SELECT over the warehouse tables, under a time, row and memory limit. Writes, ATTACH,
    COPY, SET, file reads and functions outside mappings/sql_allowlist.yaml are refused."""
    con = store.connect(home, read_only=True)
    limit = (limits.SQL_MAX_ROWS if (as_json or as_csv) else limits.SQL_DISPLAY_ROWS).value()
    try:
        result = sql_mod.run(con, query, max_rows=limit)
    except FilingsError as exc:
        fail(f"refused: {exc}")
        raise
    if as_csv:
        import pandas as pd

        from filings import export

        sys.stdout.write(export.to_csv_text(pd.DataFrame.from_records(result.rows, columns=result.columns)))
        if result.truncated:
            line(err, f"(first {limit:,} rows only: {limits.SQL_MAX_ROWS.describe()})")
        return
    if as_json:
        _print_json([dict(zip(result.columns, r)) for r in result.rows])
        if result.truncated:
            line(err, f"(first {limit:,} rows only: {limits.SQL_MAX_ROWS.describe()})")
        return
    table = output.table(None, *result.columns)
    for r in result.rows:
        add_row(table, *("" if v is None else v for v in r))
    out.print(table)
    if result.truncated:
        line(out, f"(first {limit:,} rows; there are more: narrow the query, or use --json for up to "
                  f"{limits.SQL_MAX_ROWS.value():,})")


app.command()(metrics_cli.metrics)
app.command("coverage")(coverage_cli.coverage)
fetch_cli.register(app)  # filings fetch, filings update
from filings.mcp_server import mcp  # noqa: E402  (the MCP server: `filings mcp`)
from filings.web.command import serve  # noqa: E402  (the web viewer: `filings serve`)

app.command()(serve)
app.command()(mcp)


def main() -> None:
    try:
        app()
    except FilingsError as exc:
        line(err, ("error:", "red"), " ", str(exc))
        sys.exit(2)


if __name__ == "__main__":
    main()
