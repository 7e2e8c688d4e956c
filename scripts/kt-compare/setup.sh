#!/usr/bin/env bash
# Creates the Python environment for kt_run.py: a virtualenv with Kernel Tuner 1.5.0.
# Kernel Tuner's simulation mode needs no GPU, no CUDA and no compiler: its default
# dependencies (numpy, scipy, scikit-learn for bayes_opt, python-constraint2, pandas, pymoo,
# jsonschema, xmltodict) are all it imports; no extras (cuda, opencl, hip) are installed.
# Idempotent: an existing environment that already has kernel_tuner 1.5.0 is left as it is.
#   KT_VENV=/path/to/venv scripts/kt-compare/setup.sh     (default: scripts/kt-compare/.venv)
#   PYTHON=python3.11 ...                                  (interpreter; Kernel Tuner 1.5.0 needs >= 3.10)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${KT_VENV:-$here/.venv}"
python="${PYTHON:-python3}"
want="1.5.0"

if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$want" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if version("kernel_tuner") == sys.argv[1] else 1)
PY
then
    echo "kt-compare: $venv already has kernel_tuner $want"
    exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" || {
        echo "kt-compare: '$python -m venv' failed (on Debian: apt-get install python3-venv)" >&2
        exit 1
    }
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "kernel_tuner==$want"
"$venv/bin/python" -c "import kernel_tuner, scipy, sklearn, constraint; from importlib.metadata import version; print('kt-compare: kernel_tuner', version('kernel_tuner'), 'ready in $venv')"
