"""A KTT 2.x output (`{"Metadata", "Results"}`) as a Kernel Tuner cache, read as advise reads it
(src/dataset/import/ktt.rs). Shared by kt_run.py and benchmarking-spaces.py; no NumPy."""

KTT_MS_PER_UNIT = {"Nanoseconds": 1e-6, "Microseconds": 1e-3, "Milliseconds": 1.0, "Seconds": 1e3}


def _ktt_value(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return int(v)
    return v


def ktt_to_cache(data, path):
    """A KTT 2.x output (`{"Metadata", "Results"}`) as a Kernel Tuner cache, read as advise does.

    Time = sum of the `ComputationResults` durations in `Metadata.TimeUnit`, converted to ms; a
    result whose `Status` is not "Ok" (or that has no computation result) is a failure, written
    as "RuntimeFailedConfig" (one of the strings Kernel Tuner's cache reader turns into an error).
    `tune_params` = each parameter's distinct values, sorted; a configuration measured more than
    once (a searcher's log) gets the mean of its working results' times, as advise joins them.
    There is no problem size (Kernel Tuner then does not check it).
    """
    meta = data.get("Metadata", {})
    unit = meta.get("TimeUnit", "Microseconds")
    if unit not in KTT_MS_PER_UNIT:
        raise ValueError(f"{path}: unknown KTT TimeUnit `{unit}`")
    scale = KTT_MS_PER_UNIT[unit]
    results = data.get("Results") or []
    if not results:
        raise ValueError(f"{path}: KTT output has no results")
    names = [p["Name"] for p in results[0]["Configuration"]]
    values = {n: set() for n in names}
    cache = {}
    times = {}
    kernel = ""
    for r in results:
        cfg = [_ktt_value(p["Value"]) for p in r["Configuration"]]
        if [p["Name"] for p in r["Configuration"]] != names:
            raise ValueError(f"{path}: results with different parameters")
        kernel = kernel or r.get("KernelName") or ""
        for n, v in zip(names, cfg):
            values[n].add(v)
        key = ",".join(str(v) for v in cfg)
        if key not in cache:
            cache[key] = dict(zip(names, cfg))
            times[key] = []
        comp = r.get("ComputationResults") or []
        if r.get("Status") == "Ok" and len(comp) > 0:
            times[key].append(sum(c["Duration"] for c in comp) * scale)
    for key, entry in cache.items():
        ts = times[key]
        entry["time"] = sum(ts) / len(ts) if ts else "RuntimeFailedConfig"
    tune_params = {n: sorted(values[n]) for n in names}
    return {
        "device_name": meta.get("Device", ""),
        "kernel_name": kernel or "ktt_kernel",
        "tune_params_keys": names,
        "tune_params": tune_params,
        "cache": cache,
    }
