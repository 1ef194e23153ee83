# Per profiled kernel: the shared-memory wavefronts and their ideal, loads and stores, summed over
# the SASS instructions of Nsight Compute's source page (counters derived from the addresses).
import csv, sys
out = csv.writer(sys.stdout)
out.writerow(['kernel_index', 'kernel', 'shared_ld_wavefronts', 'shared_ld_ideal', 'shared_st_wavefronts', 'shared_st_ideal'])
cur = None; hdr = None; idx = -1; acc = None
def flush():
    if cur is not None: out.writerow([idx, cur[:200]] + acc)
for line in open(sys.argv[1]):
    if line.startswith('"Kernel Name"'):
        flush(); idx += 1; cur = line.split('","')[1]; hdr = None; acc = [0, 0, 0, 0]; continue
    if line.startswith('"Address"'):
        hdr = next(csv.reader([line])); continue
    if cur is not None and hdr and line.startswith('"'):
        r = dict(zip(hdr, next(csv.reader([line]))))
        if r.get('Address Space') != 'Shared': continue
        num = lambda k: int(float((r.get(k) or '0').replace(',', '') or 0))
        o = 0 if r.get('Access Operation') == 'Load' else 2
        acc[o] += num('L1 Wavefronts Shared'); acc[o + 1] += num('L1 Wavefronts Shared Ideal')
flush()
