"""Which files an ingest reads, and a line for every path it does not.

Named files are always offered to the parsers (which say why they cannot read one). Inside a folder, files a
parser claims (``parsers.detect``) are read; a file with a filing extension (``parsers.FILING_SUFFIXES``) that
no parser claims gets a ``skipped`` result with the reason (an empty ``.pdf``, a text file named ``.pdf``, an
``.htm`` without inline XBRL, a broken link); hidden files, ``README.md`` and other extensions are passed over
in silence. A folder in which nothing can be read (empty, or only files no parser claims), a path that does
not exist, a folder that cannot be listed and a file over its kind's size limit are refused: a ``failed``
result naming the path and the reason, so the run's exit status says something was wrong.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import parsers
from parsers import boundary
from schema.errors import ParseError

SKIP_NAMES = frozenset({"readme.md", ".ds_store"})


@dataclass
class Plan:
    files: list[Path] = field(default_factory=list)  # to hash and parse, in order
    skipped: list[tuple[Path, str]] = field(default_factory=list)  # (file, "<file>: reason"): not a filing
    refused: list[tuple[Path, str]] = field(default_factory=list)  # (path, "<path>: reason"): a failure


def _size_problem(path: Path, kind: str | None) -> str | None:
    if kind is None:
        return None
    try:
        boundary.check_size(path, kind)
    except ParseError as exc:
        return str(exc)
    except OSError as exc:
        return f"{path}: cannot be read ({exc.strerror or exc})"
    return None


def _folder(root: Path, plan: Plan) -> None:
    errors: list[OSError] = []
    found = looked = 0
    for folder, dirs, names in os.walk(root, onerror=errors.append, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or name.lower() in SKIP_NAMES:
                continue
            path = Path(folder) / name
            looked += 1
            filing_like = path.suffix.lower() in parsers.FILING_SUFFIXES
            if not path.is_file():  # a broken link, a FIFO, a socket: never opened
                if filing_like:
                    what = "a broken symbolic link" if path.is_symlink() else "not a regular file"
                    plan.skipped.append((path, f"{path}: {what}"))
                continue
            kind = parsers.detect(path)
            if kind is None:
                if filing_like:
                    plan.skipped.append((path, parsers.why_not(path)))
                continue
            found += 1
            problem = _size_problem(path, kind)
            if problem:
                plan.refused.append((path, problem))
            else:
                plan.files.append(path)
    for exc in errors:
        where = exc.filename or root
        plan.refused.append((Path(where), f"{where}: folder cannot be read ({exc.strerror or exc})"))
    if not found and not errors:
        what = "it is empty" if not looked else f"{looked} file(s), none a filing this tool reads"
        plan.refused.append((root, f"{root}: no filing found in this folder ({what})"))


def plan(paths: Iterable[str | Path]) -> Plan:
    """The files to read and the results for everything else (see the module docstring)."""
    out = Plan()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            _folder(path, out)
        elif not path.exists():
            out.refused.append((path, f"{path}: file does not exist"
                                + (" (a broken symbolic link)" if path.is_symlink() else "")))
        elif not path.is_file():
            out.refused.append((path, f"{path}: not a regular file"))
        else:
            problem = _size_problem(path, parsers.detect(path))
            if problem:
                out.refused.append((path, problem))
            else:
                out.files.append(path)
    return out
