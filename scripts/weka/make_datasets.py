#!/usr/bin/env python3
"""Derive the small, deterministic train/test files used for the Weka golden tests.

Stdlib only. Run from the repository root:
    python3 scripts/weka/make_datasets.py
Inputs: Weka's example ARFFs shipped by Debian's weka 3.6.14-3 (/usr/share/doc/weka/examples)
and /work/shared/data (see tests/golden/weka/PROVENANCE.md).
Outputs: tests/golden/weka/data/<name>.{arff,csv} (full), <name>_train.*, <name>_test.*
Split rule for every dataset: train = first floor(2n/3) data rows in file order, test = the rest.
Value text is copied verbatim from the source (ARFF) or written with Python repr (JSON floats,
round-trip exact).
"""
import csv, gzip, io, json, os, re

WEKA = '/usr/share/doc/weka/examples'
SHARED = '/work/shared/data'
OUT = 'tests/golden/weka/data'


def split_rows(rows):
    k = len(rows) * 2 // 3
    return rows[:k], rows[k:]


def read_arff(path):
    """Return (header_lines, data_lines); comments/blank lines dropped, text kept verbatim."""
    header, data, in_data = [], [], False
    for line in open(path, encoding='utf-8'):
        s = line.strip()
        if not s or s.startswith('%'):
            continue
        if in_data:
            data.append(s)
        else:
            header.append(s)
            if s.lower().startswith('@data'):
                in_data = True
    return header, data


def write_arff(name, header, rows):
    full = os.path.join(OUT, name)
    tr, te = split_rows(rows)
    for suffix, rs in (('', rows), ('_train', tr), ('_test', te)):
        with open(f'{full}{suffix}.arff', 'w') as f:
            f.write('\n'.join(header) + '\n' + '\n'.join(rs) + '\n')


def write_csv(name, names, rows):
    full = os.path.join(OUT, name)
    tr, te = split_rows(rows)
    for suffix, rs in (('', rows), ('_train', tr), ('_test', te)):
        with open(f'{full}{suffix}.csv', 'w', newline='') as f:
            f.write(','.join(names) + '\n')
            for r in rs:
                f.write(','.join(r) + '\n')


def copy_arff(name, src):
    h, d = read_arff(src)
    write_arff(name, h, d)


def labor_wage():
    """labor.arff with 'wage-increase-first-year' (numeric, attribute 2) moved to the last
    position so that it is the class; everything else (incl. the nominal 'class') kept."""
    h, d = read_arff(f'{WEKA}/labor.arff')
    attrs = [l for l in h if l.lower().startswith('@attribute')]
    rel = [l for l in h if l.lower().startswith('@relation')]
    idx = 1  # 0-based position of wage-increase-first-year
    assert "'wage-increase-first-year'" in attrs[idx]
    attrs = attrs[:idx] + attrs[idx + 1:] + [attrs[idx]]
    rows = []
    for line in d:
        v = line.split(',')  # no quoted commas in labor.arff
        assert len(v) == 17
        v = v[:idx] + v[idx + 1:] + [v[idx]]
        rows.append(','.join(v))
    write_arff('labor_wage', ["@relation 'labor-neg-data-wage1'"] + attrs + ['@data'], rows)


def ktt_conv():
    """KTT convolution, RTX 2080 Ti: results with Status Ok and ProfilingData, in file order;
    keep every 17th of those (positions 0,17,34,...), first 300. Columns: the 9 tuning
    parameters, the 33 counters (file order), Duration (us) as class."""
    d = json.load(gzip.open(f'{SHARED}/ktt-counters-rtx2080ti/KTConvolutionOutput_2080Ti.json.gz'))
    ok = [r for r in d['Results'] if r['Status'] == 'Ok' and r['ComputationResults'][0].get('ProfilingData')]
    sel = ok[::17][:300]
    names = None
    rows = []
    for r in sel:
        cr = r['ComputationResults'][0]
        cfg = r['Configuration']
        ctr = cr['ProfilingData']['Counters']
        n = [c['Name'] for c in cfg] + [c['Name'] for c in ctr] + ['Duration']
        if names is None:
            names = n
        assert n == names
        rows.append([repr(c['Value']) for c in cfg] + [repr(c['Value']) for c in ctr] + [repr(cr['Duration'])])
    write_csv('ktt_conv', names, rows)


def nvprof_hotspot():
    """nvprof calculate_temp (Rodinia hotspot) on TitanX: data rows 0,40,80,... (every 40th,
    0-based, file order). Drops the unnamed row-id column and the string columns
    (name, gpu_name); keeps every other column as numeric, with 'duration' moved last."""
    with gzip.open(f'{SHARED}/nvprof-counters-rodinia/calculate_temp-TitanX.csv.gz', 'rt') as f:
        rd = list(csv.reader(f))
    head, data = rd[0], rd[1:]
    data = data[::40]
    drop = {'', 'name', 'gpu_name'}
    keep = [i for i, h in enumerate(head) if h not in drop and h != 'duration']
    di = head.index('duration')
    names = [head[i] for i in keep] + ['duration']
    rows = []
    for r in data:
        v = [r[i] for i in keep] + [r[di]]
        for x in v:
            float(x)  # all numeric
        rows.append(v)
    write_csv('nvprof_hotspot', names, rows)


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    copy_arff('cpu', f'{WEKA}/cpu.arff')
    copy_arff('cpu_vendor', f'{WEKA}/cpu.with.vendor.arff')
    labor_wage()
    copy_arff('nvcc_flags', f'{SHARED}/nvcc-flag-autotuning/weka_arff/Rodinia_GTX-980_GTX-750_Tesla-K40.arff')
    ktt_conv()
    nvprof_hotspot()
