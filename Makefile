# make install | make demo | make test   (each bootstraps .venv itself)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DO_NOT_TRACK := true
export SCARF_NO_ANALYTICS := true

.PHONY: install demo test bench clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0  # the CPU build, before anything can pull a CUDA one
	$(PY) -m pip install -q -c constraints.txt -e '.[test]'
	touch $@

demo: install
	$(PY) -m filings.demo

test: install
	$(PY) -m pytest

bench: install
	$(PY) bench/ingest_us.py
	$(PY) bench/ingest_pdf.py

clean:
	rm -rf .filings .pytest_cache
