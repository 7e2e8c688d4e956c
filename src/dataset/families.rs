//! Optimization families: switches of different programs matched by meaning, so that what
//! is learned on one program's `WORK_GROUP_SIZE_X` carries over to another's `BLOCK_SIZE`.
//!
//! A family is named after its entry in catalogue/optimizations.toml. A tuning parameter
//! belongs to a family when its name, without an `_X`/`_Y`/`_Z` suffix, is one of the
//! family's aliases; a dataset's `switches.csv` can name the family of a switch itself in a
//! `family` column (a user fills it in for a parameter no alias covers, or writes `none` to
//! keep a switch out). A switch always goes from a lower to a higher value, so a family means
//! "apply it" for an on/off switch and "raise it" for a many-valued one. NB and BH bits are
//! their own families (NB's UNROLL bit and a space's INNER_UNROLL_FACTOR are both UNROLL).
//! docs/families.md is this table in prose.

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
            "TILE",
            "Z_ITERATIONS",
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
        ],
    },
    Family {
        name: "PADDING",
        meaning: "pad arrays to avoid shared-memory bank conflicts",
        aliases: &["PADDING", "PAD", "USE_PADDING", "SHARED_PADDING"],
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

/// The families as a Markdown table (docs/families.md holds this text; a test keeps them
/// equal).
pub fn markdown() -> String {
    let mut out =
        String::from("| family | meaning | parameter names (without _X/_Y/_Z) |\n|---|---|---|\n");
    for f in FAMILIES {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            f.name,
            f.meaning,
            f.aliases
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out
}

/// The family of a tuning parameter by its aliases.
pub fn of_param(param: &str) -> Option<&'static str> {
    let up = param.trim().to_ascii_uppercase();
    let base = ["_X", "_Y", "_Z"]
        .iter()
        .find_map(|s| up.strip_suffix(s))
        .unwrap_or(&up);
    FAMILIES
        .iter()
        .find(|f| f.aliases.contains(&base))
        .map(|f| f.name)
}

/// The family of a switch (`TILE_SIZE_X:1->2`, or an NB/BH optimization name such as
/// `SHMEM`), given the dataset's own answer for it if it has one (`none` keeps it out).
pub fn of_switch(switch: &str, given: Option<&str>) -> Option<String> {
    if let Some(g) = given.map(str::trim).filter(|g| !g.is_empty()) {
        return (!g.eq_ignore_ascii_case("none")).then(|| g.to_ascii_uppercase());
    }
    match switch.split_once(':') {
        Some((param, _)) => of_param(param).map(str::to_string),
        None => Some(switch.to_ascii_uppercase()),
    }
}

#[cfg(test)]
mod tests {
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
        let doc = include_str!("../../docs/families.md");
        assert!(
            doc.contains(&markdown()),
            "docs/families.md is out of date: regenerate it from `advise features --formulas`"
        );
    }
}
