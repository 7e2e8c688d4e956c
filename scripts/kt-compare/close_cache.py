#!/usr/bin/env python3
"""Write a gzipped Kernel Tuner cache that is a closed JSON document.

    close_cache.py IN(.json|.json.gz) OUT.json.gz

A cache whose brute-force run stopped early has no closing braces; one whose file was itself
cut short may also end inside an entry or inside the compressed stream. This keeps the
complete entries and closes the document as advise's reader does (cut_cache.py, which
kt_run.py uses too). A complete cache is written unchanged in content. Prints how many
entries were kept and whether anything was cut.
"""

import gzip
import sys
import zlib

from cut_cache import parse_cache_text


def read_text(path):
    raw = open(path, "rb").read()
    if raw[:2] != b"\x1f\x8b":
        return raw.decode(), False
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    text = d.decompress(raw)
    # A truncated stream yields what it holds and never reaches its end marker.
    return text.decode(errors="ignore"), not d.eof


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    text, stream_cut = read_text(sys.argv[1])
    try:
        doc, closed, repaired = parse_cache_text(text)
    except ValueError as e:
        sys.exit(f"close_cache: {sys.argv[1]}: not a Kernel Tuner cache, even closed: {e}")
    if not isinstance(doc, dict) or "cache" not in doc:
        sys.exit(f"close_cache: {sys.argv[1]}: no \"cache\" member: not a Kernel Tuner cache")
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
