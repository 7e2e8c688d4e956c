#!/usr/bin/env python3
"""Sanity check: compare the full-precision golden files with Weka's own command line
(`-t train -T test -p 0` and `-t data -x 10 -s 1 -p 0`), which prints 3 decimals.
Run from the repository root: python3 scripts/weka/check_cli.py"""
import csv, glob, os, re, subprocess, sys

JAR = os.environ.get('WEKA_JAR', '/usr/share/java/weka.jar')
G = 'tests/golden/weka'
CLS = {'IBk': 'weka.classifiers.lazy.IBk', 'M5P': 'weka.classifiers.trees.M5P',
       'LinearRegression': 'weka.classifiers.functions.LinearRegression'}
OPTS = {'default': [], 'K3': ['-K', '3'], 'K3I': ['-K', '3', '-I'], 'K3F': ['-K', '3', '-F'],
        'N': ['-N'], 'U': ['-U'], 'R': ['-R'], 'M10': ['-M', '10'], 'S1': ['-S', '1'], 'C': ['-C']}


def cli(args):
    out = subprocess.run(['java', '-cp', JAR] + args, capture_output=True, text=True, check=True).stdout
    preds, started = [], False
    for line in out.splitlines():
        if line.strip().startswith('inst#'):
            started = True
            continue
        if started and line.strip():
            preds.append(float(line.split()[2]))
    return preds


def close(full, printed):
    return abs(full - printed) <= 0.0005 + 1e-9 * abs(full)


bad = checked = 0
for f in sorted(glob.glob(f'{G}/*.txt')):
    ds, c, o = os.path.basename(f)[:-4].split('__')
    ext = 'csv' if os.path.exists(f'{G}/data/{ds}_train.csv') else 'arff'
    printed = cli([CLS[c]] + OPTS[o] + ['-t', f'{G}/data/{ds}_train.{ext}', '-T', f'{G}/data/{ds}_test.{ext}', '-p', '0'])
    full = [float(x) for x in open(f)]
    ok = len(full) == len(printed) and all(close(a, b) for a, b in zip(full, printed))
    checked += 1
    bad += not ok
    print(('OK   ' if ok else 'DIFF ') + f, len(full))
for f in sorted(glob.glob(f'{G}/cv/*.csv')):
    ds, c, _ = os.path.basename(f)[:-4].split('__')
    ext = 'csv' if os.path.exists(f'{G}/data/{ds}.csv') else 'arff'
    printed = cli([CLS[c], '-t', f'{G}/data/{ds}.{ext}', '-x', '10', '-s', '1', '-p', '0'])
    full = [float(r['predicted']) for r in csv.DictReader(open(f))]  # file is in CLI order
    ok = len(full) == len(printed) and all(close(a, b) for a, b in zip(full, printed))
    checked += 1
    bad += not ok
    print(('OK   ' if ok else 'DIFF ') + f, len(full))
print(f'{checked} checked, {bad} differ')
sys.exit(1 if bad else 0)
