# Joins the model's totals (tilescope memory --exact --csv) with Nsight Compute's counters (raw page:
# hardware counters; source page: the per-instruction counters derived from the addresses).
import csv, glob, io, os, re, sys
from collections import defaultdict
D = sys.argv[1]
out_path = sys.argv[2]
device = open(os.path.join(D, 'device.txt')).read().splitlines()[1].split(',')[0].strip()
model = defaultdict(list)
for r in csv.DictReader(open(os.path.join(D, 'model.csv'))):
    if r['site'] != 'all': continue
    model[(r['variant'], r['problem'], r['precision'], r['N'])].append(r)
HW = {'global_ld_requests': 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'global_ld_sectors': 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
      'global_st_requests': 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 'global_st_sectors': 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
      'shared_ld_wavefronts': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'shared_ld_conflicts': 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum',
      'shared_st_wavefronts': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'shared_st_conflicts': 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum'}
def raw_rows(f):
    lines = [l for l in open(f) if l.startswith('"')]
    rows = list(csv.reader(io.StringIO(''.join(lines))))
    hdr = rows[0]; data = rows[2:]  # second row: units
    return [dict(zip(hdr, r)) for r in data]
def sass_kernels(f):
    return list(csv.DictReader(open(f)))
def num(x):
    return int(float(x.replace(',', ''))) if x not in ('', 'n/a') else 0
w = csv.writer(open(out_path, 'w', newline=''))
w.writerow(['device', 'variant', 'config', 'problem', 'precision', 'M', 'N', 'K', 'counter', 'model', 'ncu_hardware', 'ncu_per_instruction', 'hardware_diff_pct', 'per_instruction_diff_pct'])
worst = {'hw': 0, 'sass': 0}; rows_out = 0; outside = []
for f in sorted(glob.glob(os.path.join(D, 'ncu-*.csv'))):
    m = re.match(r'.*ncu-([a-z_]+)-(\d+)-(\w+)-(\w+)\.csv', f)
    v, n, p, t = m.groups()
    hw = raw_rows(f)
    sk = sass_kernels(os.path.join(D, f'sass-{v}-{n}-{p}-{t}.csv'))
    cfgs = model[(v, p, t, n)]
    hw_first = hw[0::2]; stride = max(1, len(sk) // max(1, len(cfgs))); sk_first = sk[0::stride]
    if len(hw_first) != len(cfgs):
        print('launch count mismatch', f, len(hw), len(cfgs)); continue
    for i, mr in enumerate(cfgs):
        h = hw_first[i]; s = sk_first[i] if i < len(sk_first) else None
        sass = {}
        if s:
            for key in ('ld', 'st'):
                wav = int(s[f'shared_{key}_wavefronts']); ideal = int(s[f'shared_{key}_ideal'])
                sass[f'shared_{key}_wavefronts'] = wav; sass[f'shared_{key}_conflicts'] = wav - ideal
        for c, metric in HW.items():
            mv = num(mr[c.replace('global_ld_requests', 'global_ld_requests')] if c in mr else mr[c])
            hv = num(h[metric])
            sv = sass.get(c, '')
            dh = (mv - hv) / hv * 100 if hv else (0.0 if mv == 0 else float('inf'))
            ds = ((mv - sv) / sv * 100 if sv else (0.0 if mv == 0 else float('inf'))) if sv != '' else ''
            w.writerow([device, v, mr['config'], p, t, mr['M'], mr['N'], mr['K'], c, mv, hv, sv, f'{dh:.3f}', f'{ds:.3f}' if ds != '' else ''])
            rows_out += 1
            if 'conflicts' not in c: worst['hw'] = max(worst['hw'], abs(dh))
            if ds != '' : worst['sass'] = max(worst['sass'], abs(ds))
            if abs(dh) > 2 and hv > 0.001 * max(1, num(mr.get(c.replace('conflicts', 'wavefronts'), '0') or '0')):
                outside.append((v, mr['config'], p, t, n, c, mv, hv, sv))
print('rows', rows_out, 'worst hardware (non-conflict) %', round(worst['hw'], 3), 'worst per-instruction %', round(worst['sass'], 3))
for o in outside: print('outside 2%:', *o)
