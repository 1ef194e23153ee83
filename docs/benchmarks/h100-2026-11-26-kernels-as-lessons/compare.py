#!/usr/bin/env python3
# Before/after comparison of the CSVs in this folder: for every configuration x input type x size,
# the median over the five rounds of each round's median time, after / before; and the spread of
# the five rounds of the same (before) program, which is the noise the comparison sits in.
# Groups: kernels whose machine code changed, kernels split into functions with byte-identical
# machine code, kernels whose text did not change (their launch files did).
import collections, csv, glob, os, statistics

HERE = os.path.dirname(os.path.abspath(__file__))
CHANGED = {("wgmma_tma", c) for c in ["128x256_s4_st", "128x256_s3_st", "128x256_s4_c2", "128x256_s4_st_c2",
                                      "192x192_s3_st"]} | {("mma_sync", "d128x128x16_s4_fp")}
UNCHANGED_TEXT = {"naive", "smem_tiled", "regtile_prefetch", "wmma"}

times = collections.defaultdict(lambda: collections.defaultdict(list))
for f in glob.glob(os.path.join(HERE, "*-r[0-9].csv")):
    which = "before" if os.path.basename(f).startswith("before") else "after"
    for r in csv.DictReader(open(f)):
        if not r["error"] and r["median_ms"]:
            times[(r["variant_id"], r["config_name"], r["precision"], r["M"])][which].append(float(r["median_ms"]))

groups = collections.defaultdict(list)
for key, t in sorted(times.items()):
    ratio = statistics.median(t["after"]) / statistics.median(t["before"])
    spread = max(t["before"]) / min(t["before"]) - 1
    group = ("machine code changed" if key[:2] in CHANGED else
             "kernel text unchanged" if key[0] in UNCHANGED_TEXT else "split, machine code identical")
    groups[group].append((ratio, spread, key))
for group, cases in groups.items():
    ratios = [c[0] for c in cases]
    spreads = [c[1] for c in cases]
    print(f"{group}: {len(cases)} cases, after/before median {statistics.median(ratios):.4f} "
          f"(min {min(ratios):.4f}, max {max(ratios):.4f}, {sum(abs(r - 1) > 0.01 for r in ratios)} beyond 1%); "
          f"spread of the same program's five rounds: median {100 * statistics.median(spreads):.1f}%, "
          f"max {100 * max(spreads):.1f}%")
    for ratio, spread, key in sorted(cases):
        print(f"  {ratio:.4f}  (rounds spread {100 * spread:4.1f}%)  {' '.join(key)}")
