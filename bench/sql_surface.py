"""What the SQL surface admits and the limits it runs under, with the time each runaway statement takes to end.

    python bench/sql_surface.py

Prints the allow-list (mappings/sql_allowlist.yaml, by group), the SQL limits in force (schema/limits.py), and
for a set of runaway / hostile statements the outcome, the seconds to the outcome and the process's peak RSS
(one fresh process per statement, on an empty warehouse)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

from common import REPO, print_table

sys.path.insert(0, str(REPO))

from mappings.sql_allowlist import allowlist  # noqa: E402
from schema import limits  # noqa: E402
from warehouse.sql import warehouse_relations  # noqa: E402

RUNAWAY = [
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
    "SELECT count(*) FROM range(100000) a, range(100000) b, range(1000) c",
    "SELECT * FROM range(1000000000)",
    "SELECT x FROM range(300000000) t(x) ORDER BY x DESC",
    "SELECT list(x) FROM range(1000000000) t(x)",
    "SELECT repeat('x', 1000000000)",
    "SELECT current_setting('temp_directory')",
    "SELECT * FROM temp.main.meta",
    "SELECT '",
]
CHILD = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
from schema.errors import QueryRefused
from warehouse import sql, store
con = store.connect({home!r}, read_only=True)
t = time.perf_counter()
try:
    r = sql.run(con, sys.argv[1], max_rows=1000)
    outcome = f"{{len(r.rows)}} rows" + (" (cut)" if r.truncated else "")
except QueryRefused as exc:
    outcome = "refused: " + str(exc)
print(json.dumps({{"seconds": time.perf_counter() - t, "outcome": outcome,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def main() -> None:
    allow = allowlist()
    print("SQL allow-list (mappings/sql_allowlist.yaml):")
    print(f"  relations: the warehouse tables ({', '.join(sorted(warehouse_relations()))}), the statement's CTEs, "
          + ", ".join(f"{s}.{n}" for s, n in sorted(allow.relations)))
    for group, names in allow.groups.items():
        print(f"  {group} ({len(names)}): {', '.join(names)}")
    print(f"  {len(allow.functions)} functions and operators, {len(allow.table_functions)} table functions in all")
    print("\nSQL limits (schema/limits.py):")
    for lim in (limits.SQL_SECONDS, limits.SQL_DISPLAY_ROWS, limits.SQL_MAX_ROWS, limits.SQL_MEMORY_BYTES,
                limits.SQL_CHARS):
        print(f"  {lim.name}: {lim.describe()}")
    print("  no temporary directory (nothing spills to disk); external access, extension loading and Python "
          "replacement scans off; all fixed before lock_configuration")
    rows = []
    with tempfile.TemporaryDirectory() as home:
        for statement in RUNAWAY:
            out = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO), home=home), statement],
                                 capture_output=True, text=True, timeout=600, check=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append([statement[:60], r["outcome"][:70], r["seconds"], f"{r['rss_mib']:.0f}"])
    print_table(["statement", "outcome", "seconds", "peak RSS MiB"], rows, title="runaway and hostile statements")


if __name__ == "__main__":
    main()
