"""Sharing embedded shards between processes: publishing the writer's shards into a version, and a reader's own
view of a published version (hard links)."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path



# --------------------------------------------------------------------------------------------------------
# Sharing embedded shards between processes
# --------------------------------------------------------------------------------------------------------
#
# qdrant-edge has no read-only open: ``EdgeShard.load`` takes an exclusive lock on the shard's WAL, so a second
# process opening the same folder fails with "Can't init WAL: Kind(WouldBlock)". Published shards
# (``warehouse.versions``) are therefore never opened where they lie. ``publish_shards`` copies the writer's
# flushed shards into a version folder (sparse files kept sparse), WAL included: a shard loaded without its WAL
# numbers new operations from zero and silently ignores deletes of the points it holds, so the next writer must
# start from the WAL. ``reader_view`` gives each reading process its own folder of hard links to a published
# version's files (no bytes copied) without the WAL: the flushed segments hold every point, and the shard
# opens with a fresh WAL of its own. Loading and querying rewrites a few small segment files (status,
# deletion flags, id tracker) with the same bytes; nothing changes their content (tests/test_concurrency.py
# checks the published bytes after concurrent searches).

READERS = ".readers"


def publish_shards(src: Path, dst: Path) -> None:
    """Copy every shard folder of ``src`` (flushed) into ``dst``, WAL included, sparse files kept sparse."""
    import subprocess

    dst.mkdir(parents=True, exist_ok=True)
    for shard in sorted(p for p in Path(src).iterdir() if p.is_dir()):
        subprocess.run(["cp", "-a", "--sparse=always", "--reflink=auto", str(shard), str(dst / shard.name)],
                       check=True, capture_output=True)


def link_tree(src: Path, dst: Path, wal: bool = True) -> None:
    """``dst`` mirrors ``src`` with hard links (files) and new folders; ``wal=False`` leaves WAL folders out."""
    src = Path(src)
    for root, dirs, files in os.walk(src):
        if not wal:
            dirs[:] = [d for d in dirs if d != "wal"]
        target = dst / Path(root).relative_to(src)
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            os.link(os.path.join(root, f), target / f)


def reader_view(published: Path, readers_root: Path) -> Path:
    """This process's own folder of hard links to the shards in ``published`` (without their WAL; empty when
    there are none). Folders of reader processes that died are removed first."""
    try:
        readers_root.mkdir(parents=True, exist_ok=True)
        for old in readers_root.iterdir():
            pid = old.name.split("-", 1)[0]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                shutil.rmtree(old, ignore_errors=True)
        view = readers_root / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        view.mkdir()
    except OSError:  # a home this process may not write to (a read-only mount): a private copy in a temp folder
        import subprocess
        import tempfile

        view = Path(tempfile.mkdtemp(prefix="filings-reader-"))
        if Path(published).is_dir():
            for shard in sorted(p for p in Path(published).iterdir() if p.is_dir()):
                subprocess.run(["cp", "-a", "--sparse=always", str(shard), str(view / shard.name)], check=True,
                               capture_output=True)
                shutil.rmtree(view / shard.name / "wal", ignore_errors=True)
        return view
    if Path(published).is_dir():
        link_tree(Path(published), view, wal=False)
    return view


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
