"""The Ray engine of ``warehouse.cluster`` against the process pool: the same rows from `filings ingest --no-index`,
the same failure lines, the same window, the same embedding vectors in the same order; a bad address is one line
and exit status 2. One local Ray instance (2 CPUs) for the module."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import REPO, require_corpus
from filings.cli import app
from schema.errors import FilingsError
from warehouse import cluster as cluster_mod, store
from warehouse.parse_pool import in_flight

DOCS = [("hk", "0860_apollofuture_2021_annual-mda-extract.pdf"), ("cn", "600080_jinhuagufen_2025_q1.pdf"),
        ("cn", "603259_yaomingkangde_2025_q1.pdf")]


@pytest.fixture(scope="module")
def ray_cluster():
    from warehouse.ray_cluster import RayCluster

    c = RayCluster(None, 2)
    yield c
    c.close()


def _rows(home: Path) -> dict[str, list[tuple]]:
    con = store.connect(home, read_only=True)
    try:
        return store.snapshot(con)
    finally:
        con.close()


def _ingest(home: Path, *extra: str) -> None:
    files = [str(require_corpus(*d)) for d in DOCS]
    res = CliRunner().invoke(app, ["ingest", *files, "--no-index", "--home", str(home), *extra])
    assert res.exit_code == 0, res.output


def test_ray_ingest_stores_the_same_rows_as_the_process_pool(ray_cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_WORKERS", "2")
    _ingest(tmp_path / "pool")
    _ingest(tmp_path / "ray", "--cluster", "local-ray")
    pool, ray_rows = _rows(tmp_path / "pool"), _rows(tmp_path / "ray")
    assert len(pool["documents"]) == len(DOCS) and pool["pages"] and pool["facts"] and pool["financial_metrics"]
    for table in store.CONTRACT_TABLES:
        assert ray_rows[table] == pool[table], table


def test_ray_parse_keeps_the_window_and_the_failure_lines(ray_cluster, tmp_path, monkeypatch):
    from warehouse import ray_cluster as ray_mod

    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n1 0 obj <<")
    files = sorted(require_corpus("transcripts").glob("*.txt"))[:5] + [empty, broken]
    submitted: list = []
    task = ray_mod._parse_task

    class Counting:
        @staticmethod
        def remote(*args):
            submitted.append(args[0])
            return task.remote(*args)

    monkeypatch.setattr(ray_mod, "_parse_task", Counting)
    ahead, on_ray = [], {}
    for path, parsed, error in ray_cluster.parse(files):
        ahead.append(len(submitted) - len(on_ray))
        on_ray[path] = (error, parsed.pages if parsed else None)
        time.sleep(0.2)  # a driver slower than its workers
    assert max(ahead) == in_flight(ray_cluster.workers) < len(files)
    local = {path: (error, parsed.pages if parsed else None)
             for path, parsed, error in cluster_mod.LocalCluster(2).parse(files)}
    assert on_ray == local
    assert local[empty][0] and local[broken][0] and all(local[f][0] is None for f in files[:5])


def test_embed_same_vectors_in_input_order_locally_and_on_ray(ray_cluster):
    from vectorstore.embeddings import provider_for

    texts = ["Revenue rose 12% on strong iPhone demand", "营业收入同比增长", "", "risk factors: tariffs and supply",
             "a much longer passage " * 20, "净利润", "cash flow from operations"]
    local = cluster_mod.LocalCluster(1).embed("hashing", texts, 3, provider_for)
    on_ray = ray_cluster.embed("hashing", texts, 3, provider_for)
    one_by_one = np.vstack([provider_for("hashing").embed_passages([t]) for t in texts])
    assert local.shape == (len(texts), one_by_one.shape[1])
    np.testing.assert_array_equal(on_ray, local)
    np.testing.assert_allclose(local, one_by_one)
    assert ray_cluster.embed("hashing", [], 3, provider_for).shape == (0, one_by_one.shape[1])


def test_bad_cluster_address_is_one_line_and_exit_2(tmp_path):
    doc = str(require_corpus(*DOCS[0]))
    res = subprocess.run([sys.executable, "-m", "filings.cli", "ingest", doc, "--no-index", "--home",
                          str(tmp_path / "h"), "--cluster", "ray://127.0.0.1:1"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"})
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "ray://127.0.0.1:1" in lines[0] and "cannot reach" in lines[0], res.stderr
    with pytest.raises(FilingsError, match="expected ray://host:port"):
        cluster_mod.resolve_spec("ray-cluster.example:10001")


@pytest.fixture(scope="module")
def slow_pdf(tmp_path_factory) -> Path:
    """An image-only PDF of six full annual-report pages: parsing it means OCR'ing every page, seconds each on
    any machine (a text-layer report may parse in under a second on a fast one)."""
    pdfium = pytest.importorskip("pypdfium2")
    pdf = pdfium.PdfDocument(str(require_corpus("cn", "600080_jinhuagufen_2024_annual.pdf")))
    try:
        images = [pdf[i].render(scale=150 / 72).to_pil().convert("RGB") for i in range(70, 76)]
    finally:
        pdf.close()
    out = tmp_path_factory.mktemp("slow") / "600080_jinhuagufen_2024_annual.pdf"  # named as the report it shows
    images[0].save(out, "PDF", resolution=150, save_all=True, append_images=images[1:])
    return out


def test_ray_tasks_run_under_the_drivers_limits(ray_cluster, slow_pdf, monkeypatch):
    monkeypatch.setenv("FILINGS_PARSE_TIMEOUT", "1")
    (_, parsed, on_ray), = ray_cluster.parse([slow_pdf])
    (_, _, local), = cluster_mod.LocalCluster(1).parse([slow_pdf])
    assert parsed is None and on_ray == local and "parsing stopped after 1 s" in local and "FILINGS_PARSE_TIMEOUT" in local


def test_an_ingest_on_ray_embeds_the_same_vectors(ray_cluster, tmp_path, monkeypatch):
    """The dense phase of an ingest on the cluster (passages embedded by its actors) stores the vectors a local
    ingest stores: the same units, the same dense hits with the same scores."""
    from filings import Filings
    from vectorstore.index import collection_for

    monkeypatch.setenv("FILINGS_EMBED_MODELS", "US=hashing,A=hashing,HK=hashing")
    doc = require_corpus("transcripts", "KO_2021_Q4.json")
    found = {}
    for name, cluster in (("local", None), ("ray", ray_cluster)):
        with Filings(tmp_path / name) as f:
            report = f.ingest(doc, cluster=cluster)
            assert report.embedded == 1 and not report.index_failures
        with Filings(tmp_path / name, read_only=True) as f:
            assert f.index.pending_dense() == 0
            vector = f.index._query_vector("US", collection_for("US"), "pricing and volume growth")
            hits = f.index.engine.query_dense(collection_for("US"), vector, None, k=10)
            found[name] = [(h.id, round(h.score, 6)) for h in hits]
    assert len(found["local"]) == 10 and found["ray"] == found["local"]
