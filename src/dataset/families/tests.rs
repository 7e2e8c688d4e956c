use super::*;

#[test]
fn parameters_of_other_programs_join_the_catalogue_families() {
    assert_eq!(of_param("WORK_GROUP_SIZE_X"), Some("BLOCK_SIZE"));
    assert_eq!(of_param("block_size_y"), Some("BLOCK_SIZE"));
    assert_eq!(of_param("INNER_UNROLL_FACTOR"), Some("UNROLL"));
    assert_eq!(of_param("USE_CONSTANT_MEMORY"), Some("CONST"));
    assert_eq!(of_param("TILE_SIZE"), Some("TILE_SIZE"));
    assert_eq!(of_param("USE_METHOD"), None);
    assert_eq!(
        of_switch("READ_ONLY:0->1", None).as_deref(),
        Some("READ_ONLY")
    );
    assert_eq!(of_switch("UNROLL", None).as_deref(), Some("UNROLL"));
    assert_eq!(
        of_switch("USE_SOA:0->1", Some("padding")).as_deref(),
        Some("PADDING")
    );
    assert_eq!(of_switch("TILE_SIZE_X:1->2", Some("none")), None);
    assert_eq!(of_switch("USE_METHOD:0->1", None), None);
    assert_eq!(of_param("USE_SOA"), Some("SOA"));
    assert_eq!(of_param("Z_ITERATIONS"), Some("TILE_SIZE"));
}

/// Names of public tuning spaces (KTT's examples, Kernel Tuner's and benchmark_hub's
/// kernels, BAT, CLTune, CLBlast) and the family each means in its kernel.
#[test]
fn public_tuning_parameters_find_their_family() {
    let cases = [
        ("INNER_UNROLL_FACTOR1", Some("UNROLL")),
        ("loop_unroll_factor_0", Some("UNROLL")),
        ("loop_unroll_factor_t", Some("UNROLL")),
        ("LOOP_UNROLL_FACTOR_X", Some("UNROLL")),
        ("UNROLL_LOOP_2", Some("UNROLL")),
        ("KWI", Some("UNROLL")),
        ("WGS2", Some("BLOCK_SIZE")),
        ("TBX", Some("BLOCK_SIZE")),
        ("MDIMC", Some("BLOCK_SIZE")),
        ("NUM_WI_L_1", Some("BLOCK_SIZE")),
        ("COPY_DIMX", Some("BLOCK_SIZE")),
        ("PAD_DIMY", Some("BLOCK_SIZE")),
        ("WORK_GROUP_Y", Some("BLOCK_SIZE")),
        ("WPTY", Some("TILE_SIZE")),
        ("WPT1", Some("TILE_SIZE")),
        ("PAD_WPTX", Some("TILE_SIZE")),
        ("TILING_FACTOR_Z", Some("TILE_SIZE")),
        ("P_CB_SIZE_L_2", Some("TILE_SIZE")),
        ("OUTER_UNROLL_FACTOR", Some("TILE_SIZE")),
        ("use_shared_mem", Some("SHMEM")),
        ("LOCAL_MEM", Some("SHMEM")),
        ("USE_SHARED_VECTOR_1", Some("SHMEM")),
        ("sh_power", Some("SHMEM")),
        ("SA", Some("SHMEM")),
        ("PADD_LOCAL", Some("PADDING")),
        ("TRA_PAD", Some("PADDING")),
        ("use_cmem", Some("CONST")),
        ("TEXTURE_MEMORY", Some("READ_ONLY")),
        // False friends: look like a family, are not one.
        ("tile_stride_x", None),
        ("temporal_tiling_factor", None),
        ("blocks_per_sm", None),
        ("BLOCKS_PER_MP", None),
        ("num_blocks", None),
        ("NUM_WG_L_1", None),
        ("threads_per_row", None),
        ("MWG", None),
        ("KWG", None),
        ("VWM", None),
        ("VECTOR_TYPE", None),
        ("TBX_XL", None),
        ("BLOCK_SIZE_ROWS", None),
        ("MAX_SHARED_MEMORY", None),
        ("INTERNAL_BLOCK_SIZE", None),
        ("X", None),
        ("_1", None),
        ("", None),
    ];
    for (name, family) in cases {
        assert_eq!(of_param(name), family, "{name}");
    }
}

#[test]
fn an_unroll_step_from_zero_joins_no_family() {
    assert_eq!(of_step("INNER_UNROLL_FACTOR", "0"), None);
    assert_eq!(of_step("INNER_UNROLL_FACTOR", "1"), Some("UNROLL"));
    assert_eq!(of_step("TILE_SIZE_X", "0"), Some("TILE_SIZE"));
    assert_eq!(of_switch("loop_unroll_factor_t:0->1", None), None);
    assert_eq!(
        of_switch("loop_unroll_factor_t:2->4", None).as_deref(),
        Some("UNROLL")
    );
    // The dataset's own answer wins.
    assert_eq!(
        of_switch("INNER_UNROLL_FACTOR:0->1", Some("UNROLL")).as_deref(),
        Some("UNROLL")
    );
}

#[test]
fn aliases_belong_to_one_family_only() {
    let mut all: Vec<&str> = FAMILIES
        .iter()
        .flat_map(|f| f.aliases.iter().copied())
        .collect();
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n);
}

#[test]
fn the_docs_table_is_this_table() {
    let doc = include_str!("../../../docs/families.md");
    assert!(
        doc.contains(&markdown()),
        "docs/families.md is out of date: regenerate it from `advise features --formulas`"
    );
}

/// The 196 single names of docs/tuning-parameter-names.md with the family each means in its
/// kernel: every name of no family stays out, and every other one is matched but for the
/// names the rules leave to `switches.csv`.
#[test]
fn the_researched_public_names_match_as_documented() {
    let text = include_str!("../../../tests/fixtures/tuning-parameter-names.txt");
    let left_to_switches_csv = [
        "BICG_BATCH",
        "ROWS_PROCESSED",
        "LOCAL",
        "BLOCK_SIZE_COLS",
        "BLOCK_SIZE_ROWS",
        "MWG",
        "NWG",
        "KREG",
        "WGD",
        "TMMWGSX",
        "TS",
        "TILE",
    ];
    let (mut matched, mut total) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        let (Some(name), Some(family)) = (words.next(), words.next()) else {
            panic!("malformed line `{line}`");
        };
        let got = of_param(name);
        if family == "-" {
            assert_eq!(got, None, "{name} belongs to no family");
        } else if left_to_switches_csv.contains(&name) {
            assert_eq!(got, None, "{name}");
        } else {
            assert_eq!(got, Some(family), "{name}");
            matched += 1;
        }
        total += 1;
    }
    assert_eq!((matched, total), (102, 196));
}
