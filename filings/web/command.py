"""`filings serve`: start the web viewer (read-only) on loopback by default."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(host: Annotated[str, typer.Option("--host", help="Address to bind (loopback by default; anything "
                                                          "else exposes the warehouse without authentication)")] = "127.0.0.1",
          port: Annotated[int, typer.Option("--port", help="TCP port")] = 8765,
          home: Annotated[Path | None, typer.Option("--home", help="Warehouse folder (default $FILINGS_HOME or ./.filings)")] = None) -> None:
    """Web viewer: ask, search, company series, and every citation opened at its page with the span marked."""
    import uvicorn
    from rich.console import Console

    from filings.web.app import create_app
    from warehouse import store

    err = Console(stderr=True)
    path = store.db_path(home)
    if not path.exists():
        err.print(f"[red]error:[/red] no warehouse at {path}: run `filings ingest PATH` first (or pass --home)")
        raise typer.Exit(2)
    if not 0 < port < 65536:
        err.print(f"[red]error:[/red] --port must be 1-65535 (got {port})")
        raise typer.Exit(2)
    loopback = is_loopback(host)
    if not loopback:
        err.print(f"[yellow]warning:[/yellow] binding {host}: anyone who can reach this address can read the "
                  "warehouse (there is no authentication)")
    app = create_app(home, allowed_hosts=[*LOOPBACK_HOSTS, host] if loopback else None)
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    err.print(f"filings viewer on http://{shown}:{port}/  (read-only over {path}; Ctrl+C stops it)")
    try:
        uvicorn.run(app, host=host.strip("[]"), port=port, log_level="warning", access_log=False)
    except OSError as exc:
        err.print(f"[red]error:[/red] cannot listen on {host}:{port}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
