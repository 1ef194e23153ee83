#!/usr/bin/env python3
"""Markdown summary of `tilescope bench --csv` files: one table per problem and precision,
a row per variant configuration, a column per size, each cell GFLOP/s and % of cuBLAS.
Usage: scripts/bench-summary.py bench-gemm.csv [bench-ata.csv ...] > summary.md"""
import csv
import sys
from collections import OrderedDict


def main(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            rows += [r for r in csv.DictReader(f)]
    if not rows:
        sys.exit("no rows")
    d = rows[0]
    print(f"Device: {d['device_name']}, SM clock {d['sm_clock_mhz']} MHz (max), driver {d['driver_version']}, "
          f"CUDA runtime {d['runtime_version']}, cuBLAS {d['cublas_version']}; {d['timestamp'][:10]}.\n")
    groups = OrderedDict()
    for r in rows:
        groups.setdefault((r["problem"], r["precision"]), []).append(r)
    for (problem, prec), rs in groups.items():
        sizes = sorted({int(r["N"]) for r in rs})
        print(f"### {problem} {prec} — GFLOP/s (% of the best cuBLAS baseline)\n")
        print("| variant:config | " + " | ".join(f"N = {n}" for n in sizes) + " |")
        print("| --- |" + " --- |" * len(sizes))
        table = OrderedDict()
        for r in rs:
            table.setdefault(f"{r['variant_id']}:{r['config_name']}", {})[int(r["N"])] = r
        for name, cells in table.items():
            out = []
            for n in sizes:
                r = cells.get(n)
                if r is None:
                    out.append("")
                elif r["error"]:
                    out.append("error")
                else:
                    pct = float(r["pct_of_cublas"])
                    ok = "" if r["passed"] == "true" or r["verified"] != "true" else " FAIL"
                    out.append(f"{float(r['gflops']):,.0f} ({pct:.0f}%){ok}" if pct >= 0 else f"{float(r['gflops']):,.0f}")
            print(f"| {name} | " + " | ".join(out) + " |")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
