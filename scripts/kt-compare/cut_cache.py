"""Closing a Kernel Tuner cache that was cut off, as advise's reader does
(src/dataset/import/kernel_tuner.rs): first as Kernel Tuner itself closes an open cache
("}\\n}" after its last entry); failing that, after each of its last four closing braces in
turn, so that a cache cut inside an entry keeps its complete entries. Shared by kt_run.py and
close_cache.py."""

import json


def parse_cache_text(text):
    """(document, the text parsed, whether it had to be closed). Raises json.JSONDecodeError
    (the first one) when neither way parses."""
    try:
        return json.loads(text), text, False
    except json.JSONDecodeError as first:
        error = first
    fixed = text.rstrip().rstrip(",") + "}\n}"
    try:
        return json.loads(fixed), fixed, True
    except json.JSONDecodeError:
        pass
    end = len(text)
    for _ in range(4):
        cut = text.rfind("}", 0, end)
        if cut < 0:
            break
        candidate = text[: cut + 1] + "\n}\n}\n"
        try:
            return json.loads(candidate), candidate, True
        except json.JSONDecodeError:
            end = cut
    raise error
