# Joins the tensor-core kernels' model totals (mma_sync here; wmma and wgmma_tma in
# ../h200-2026-11-27-memory-wmma/; tilescope memory --exact --sites --csv) with Nsight
# Compute's counters: the hardware counters (raw page) and the per-instruction counters derived
# from the addresses (source page, summed per SASS opcode by sass_by_opcode.py). Shared-memory
# accesses include generic loads and stores that land in shared memory (wmma's FP64 fragments:
# LD.E.64, ST.E.128); a kernel without cp.async has no LDGSTS rows.
# Usage: python3 compare.py RESULTS_DIR OUT.csv (the profiler's files in RESULTS_DIR or RESULTS_DIR/ncu;
# sass_by_opcode.py, beside this file, makes the sass-*.csv ones).
# cp.async: its global side (LDGSTS.E.BYPASS) has no hardware l1tex counter on sm_90 (only the
# L1-allocating variant does), so it is compared with the per-instruction counts; its shared side
# is not in op_st's wavefronts, and its bank conflicts are l1tex__..._op_ldgsts.
import csv, glob, io, os, re, sys
from collections import defaultdict
D, out_path = sys.argv[1], sys.argv[2]
device = open(os.path.join(D, 'device.txt')).read().splitlines()[1].split(',')[0].strip()
rows = list(csv.DictReader(open(os.path.join(D, 'model.csv'))))
alls = defaultdict(list); sites = defaultdict(dict)
for r in rows:
    key = (r['variant'], r['problem'], r['precision'], r['N'])
    if r['site'] == 'all': alls[key].append(r)
    else: sites[key + (r['config'],)][r['site']] = r
num = lambda x: int(float(str(x).replace(',', ''))) if x not in ('', 'n/a', None) else 0
def raw_rows(f):
    lines = [l for l in open(f) if l.startswith('"')]
    rr = list(csv.reader(io.StringIO(''.join(lines))))
    return [dict(zip(rr[0], r)) for r in rr[2:]]
def sass_kernels(f):
    ks = defaultdict(dict)
    rr = list(csv.reader(open(f)))
    hdr = rr[0]
    for r in rr[1:]:
        ks[int(r[0])][r[2]] = {h: num(v) for h, v in zip(hdr[3:], r[3:])}
    return [ks[i] for i in sorted(ks)]
def sass_sum(k, prefix, col):
    return sum(v[col] for op, v in k.items() if op.split('.')[0] == prefix)
# Every load (or store) whose data are in shared memory: LDS, LDSM and generic LD (STS, generic ST);
# the per-instruction shared columns are zero for the global ones.
def shared_sum(k, kind, col):
    ops = ('LDS', 'LDSM', 'LD') if kind == 'ld' else ('STS', 'ST')
    return sum(v[col] for op, v in k.items() if op.split('.')[0] in ops)
w = csv.writer(open(out_path, 'w', newline=''))
w.writerow(['device', 'variant', 'config', 'problem', 'precision', 'M', 'N', 'K', 'counter', 'model', 'ncu_hardware',
            'ncu_per_instruction', 'hardware_diff_pct', 'per_instruction_diff_pct'])
worst_hw = worst_pi = 0.0; n_rows = 0; outside = []
def pct(m, x):
    if x == '' or x is None: return ''
    return (m - x) / x * 100 if x else (0.0 if m == 0 else float('inf'))
