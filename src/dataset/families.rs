//! Optimization families: switches of different programs matched by meaning, so that what
//! is learned on one program's `WORK_GROUP_SIZE_X` carries over to another's `BLOCK_SIZE`.
//!
//! A family is named after its entry in catalogue/optimizations.toml. A tuning parameter
//! belongs to a family when its name is one of the family's aliases, or becomes one without a
//! dimension or index suffix, or starts with one of [`PREFIXES`] ([`of_param`] says in which
//! order); a dataset's `switches.csv` can name the family of a switch itself in a `family`
//! column (a user fills it in for a parameter no alias covers, or writes `none` to keep a
//! switch out). A switch always goes from a lower to a higher value, so a family means "apply
//! it" for an on/off switch and "raise it" for a many-valued one; an unroll factor's step from
//! 0 joins no family, since 0 leaves the loop to the compiler (KTT's and Kernel Tuner's
//! kernels write no `#pragma unroll` for it) and 1 forbids unrolling. NB and BH bits are their
//! own families (NB's UNROLL bit and a space's INNER_UNROLL_FACTOR are both UNROLL).
//! docs/families.md is this table in prose; the aliases come from the tuning parameters of
//! KTT's examples, Kernel Tuner's examples and benchmark_hub, BAT, CLTune and CLBlast.

use serde::Serialize;

/// One family and the parameter names that belong to it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Family {
    pub name: &'static str,
    pub meaning: &'static str,
    pub aliases: &'static [&'static str],
}

pub const FAMILIES: &[Family] = &[
    Family {
        name: "BLOCK_SIZE",
        meaning: "more threads per block (work-group size)",
        aliases: &[
            "BLOCK_SIZE",
            "WORK_GROUP_SIZE",
            "BLOCK_DIM",
            "THREADS_PER_BLOCK",
            "LOCAL_SIZE",
            "WG_SIZE",
            "BLOCK",
            "GROUP_SIZE",
            "WORK_GROUP",
            "TB",
            "WGS",
            "MDIMC",
            "NDIMC",
            "MDIMCD",
            "NDIMCD",
            "COPY_DIM",
            "PAD_DIM",
            "TRA_DIM",
            "PADTRA_TILE",
            "NUM_WI",
            "SORT_BLOCK_SIZE",
            "SCAN_BLOCK_SIZE",
        ],
    },
    Family {
        name: "TILE_SIZE",
        meaning: "more work (outputs) per thread: tiling, coarsening",
        aliases: &[
            "TILE_SIZE",
            "WORK_PER_THREAD",
            "WPT",
            "OUTER_UNROLL_FACTOR",
            "ELEMENTS_PER_THREAD",
            "ITEMS_PER_THREAD",
            "COARSENING",
            "Z_ITERATIONS",
            "TILING_FACTOR",
            "WORK_PER_THREAD_FACTOR",
            "COPY_WPT",
            "PAD_WPT",
            "TRA_WPT",
            "PADTRA_WPT",
            "P_CB_SIZE",
        ],
    },
    Family {
        name: "UNROLL",
        meaning: "unroll an inner loop (more)",
        aliases: &[
            "UNROLL",
            "INNER_UNROLL_FACTOR",
            "UNROLL_FACTOR",
            "LOOP_UNROLL",
            "USE_UNROLL",
            "LOOP_UNROLL_FACTOR",
            "UNROLL_LOOP",
            "KWI",
            "KWID",
        ],
    },
    Family {
        name: "CONST",
        meaning: "keep read-only parameters or small tables in constant memory",
        aliases: &[
            "CONST",
            "USE_CONSTANT_MEMORY",
            "CONSTANT_MEMORY",
            "USE_CONST",
            "USE_CMEM",
            "CMEM",
            "CONSTANT_COEFF",
        ],
    },
    Family {
        name: "READ_ONLY",
        meaning: "read data through the read-only (texture) cache",
        aliases: &[
            "READ_ONLY",
            "USE_LDG",
            "LDG",
            "USE_READ_ONLY_CACHE",
            "USE_TEXTURE",
            "RESTRICT",
            "TEXTURE_MEMORY",
        ],
    },
    Family {
        name: "SHMEM",
        meaning: "stage data through shared (OpenCL local) memory",
        aliases: &[
            "SHMEM",
            "USE_SHARED_MEMORY",
            "USE_SHARED",
            "SHARED_MEMORY",
            "USE_LOCAL_MEMORY",
            "LOCAL_MEMORY",
            "USE_SHMEM",
            "USE_SHARED_MEM",
            "LOCAL_MEM",
            "SH_POWER",
            "CACHE_L_CB",
            "SA",
            "SB",
        ],
    },
    Family {
        name: "PADDING",
        meaning: "pad arrays to avoid shared-memory bank conflicts",
        aliases: &[
            "PADDING",
            "PAD",
            "USE_PADDING",
            "SHARED_PADDING",
            "PADD",
            "PADA",
            "PADB",
            "TRA_PAD",
            "PADTRA_PAD",
            "LOCALPAD",
        ],
    },
    Family {
        name: "SOA",
        meaning: "store each field in its own array (structure of arrays) instead of an array of structures",
        aliases: &["SOA", "USE_SOA", "STRUCT_OF_ARRAYS"],
    },
    Family {
        name: "RSQRT",
        meaning: "fast reciprocal square root (or fast math)",
        aliases: &["RSQRT", "USE_RSQRT", "FAST_MATH", "USE_FAST_MATH"],
    },
];

