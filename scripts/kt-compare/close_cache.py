#!/usr/bin/env python3
"""Write a gzipped Kernel Tuner cache that is a closed JSON document.

    close_cache.py IN(.json|.json.gz) OUT.json.gz

A cache whose brute-force run stopped early has no closing braces; one whose file was itself
cut short may also end inside an entry or inside the compressed stream. Kernel Tuner writes
one entry per line, so this keeps the header and every entry line that parses on its own (the
complete entries, as advise's reader keeps them) and closes the document. A complete cache is
written unchanged in content. Prints how many entries were kept and whether anything was cut.
"""

import gzip
import json
import sys
import zlib


def read_text(path):
    raw = open(path, "rb").read()
    if raw[:2] != b"\x1f\x8b":
        return raw.decode(), False
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    text = d.decompress(raw)
    # A truncated stream yields what it holds and never reaches its end marker.
    return text.decode(errors="ignore"), not d.eof


def close(text):
    try:
        json.loads(text)
        return text, False
    except json.JSONDecodeError:
        pass
    lines = text.split("\n")
    head = []
    i = 0
    while i < len(lines) and '"cache"' not in lines[i]:
        head.append(lines[i])
        i += 1
    if i == len(lines):
        sys.exit("close_cache: no \"cache\" member: not a Kernel Tuner cache")
    head.append(lines[i])
    entries = []
    for line in lines[i + 1:]:
        s = line.rstrip()
        if s.endswith("},"):
            s = s[:-1]
        try:
            json.loads("{" + s + "}")
        except json.JSONDecodeError:
            continue
        entries.append(s)
    return "\n".join(head) + "\n" + ",\n".join(entries) + "\n}\n}\n", True


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    text, stream_cut = read_text(sys.argv[1])
    closed, repaired = close(text)
    doc = json.loads(closed)
    with gzip.GzipFile(sys.argv[2], "wb", mtime=0) as f:
        f.write(closed.encode())
    notes = []
    if stream_cut:
        notes.append("compressed stream cut short")
    if repaired:
        notes.append("cut off: complete entries kept")
    print(f"{sys.argv[2]}: {len(doc['cache'])} entries" + (f" ({'; '.join(notes)})" if notes else ""))


if __name__ == "__main__":
    main()
