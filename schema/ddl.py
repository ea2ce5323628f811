"""DuckDB DDL of the warehouse (DESIGN.md section 3). Applied idempotently on every open."""

SCHEMA_VERSION = 2  # 2: basis, fiscal-year labels, derived values (financial_metrics*, document_metrics)

TABLES = {
    "companies": """
        company_id VARCHAR PRIMARY KEY,
        name_en VARCHAR,
        name_zh VARCHAR,
        cik VARCHAR,
        source VARCHAR  -- 'master' (mappings/companies.yaml) or 'filing' (met first in a filing)
    """,
    "securities": """
        stock_code VARCHAR PRIMARY KEY,
        company_id VARCHAR NOT NULL,
        market VARCHAR NOT NULL,
        listing VARCHAR NOT NULL,
        exchange VARCHAR
    """,
    "aliases": """
        alias VARCHAR NOT NULL,
        alias_key VARCHAR NOT NULL,
        company_id VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,  -- name_en, name_zh, alias (master); short_name, abbreviation, former_name, code,
                                -- ticker, cik (printed in a filing: schema.models.IssuerName)
        document_id VARCHAR,    -- source: the filing that prints the name (NULL: mappings/companies.yaml)
        page INTEGER            -- source page (NULL for the master and XBRL cover facts)
    """,
    "documents": """
        document_id VARCHAR PRIMARY KEY,  -- sha256 of the file bytes
        file_name VARCHAR NOT NULL,
        doc_name VARCHAR NOT NULL,        -- file stem; the FinanceBench doc_name for its PDFs
        path VARCHAR,
        bytes BIGINT,
        market VARCHAR,
        company_id VARCHAR,
        company_name VARCHAR,
        stock_code VARCHAR,
        other_codes VARCHAR[],
        cik VARCHAR,
        form VARCHAR,
        fiscal_year INTEGER,
        fiscal_period VARCHAR,
        period_end DATE,
        fiscal_year_end_month INTEGER,
        language VARCHAR,
        currency VARCHAR,
        accounting_standard VARCHAR,
        pages INTEGER,
        company_metrics BOOLEAN,
        facts INTEGER,
        warnings VARCHAR[],
        parser VARCHAR,
        ingested_at TIMESTAMP
    """,
    "pages": """
        document_id VARCHAR NOT NULL,
        page INTEGER NOT NULL,            -- 1-based physical page, blank pages included
        text VARCHAR NOT NULL,            -- whitespace folded, one line per text row
        ocr BOOLEAN NOT NULL,
        PRIMARY KEY (document_id, page)
    """,
    "sections": """
        document_id VARCHAR NOT NULL,
        section VARCHAR NOT NULL,
        title VARCHAR,
        page_start INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        page_end INTEGER NOT NULL,
        char_end INTEGER,
        confidence DOUBLE,
        pointer BOOLEAN,
        attrs JSON
    """,
    "facts": """
        document_id VARCHAR NOT NULL,
        fact_no INTEGER NOT NULL,
        concept VARCHAR,
        label VARCHAR,
        value DECIMAL(38, 6),
        value_text VARCHAR,
        unit VARCHAR,
        decimals INTEGER,
        scale INTEGER,
        original_unit VARCHAR,
        period_start DATE,
        period_end DATE,
        period_type VARCHAR,
        dimensions JSON,
        statement VARCHAR,
        consolidated BOOLEAN,
        page INTEGER,
        locator VARCHAR,
        column_label VARCHAR,
        PRIMARY KEY (document_id, fact_no)
    """,
    # Every canonical metric value each document reports (own period and comparatives).
    "document_metrics": """
        document_id VARCHAR NOT NULL,
        company_id VARCHAR,
        stock_code VARCHAR NOT NULL,
        market VARCHAR NOT NULL,
        fiscal_year INTEGER NOT NULL,
        fiscal_period VARCHAR NOT NULL,
        period_end DATE NOT NULL,
        report_type VARCHAR,
        metric_name VARCHAR NOT NULL,
        metric_value DECIMAL(38, 6) NOT NULL,
        currency VARCHAR,
        accounting_standard VARCHAR,
        original_label VARCHAR,
        original_unit VARCHAR,
        page VARCHAR,
        source_kind VARCHAR NOT NULL,     -- own_report | comparative
        doc_period_end DATE,
        form_rank INTEGER NOT NULL,       -- 0 full report, 1 summary, 2 a database's copy (companyfacts)
        concept VARCHAR,                  -- XBRL qname, or statement + normalised printed label
        concept_rank INTEGER NOT NULL,    -- mapping priority of that concept / label (0 best)
        statement VARCHAR,                -- printed statement read (income, balance, cashflow, key_figures);
                                          -- NULL for XBRL facts
        rounding INTEGER,                 -- the figure is rounded to 10^rounding base units, as printed or
                                          -- tagged: 6 for millions, 4 for 万元, -2 for cents; NULL exact
        filed DATE                        -- a value a database copied from a filing (SEC companyfacts): the day
                                          -- that filing was filed (report_type its form, doc_period_end its
                                          -- period); NULL for a document's own values
    """,
    # One row per listing, fiscal year, fiscal period and metric on the default basis: the latest value (from
    # the latest report that prints the period: restated / split-adjusted). fiscal_year is the calendar year in
    # which the fiscal year ends (one rule for sorting and joins); fiscal_year_label is the company's own name.
    "financial_metrics": """
        company_id VARCHAR,
        stock_code VARCHAR NOT NULL,
        market VARCHAR NOT NULL,
        fiscal_year INTEGER NOT NULL,
        fiscal_period VARCHAR NOT NULL,
        period_end DATE NOT NULL,
        report_type VARCHAR,
        metric_name VARCHAR NOT NULL,
        metric_value DECIMAL(38, 6) NOT NULL,
        currency VARCHAR,
        accounting_standard VARCHAR,
        original_label VARCHAR,
        original_unit VARCHAR,
        document_id VARCHAR NOT NULL,
        page VARCHAR,
        source_kind VARCHAR NOT NULL,     -- own_report | comparative | derived
        restated BOOLEAN NOT NULL,        -- reports of that period disagree (beyond the rounding of their scale)
        fiscal_year_label INTEGER,        -- the company's own name for the fiscal year ("fiscal 2024" -> 2024):
                                          -- Home Depot's year ended 2025-02-02 has fiscal_year 2025, label 2024
        basis VARCHAR NOT NULL,           -- latest (this table) | as_reported (financial_metrics_as_reported)
        other_basis_value DECIMAL(38, 6), -- the same period's value on the other basis
        derivation JSON,                  -- derived rows: {"formula", "inputs": [{period, value, document, page}]}
        PRIMARY KEY (stock_code, fiscal_year, fiscal_period, metric_name)
    """,
    # What the PDF statement readers made of each primary statement of a report (ParsedDocument.statement_reads):
    # read (with its pages and the rows that became facts), unreadable (with the reason) or not found.
    "statement_reads": """
        document_id VARCHAR NOT NULL,
        statement VARCHAR NOT NULL,       -- income | balance | cashflow | ...
        consolidated BOOLEAN NOT NULL,
        status VARCHAR NOT NULL,          -- read | unreadable | not_found
        page INTEGER,                     -- first page of the statement
        pages INTEGER[],                  -- every page it was read from
        rows INTEGER,                     -- printed rows that became facts
        reason VARCHAR                    -- why it is unreadable / not found
    """,
    "ingest_runs": """
        run_id VARCHAR NOT NULL,
        started_at TIMESTAMP NOT NULL,
        finished_at TIMESTAMP,
        path VARCHAR NOT NULL,
        document_id VARCHAR,
        status VARCHAR NOT NULL,          -- added | unchanged | failed | skipped | superseded
        reason VARCHAR,
        seconds DOUBLE
    """,
    # Documents a corrected version replaced (`filings update`): their rows are removed from every table and
    # a later ingest of the same file is skipped.
    "superseded": """
        document_id VARCHAR PRIMARY KEY,  -- sha256 of the replaced file
        superseded_by VARCHAR NOT NULL,   -- document_id of the corrected version
        source_id VARCHAR,                -- the replaced file's id at its source (cninfo:..., hkex:...)
        doc_name VARCHAR,
        stock_code VARCHAR,
        reason VARCHAR,
        superseded_at TIMESTAMP NOT NULL
    """,
    # The search index of each stored document (`filings index` / `filings update` complete what is missing,
    # failed or stale: embedded with another model than its collection's now).
    "index_state": """
        document_id VARCHAR PRIMARY KEY,
        collection VARCHAR,               -- filings_us, filings_a, filings_hk
        model VARCHAR,                    -- the embedding model its units were embedded with
        units INTEGER,                    -- search units upserted
        status VARCHAR NOT NULL,          -- indexed | failed
        reason VARCHAR,                   -- why it failed
        updated_at TIMESTAMP NOT NULL
    """,
    "meta": """
        key VARCHAR PRIMARY KEY,
        value VARCHAR
    """,
}


# Columns added to a table after warehouses were first built: applied on every read-write open.
MIGRATIONS = [
    "ALTER TABLE aliases ADD COLUMN IF NOT EXISTS document_id VARCHAR",
    "ALTER TABLE aliases ADD COLUMN IF NOT EXISTS page INTEGER",
]

# The same rows on the other basis: each period's value as first reported (the period's own report, else the
# earliest report that prints it). Same columns as financial_metrics.
TABLES["financial_metrics_as_reported"] = TABLES["financial_metrics"]


def columns(table: str) -> list[str]:
    """Column names of a table, in DDL order."""
    return [line.split()[0] for line in TABLES[table].strip().splitlines()
            if line.strip() and not line.strip().startswith(("--", "PRIMARY KEY"))]


def create_statements() -> list[str]:
    return [f"CREATE TABLE IF NOT EXISTS {name} ({cols})" for name, cols in TABLES.items()] + MIGRATIONS
