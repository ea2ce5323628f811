"""The parse pool keeps at most 2 x workers documents in flight ahead of a slow consumer, on real corpus files."""

from __future__ import annotations

import time

from conftest import require_corpus
from warehouse import parse_pool


def _transcripts(n: int):
    files = sorted(require_corpus("transcripts").glob("*.txt"))[:n]
    assert len(files) == n
    return files


def test_bounded_window_with_a_slow_consumer(monkeypatch):
    scheduled: list = []

    class CountingPool(parse_pool.ProcessPool):
        def schedule(self, function, args=(), **kw):
            scheduled.append(args[0])
            return super().schedule(function, args=args, **kw)

    monkeypatch.setattr(parse_pool, "ProcessPool", CountingPool)
    files = _transcripts(6)
    workers = 1
    ahead, seen = [], []
    for path, parsed, error in parse_pool.parse_files(files, workers=workers):
        ahead.append(len(scheduled) - len(seen))  # scheduled and not yet consumed, this one included
        seen.append(path)
        assert error is None and parsed.pages, error
        time.sleep(0.3)  # a driver slower than its worker
    assert sorted(seen) == sorted(files) and sorted(scheduled) == sorted(files)
    assert max(ahead) == parse_pool.in_flight(workers) == 2 * workers


def test_bounded_yields_each_item_once_and_never_exceeds_the_limit():
    outstanding, peak = set(), []

    def submit(item):
        outstanding.add(item)
        peak.append(len(outstanding))
        return item

    def finished(pending):
        return [max(pending)]  # finishes out of submission order

    got = []
    for item, handle in parse_pool.bounded(range(10), 3, submit, finished):
        assert item == handle
        outstanding.discard(item)
        got.append(item)
    assert sorted(got) == list(range(10)) and max(peak) == 3