N = os.path.join(D, 'ncu') if os.path.isdir(os.path.join(D, 'ncu')) else D
for f in sorted(glob.glob(os.path.join(N, 'ncu-*.csv'))):
    v, n, p, t = re.match(r'.*ncu-([a-z_]+)-(\d+)-(\w+)-(\w+)\.csv', f).groups()
    hw = raw_rows(f)[0::2]
    sk = sass_kernels(os.path.join(N, f'sass-{v}-{n}-{p}-{t}.csv'))
    # Each launch is profiled twice (the bench's run and its check), and the source page lists
    # every kernel twice again: the first of each configuration's entries.
    sk = sk[0::max(1, len(sk) // max(1, len(alls[(v, p, t, n)])))]
    cfgs = alls[(v, p, t, n)]
    if not (len(hw) == len(sk) == len(cfgs)):
        print('launch count mismatch', f, len(hw), len(sk), len(cfgs)); continue
    for mr, h, k in zip(cfgs, hw, sk):
        st = sites[(v, p, t, n, mr['config'])]
        async_sites = [s for name, s in st.items() if name.endswith('into shared memory') and n == '1024']
        async_wf = sum(num(s['shared_st_wavefronts']) for s in async_sites)
        async_conf = sum(num(s['shared_st_conflicts']) for s in async_sites)
        ldgsts = sass_sum(k, 'LDGSTS', 'Instructions Executed') > 0
        checks = [
            ('global_ld_requests', num(mr['global_ld_requests']),
             '' if ldgsts else num(h['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']),
             sass_sum(k, 'LDGSTS', 'Instructions Executed') if ldgsts else ''),
            ('global_ld_sectors', num(mr['global_ld_sectors']),
             '' if ldgsts else num(h['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']),
             sass_sum(k, 'LDGSTS', 'L2 Theoretical Sectors Global') if ldgsts else ''),
            ('global_st_requests', num(mr['global_st_requests']), num(h['l1tex__t_requests_pipe_lsu_mem_global_op_st.sum']), ''),
            ('global_st_sectors', num(mr['global_st_sectors']), num(h['l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum']), ''),
            ('shared_ld_wavefronts', num(mr['shared_ld_wavefronts']),
             num(h['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']),
             shared_sum(k, 'ld', 'L1 Wavefronts Shared')),
            ('shared_ld_conflicts', num(mr['shared_ld_conflicts']),
             num(h['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum']),
             shared_sum(k, 'ld', 'L1 Wavefronts Shared Excessive')),
            ('shared_st_wavefronts', num(mr['shared_st_wavefronts']),
             num(h['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum']), shared_sum(k, 'st', 'L1 Wavefronts Shared')),
            ('shared_st_conflicts', num(mr['shared_st_conflicts']),
             num(h['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum']),
             shared_sum(k, 'st', 'L1 Wavefronts Shared Excessive')),
        ]
        if ldgsts:
            checks += [('async_copy_wavefronts', async_wf, '', sass_sum(k, 'LDGSTS', 'L1 Wavefronts Shared')),
                       ('async_copy_conflicts', async_conf,
                        num(h['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum']), '')]
        for c, m, hv, sv in checks:
            dh, ds = pct(m, hv), pct(m, sv)
            w.writerow([device, v, mr['config'], p, t, mr['M'], mr['N'], mr['K'], c, m, hv, sv,
                        f'{dh:.3f}' if dh != '' else '', f'{ds:.3f}' if ds != '' else ''])
            n_rows += 1
            if dh != '' and 'conflicts' not in c: worst_hw = max(worst_hw, abs(dh))
            if ds != '': worst_pi = max(worst_pi, abs(ds))
            if (dh != '' and abs(dh) > 2) or (ds != '' and abs(ds) > 2):
                outside.append((v, mr['config'], p, t, n, c, m, hv, sv))
print('rows', n_rows)
# Per counter, the worst difference: wavefronts, sectors and requests in % of the count; bank
# conflicts in % of the wavefronts they add to (a handful of hardware conflicts against a model's 0
# is not 100% off). The fragment pipeline's (_fp) source view lists only part of its instructions:
# its per-instruction counts are left out of the worst case (its hardware counters are not).
wf = {}
for r in csv.DictReader(open(out_path)):
    wf[(r['config'], r['problem'], r['precision'], r['N'], r['counter'])] = r
worst = defaultdict(lambda: [0.0, 0.0, 0, 0])
for key, r in wf.items():
    c = r['counter']
    base = wf.get(key[:4] + (c.replace('conflicts', 'wavefronts'),), r)
    for i, col in ((0, 'ncu_hardware'), (1, 'ncu_per_instruction')):
        if r[col] == '' or (i == 1 and r['config'].endswith('_fp')): continue
        m, x = num(r['model']), num(r[col])
        denom = num(base[col]) if 'conflicts' in c else x
        d = abs(m - x) / denom * 100 if denom else (0.0 if m == x else float('inf'))
        worst[c][i] = max(worst[c][i], d); worst[c][2 + i] += 1
print('%-24s %26s %30s' % ('counter', 'worst vs hardware % (n)', 'worst vs per-instruction % (n)'))
for c, (h, pi, nh, npi) in worst.items():
    print('%-24s %20.3f (%3d) %24.3f (%3d)' % (c, h, nh, pi, npi))
