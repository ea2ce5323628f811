"""``filings fetch`` and ``filings update``: the commands; the work is ``warehouse.sources`` and
``warehouse.update`` (through the ``Filings`` facade).

Exit status (for schedulers): 0 nothing failed; 1 something failed (every failure is listed with its
reason); 2 a usage or settings error (no SEC User-Agent, an unknown form, a bad date): nothing was done;
75 another fetch / update holds the cache: run again later."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from filings.api import Filings
from filings.cli_options import HomeOpt
from filings.output import add_row, line, markup_safe, print_json, text
from schema.errors import FilingsError
from schema.text_safety import visible

out = Console()
err = Console(stderr=True)
EXIT_BUSY = 75  # EX_TEMPFAIL: try again later
STYLE = {"fetched": "green", "added": "green", "superseded": "magenta", "unchanged": "dim", "planned": "cyan",
         "skipped": "yellow", "failed": "red"}

Targets = Annotated[list[str], typer.Argument(help="A watchlist file (watchlist.csv) and/or tickers, codes or names: "
                                                   "AAPL 600080 0700.HK 金花股份")]
SinceOpt = Annotated[str | None, typer.Option("--since", help="Filings published on or after this date (YYYY-MM-DD; "
                                                              "default: fetch.toml's since, else 3 years back)")]
FormsOpt = Annotated[str | None, typer.Option("--forms", help="Comma-separated: annual, interim, quarterly, results, "
                                                              "summary, all, or a kind (10-K, 8-K, q1, interim_summary)")]
LangOpt = Annotated[str | None, typer.Option("--lang", help="Report languages for A-shares / HK: zh, en or zh,en "
                                                            "(default: zh for A-shares, en for HK)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the run report as JSON")]
ClusterOpt = Annotated[str | None, typer.Option(
    "--cluster", help="Parse on Ray: ray://host:port, or local-ray / auto (Ray on this machine); default "
                      "$FILINGS_RAY_ADDRESS, else the local process pool")]


def _since(value: str | None) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        line(err, ("error:", "red"), f" --since expects a date like 2024-01-31 (got {value!r})")
        raise typer.Exit(2) from None


def _progress(enabled: bool) -> Progress:
    return Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=err,
                    disable=not enabled, transient=True)


def _run(call, as_json: bool):
    from warehouse.sources.cache import Busy

    with _progress(not as_json and err.is_terminal) as progress:
        task = progress.add_task("starting", total=None)
        try:
            return call(lambda text: progress.update(task, description=markup_safe(text[:70])))
        except Busy as exc:
            line(err, ("busy:", "yellow"), f" {exc}")
            raise typer.Exit(EXIT_BUSY) from None
        except FilingsError as exc:  # settings or usage: nothing was done
            line(err, ("error:", "red"), f" {exc}")
            raise typer.Exit(2) from None


def _period(item) -> str:
    when = item.fiscal_year or getattr(item, "period_end", None)
    return " ".join(str(x) for x in (item.form, when) if x) or ""


def _print_items(items, title: str) -> None:
    """On a terminal: a table of what arrived or changed (file names only), then one line per skip or failure
    with its reason. Piped: one tab-separated line per item, nothing cut."""
    shown = [i for i in items if i.status != "unchanged"]
    if not out.is_terminal:
        for i in shown:
            detail = i.reason or i.file or ""
            typer.echo(visible(f"{i.status}\t{i.code or i.origin or ''}\t{_period(i)}\t{i.source_id or ''}\t{detail}"))
        return
    done = [i for i in shown if i.status not in ("skipped", "failed")]
    if done:
        table = Table(title=title)
        for col in ("status", "company", "report", "filed", "file"):
            table.add_column(col, overflow="fold")
        for i in done:
            style = STYLE.get(i.status, "")
            add_row(table, text(i.status, style), i.code or "", _period(i), str(getattr(i, "filed", "") or ""),
                    Path(i.file).name if i.file else "")
        out.print(table)
    for i in shown:
        if i.status in ("skipped", "failed"):
            style = STYLE[i.status]
            where = f"{i.code} {i.source_id or ''}".strip() if i.code else ""
            line(out, (f"{i.status}:", style), " " + (f"{where}: " if where else "") + (i.reason or ""))


def _dump(data) -> None:
    print_json(data)


def _items_json(items) -> list[dict]:
    return [{k: v for k, v in vars(i).items()} for i in items]


def fetch(targets: Targets, since: SinceOpt = None, forms: FormsOpt = None, lang: LangOpt = None,
          dry_run: Annotated[bool, typer.Option("--dry-run", help="List what would be fetched; download nothing")] = False,
          home: HomeOpt = None, as_json: JsonOpt = False) -> None:
    """Download new filings from SEC EDGAR, cninfo and HKEXnews into $FILINGS_HOME/cache (no ingest)."""
    f = Filings(home)
    report = _run(lambda on_event: f.fetch(*targets, since=_since(since), forms=forms or (), languages=lang or (),
                                           dry_run=dry_run, on_event=on_event), as_json)
    counts = {s: report.count(s) for s in ("fetched", "planned", "unchanged", "skipped", "failed")}
    if as_json:
        _dump({"since": report.since, "dry_run": dry_run, **counts, "requests": report.requests,
               "listed": report.listed,
               "listings": [vars(l) for l in report.listings], "items": _items_json(report.items)})
    else:
        _print_items(report.items, f"fetch since {report.since}")
        summary = ", ".join(f"{k} {v}" for k, v in counts.items() if v or k in ("fetched", "failed"))
        requests = ", ".join(f"{k} {v}" for k, v in report.requests.items())
        listed = ", ".join(f"{code} {n}" for code, n in report.listed.items())
        typer.echo(f"listed since {report.since}: {listed or 'nothing'}")
        typer.echo(f"{summary}  (requests: {requests or 'none'}; cache: {f.home / 'cache'})")
    raise typer.Exit(1 if report.failed else 0)


def update(targets: Targets, since: SinceOpt = None, forms: FormsOpt = None, lang: LangOpt = None,
           no_index: Annotated[bool, typer.Option("--no-index", help="Store new documents without search units "
                                                  "(run `filings index` later)")] = False,
           home: HomeOpt = None, as_json: JsonOpt = False, cluster: ClusterOpt = None) -> None:
    """Fetch new filings, ingest them, replace corrected reports; a run report and an exit status for schedulers."""
    with Filings(home) as f:
        report = _run(lambda on_event: f.update(*targets, since=_since(since), forms=forms or (), languages=lang or (),
                                                index=not no_index, on_event=on_event, cluster=cluster), as_json)
    counts = {s: report.count(s) for s in ("added", "superseded", "unchanged", "skipped", "failed")}
    if as_json:
        _dump({"run_id": report.run_id, "started_at": report.started_at, "finished_at": report.finished_at,
               "since": report.fetch.since, **counts, "fetched": report.fetch.count("fetched"),
               "listed": report.fetch.listed,
               "requests": report.fetch.requests, "indexed_left_over": report.indexed,
               "exit_status": report.exit_status,
               "items": _items_json(report.items)})
    else:
        _print_items(report.items, f"update run {report.run_id} (since {report.fetch.since})")
        typer.echo(", ".join(f"{k} {v}" for k, v in counts.items()) +
                   f"  (fetched {report.fetch.count('fetched')} file(s); indexed {report.indexed} left over by an "
                   f"earlier run; warehouse: {f.home})")
    raise typer.Exit(report.exit_status)


def register(app: typer.Typer) -> None:
    app.command("fetch")(fetch)
    app.command("update")(update)
