#!/usr/bin/env python3
"""SYNTHETIC test spaces, derived from real ones: copies of Kernel Tuner caches in which a
share of the working configurations is marked failed ("CompilationFailedConfig"), the ones
of largest "resource" (the product of the named parameters' values; ties broken by the cache
key), as a register, shared-memory or block-size limit would make them fail. The public
spaces docs/search-results.md measures fail in at most 23% of their configurations; these
test a search where most of a space fails. They are not measurements: the kernel name says
SYNTHETIC and what was failed.

    failing-spaces.py CACHE OUT SHARE PARAM [PARAM ...]

e.g. (the eight of docs/search-results.md, "Spaces where most configurations fail"; SP is
the folder scripts/search/all-spaces.sh wrote):

    for s in 0.5 0.8; do t=$(echo $s | tr -d .)
      failing-spaces.py SP/dev/convolution__A100.json.gz OUT/convolution__A100_fail$t.json.gz \\
          $s block_size_x block_size_y tile_size_x tile_size_y
      failing-spaces.py SP/dev/dedispersion__A100.json.gz OUT/dedispersion__A100_fail$t.json.gz \\
          $s block_size_x block_size_y tile_size_x tile_size_y
      failing-spaces.py SP/paper/gemm__A100.json.gz OUT/gemm__A100_fail$t.json.gz $s MWG NWG KWG
      failing-spaces.py SP/paper/hotspot__A4000.json.gz OUT/hotspot__A4000_fail$t.json.gz \\
          $s block_size_x block_size_y tile_size_x tile_size_y temporal_tiling_factor
    done
"""
import gzip
import json
import sys


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.split("\n\n")[1])
    src, out, share = sys.argv[1], sys.argv[2], float(sys.argv[3])
    params = sys.argv[4:]
    if not 0.0 <= share <= 1.0:
        sys.exit(f"failing-spaces: SHARE {share} is not between 0 and 1")
    with gzip.open(src, "rt") as f:
        d = json.load(f)
    cache = d["cache"]
    for p in params:
        if p not in d["tune_params_keys"]:
            sys.exit(f"failing-spaces: {src} has no parameter {p} ({', '.join(d['tune_params_keys'])})")

    def works(v):
        t = v.get("time")
        return isinstance(t, (int, float)) and 0 < t < 1e19

    def resource(k):
        r = 1.0
        for p in params:
            r *= float(cache[k][p])
        return (r, k)

    working = sorted((k for k, v in cache.items() if works(v)), key=resource, reverse=True)
    failed = int(round(share * len(working)))
    for k in working[:failed]:
        cache[k]["time"] = "CompilationFailedConfig"
    d["kernel_name"] = (f"{d.get('kernel_name', '')} (SYNTHETIC: {share:.0%} of the working "
                        f"configurations failed by the largest {'*'.join(params)})")
    with gzip.open(out, "wt") as f:
        json.dump(d, f)
    print(f"{out}: {len(cache)} configurations, {failed} working ones failed, "
          f"{len(working) - failed} working left")


if __name__ == "__main__":
    main()
