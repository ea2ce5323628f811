"""Published versions of the warehouse: what readers open, and how a writer swaps a new one in.

A home holds

    warehouse.duckdb -> versions/<v>/warehouse.duckdb     the current version (a relative symlink)
    versions/<v>/warehouse.duckdb                         a whole, checkpointed database (no WAL beside it)
    versions/<v>/qdrant/<collection>/                     the search shards of the same moment (no WAL)
    writer.lock                                           held by the one writer (``warehouse.writer``)
    .writer/                                              the writer's private copy (``warehouse.writer``)
    .readers/<pid>-<token>/                               a reader process's own view of a version's shards

A version is never changed once its directory is renamed into place; the writer makes a new one and swaps
the symlink with ``os.replace`` (atomic), so a reader opens the version before or the version after, never a
half-written one. A home built before versions existed (a regular ``warehouse.duckdb`` and a ``qdrant/``
folder in the home) is read as it is, and becomes versioned at its first publish.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

DB_FILE = "warehouse.duckdb"
VERSIONS = "versions"
QDRANT = "qdrant"
KEEP_VERSIONS = 2  # the newest versions always kept (the current one and the one before)
KEEP_SECONDS = 15  # nor is a version younger than this removed: a reader may have just resolved it (a facade
                   # whose version is gone moves to the current one: filings.api.Filings.index)


def link_path(home: Path) -> Path:
    return home / DB_FILE


def current_db(home: Path) -> Path:
    """The database file readers open: the current version's (the symlink resolved), or a legacy file."""
    link = link_path(home)
    return Path(os.path.realpath(link)) if link.is_symlink() else link


def version_dir(home: Path) -> Path:
    """Where the current version's files are (the home itself for a legacy, unversioned home)."""
    return current_db(home).parent


def qdrant_dir(home: Path) -> Path:
    return version_dir(home) / QDRANT


def new_version(home: Path) -> tuple[str, Path]:
    """A fresh, still hidden version folder ``versions/<v>.tmp`` to fill; :func:`swap_in` publishes it."""
    name = f"{time.time_ns():020d}-{os.getpid()}"
    tmp = home / VERSIONS / f"{name}.tmp"
    tmp.mkdir(parents=True)
    return name, tmp


def swap_in(home: Path, name: str, tmp: Path) -> Path:
    """Rename the filled folder into place, fsync it, and point ``warehouse.duckdb`` at it atomically."""
    final = home / VERSIONS / name
    _fsync_tree(tmp)
    os.rename(tmp, final)
    _fsync_dir(final.parent)
    link = link_path(home)
    tmp_link = home / f".{DB_FILE}.{os.getpid()}.link"
    if tmp_link.is_symlink() or tmp_link.exists():
        tmp_link.unlink()
    os.symlink(os.path.join(VERSIONS, name, DB_FILE), tmp_link)
    os.replace(tmp_link, link)
    _fsync_dir(home)
    legacy_wal = home / f"{DB_FILE}.wal"  # a WAL of the pre-version file would be replayed into the link
    if legacy_wal.exists():
        legacy_wal.unlink()
    return final


def collect_garbage(home: Path) -> list[str]:
    """Remove unfinished folders of killed writers and versions nobody opens any more: all but the current one,
    the newest ``KEEP_VERSIONS`` and those younger than ``KEEP_SECONDS``. Called by the writer (under its lock).
    A reader that opened a removed version keeps reading it (open files outlive their names)."""
    root = home / VERSIONS
    if not root.is_dir():
        return []
    current = version_dir(home).name
    removed = []
    names = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.endswith(".tmp"))
    now = time.time_ns()
    for p in root.iterdir():
        if p.name.endswith(".tmp"):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
    for name in names[:-KEEP_VERSIONS]:
        if name == current:
            continue
        try:
            born = int(name.split("-", 1)[0])
        except ValueError:
            continue
        if now - born < KEEP_SECONDS * 1_000_000_000:
            continue
        shutil.rmtree(root / name, ignore_errors=True)
        removed.append(name)
    return removed


def copy_file(src: Path, dst: Path) -> None:
    """Copy one file and fsync it."""
    shutil.copyfile(src, dst)
    with open(dst, "rb+") as fh:
        os.fsync(fh.fileno())


def disk_bytes(path: Path) -> int:
    """Bytes a file or folder takes on disk (allocated blocks; sparse files and hard links counted once)."""
    seen, total = set(), 0
    for root, _dirs, files in os.walk(path) if path.is_dir() else [(str(path.parent), [], [path.name])]:
        for f in files:
            st = os.lstat(os.path.join(root, f))
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            total += st.st_blocks * 512
    return total


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(path: Path) -> None:
    for root, dirs, files in os.walk(path):
        for f in files:
            p = os.path.join(root, f)
            if os.path.islink(p):
                continue
            fd = os.open(p, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(root))
