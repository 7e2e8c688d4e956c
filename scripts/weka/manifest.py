#!/usr/bin/env python3
"""Print the MANIFEST table (markdown) of tests/golden/weka for PROVENANCE.md."""
import glob, os
G = 'tests/golden/weka'
CLS = {'IBk': 'weka.classifiers.lazy.IBk', 'M5P': 'weka.classifiers.trees.M5P',
       'LinearRegression': 'weka.classifiers.functions.LinearRegression'}
OPTS = {'default': '', 'K3': '-K 3', 'K3I': '-K 3 -I', 'K3F': '-K 3 -F', 'N': '-N', 'U': '-U',
        'R': '-R', 'M10': '-M 10', 'S1': '-S 1', 'C': '-C'}
def show(o):
    return '`' + o + '`' if o else '(none)'
def ext(ds):
    return 'csv' if os.path.exists(f'{G}/data/{ds}.csv') else 'arff'
print('| golden file | dataset (train -> test) | classifier | options | rows |')
print('|---|---|---|---|---|')
for f in sorted(glob.glob(f'{G}/*.txt')):
    ds, c, o = os.path.basename(f)[:-4].split('__')
    n = sum(1 for _ in open(f))
    print(f'| `{os.path.basename(f)}` | `data/{ds}_train.{ext(ds)}` -> `data/{ds}_test.{ext(ds)}` | {CLS[c]} | {show(OPTS[o])} | {n} |')
for f in sorted(glob.glob(f'{G}/cv/*.csv')):
    ds, c, _ = os.path.basename(f)[:-4].split('__')
    n = sum(1 for _ in open(f)) - 1
    print(f'| `cv/{os.path.basename(f)}` | `data/{ds}.{ext(ds)}`, 10-fold CV, seed 1 | {CLS[c]} | (none) | {n} |')
