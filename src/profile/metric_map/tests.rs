use super::*;

#[test]
fn map_is_sorted_and_unique() {
    let names: Vec<_> = METRIC_MAP.iter().map(|p| p.nvprof).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names.len(), sorted.len(), "duplicate nvprof names");
}

#[test]
fn issue_counters_are_mapped() {
    for name in [
        "active_cycles",
        "elapsed_cycles_sm",
        "inst_executed",
        "inst_issued",
        "gld_transactions",
        "gst_transactions",
        "local_load_transactions",
        "shared_load_transactions",
        "dram_read_bytes",
        "l2_tex_hit_rate",
        "branch",
        "divergent_branch",
        "achieved_occupancy",
        "ipc",
        "stall_memory_dependency",
    ] {
        assert!(to_ncu(name).is_some(), "{name}");
    }
    assert_eq!(to_ncu("achieved_occupancy").unwrap().1, 100.0);
    assert!(to_ncu("inst_replay_overhead").is_none());
    assert_eq!(lookup("inst_replay_overhead").unwrap().matches, Match::None);
}
