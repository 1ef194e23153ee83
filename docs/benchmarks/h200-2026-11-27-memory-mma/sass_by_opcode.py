# Per profiled kernel and SASS opcode: the memory columns of Nsight Compute's source page summed
# (the per-instruction counters derived from the addresses). One row per (kernel, opcode).
import csv, sys, re
out = csv.writer(sys.stdout)
cols = None
cur = None; hdr = None; idx = -1; acc = {}
def flush():
    if cur is None: return
    for op, d in sorted(acc.items()):
        out.writerow([idx, cur[:160], op] + [d.get(c, 0) for c in cols])
for line in open(sys.argv[1]):
    if line.startswith('"Kernel Name"'):
        flush(); idx += 1; cur = line.split('","')[1]; hdr = None; acc = {}; continue
    if line.startswith('"Address"'):
        hdr = next(csv.reader([line]))
        if cols is None:
            cols = [h for h in hdr if re.search(r'Shared|Global|Sectors|Requests|Wavefronts|Executed', h)]
            out.writerow(['kernel_index', 'kernel', 'opcode'] + cols)
        continue
    if cur is not None and hdr and line.startswith('"'):
        r = dict(zip(hdr, next(csv.reader([line]))))
        src = r.get('Source', '').strip()
        op = src.split(' ')[0] if src else ''
        if op.startswith('@'): op = src.split(' ')[1] if len(src.split(' ')) > 1 else op
        if not re.match(r'^(LD|ST|LDG|STG|LDS|STS|LDSM|LDGSTS|ATOM|RED|UTMA|UBLKCP|STSM)', op): continue
        d = acc.setdefault(op, {})
        for c in cols:
            try: d[c] = d.get(c, 0) + int(float((r.get(c) or '0').replace(',', '') or 0))
            except ValueError: pass
flush()