/// Name prefixes that place a parameter in a family whatever follows (`LOOP_UNROLL_FACTOR_T`,
/// `USE_SHARED_VECTOR_1`, `PADD_LOCAL`), tried after the aliases so that an alias such as
/// `OUTER_UNROLL_FACTOR` (work per thread) keeps its own family. `PAD_` is not one: CLBlast's
/// `PAD_DIMX` and `PAD_WPTX` size its padding-copy kernel's work-group and work per thread.
pub const PREFIXES: &[(&str, &str)] = &[
    ("LOOP_UNROLL_", "UNROLL"),
    ("UNROLL_", "UNROLL"),
    ("USE_SHARED_", "SHMEM"),
    ("PADD_", "PADDING"),
];

/// The families as a Markdown table (docs/families.md holds this text; a test keeps them
/// equal).
pub fn markdown() -> String {
    let mut out =
        String::from("| family | meaning | parameter names (or prefixes, `*`) |\n|---|---|---|\n");
    for f in FAMILIES {
        let prefixes = PREFIXES
            .iter()
            .filter(|(_, fam)| *fam == f.name)
            .map(|(p, _)| format!("`{p}*`"));
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            f.name,
            f.meaning,
            f.aliases
                .iter()
                .map(|a| format!("`{a}`"))
                .chain(prefixes)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push_str(
        "\nA name also matches without a `_X`/`_Y`/`_Z` suffix, a trailing index \
         (`INNER_UNROLL_FACTOR1`, `WGS2`, `loop_unroll_factor_0`), ATF's `_L_1`/`_R_1` or a \
         bare trailing `X`/`Y`/`Z` (`WPTX`, `TBY`); a prefix counts only where no alias does. \
         An unroll factor's step from 0 joins no family: 0 leaves the loop to the compiler, \
         1 forbids unrolling.\n",
    );
    out
}

/// The family of a tuning parameter, upper-cased: the first of these that is an alias names
/// it: the name itself; the name without `_X`, `_Y` or `_Z`; without a trailing index, with
/// or without `_` (`INNER_UNROLL_FACTOR1`, `WGS2`), then also without `_X`/`_Y`/`_Z`; without
/// ATF's dimension suffix `_L_1` / `_R_1` (`NUM_WI_L_1`); without a bare trailing `X`, `Y` or
/// `Z` (`WPTX`, `TBY`). Failing all of them, a [`PREFIXES`] entry names it.
pub fn of_param(param: &str) -> Option<&'static str> {
    let up = param.trim().to_ascii_uppercase();
    let alias = |name: &str| {
        FAMILIES
            .iter()
            .find(|f| f.aliases.contains(&name))
            .map(|f| f.name)
    };
    let no_dimension = |s: &str| {
        ["_X", "_Y", "_Z"]
            .iter()
            .find_map(|d| s.strip_suffix(d))
            .map(str::to_string)
    };
    let no_index = |s: &str| {
        let t = s.trim_end_matches(|c: char| c.is_ascii_digit());
        (t.len() < s.len() && !t.is_empty()).then(|| t.strip_suffix('_').unwrap_or(t).to_string())
    };
    let no_atf_dimension = |s: &str| {
        let t = s.trim_end_matches(|c: char| c.is_ascii_digit());
        let t = t.strip_suffix("_L_").or_else(|| t.strip_suffix("_R_"))?;
        (t.len() + 3 < s.len()).then(|| t.to_string())
    };
    let no_bare_dimension = |s: &str| {
        s.strip_suffix(['X', 'Y', 'Z'])
            .filter(|t| !t.ends_with('_'))
            .map(str::to_string)
    };
    let unindexed = no_index(&up);
    let candidates = [
        Some(up.clone()),
        no_dimension(&up),
        unindexed.clone(),
        unindexed.as_deref().and_then(no_dimension),
        no_atf_dimension(&up),
        no_bare_dimension(&up),
    ];
    candidates
        .iter()
        .flatten()
        .find_map(|c| alias(c))
        .or_else(|| {
            PREFIXES
                .iter()
                .find(|(p, _)| up.starts_with(p))
                .map(|(_, f)| *f)
        })
}

/// The family of a parameter's step `from -> to`: [`of_param`]'s, except that an unroll
/// factor's step from 0 joins none (0 leaves the loop to the compiler, which may unroll it
/// fully, and 1 forbids unrolling, so the step need not unroll more).
pub fn of_step(param: &str, from: &str) -> Option<&'static str> {
    let family = of_param(param)?;
    let from_zero = from.trim().parse::<f64>().is_ok_and(|v| v == 0.0);
    (!(family == "UNROLL" && from_zero)).then_some(family)
}

/// The family of a switch (`TILE_SIZE_X:1->2`, or an NB/BH optimization name such as
/// `SHMEM`), given the dataset's own answer for it if it has one (`none` keeps it out).
pub fn of_switch(switch: &str, given: Option<&str>) -> Option<String> {
    if let Some(g) = given.map(str::trim).filter(|g| !g.is_empty()) {
        return (!g.eq_ignore_ascii_case("none")).then(|| g.to_ascii_uppercase());
    }
    match switch.split_once(':') {
        Some((param, step)) => {
            let from = step.split_once("->").map_or(step, |(f, _)| f);
            of_step(param, from).map(str::to_string)
        }
        None => Some(switch.to_ascii_uppercase()),
    }
}

#[cfg(test)]
mod tests;
