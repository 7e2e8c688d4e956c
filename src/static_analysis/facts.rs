//! What a file's kernels say about the NB/BH optimizations: those applied, and those with
//! nothing to apply to, for the kernels that ran in a profile.

use std::path::Path;

use super::{analyze, short_name, CompileOptions, Detected, NotApplicable};
use crate::error::{Error, Result};

/// What a source file or binary says about the NB/BH optimizations: those its kernels already
/// apply (any kernel), and those none of its kernels gives anything to apply to, each with
/// the reason in the first kernel.
pub fn optimization_facts(
    path: &Path,
    opts: &CompileOptions,
) -> Result<(Vec<Detected>, Vec<NotApplicable>)> {
    optimization_facts_for(path, opts, &[])
}

/// [`optimization_facts`] of the kernels of `path` that ran in a profile, by the profile's
/// kernel names (mangled, demangled with their arguments, or bare); all kernels when
/// `profiled` is empty. A file none of whose kernels ran is an error: its facts are another
/// program's, and would take suggestions away from this one; so is a file with no kernel.
pub fn optimization_facts_for(
    path: &Path,
    opts: &CompileOptions,
    profiled: &[String],
) -> Result<(Vec<Detected>, Vec<NotApplicable>)> {
    // A file with no kernel is an error of `analyze`'s.
    let mut kernels = analyze(path, opts)?.kernels;
    if !profiled.is_empty() {
        let analysed: Vec<String> = kernels.iter().map(|k| k.short_name.clone()).collect();
        kernels.retain(|k| {
            profiled
                .iter()
                .any(|p| bare_name(p) == bare_name(&k.short_name))
        });
        if kernels.is_empty() {
            return Err(Error::Usage(format!(
                "none of the kernels of {} ({}) ran in the profile ({}): give --source the \
                 file of the program that was profiled",
                path.display(),
                analysed.join(", "),
                profiled
                    .iter()
                    .map(|p| bare_name(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    let mut inapplicable: Vec<NotApplicable> = kernels
        .first()
        .map(|k| k.not_applicable.clone())
        .unwrap_or_default();
    inapplicable.retain(|n| {
        kernels
            .iter()
            .all(|k| k.not_applicable.iter().any(|o| o.name == n.name))
    });
    let applied = kernels.into_iter().flat_map(|k| k.applied).collect();
    Ok((applied, inapplicable))
}

/// A kernel's name without its namespaces, template arguments, parameters or return type:
/// `void ns::integrate<float>(float4*, int)` and `_ZN2ns9integrateEv` are both `integrate`.
fn bare_name(name: &str) -> String {
    let name = short_name(name.trim());
    let name = name.split('(').next().unwrap_or("");
    let name = name.split('<').next().unwrap_or("");
    let name = name.rsplit("::").next().unwrap_or("");
    name.rsplit(' ').next().unwrap_or("").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_names_match_a_profile_s_kernel_names() {
        assert_eq!(
            bare_name("void ns::integrate<float>(float4*, int)"),
            "integrate"
        );
        assert_eq!(bare_name("_ZN2ns9integrateEv"), "integrate");
        assert_eq!(bare_name("integrate(float4*, int)"), "integrate");
        assert_eq!(bare_name(" cn_pnpoly "), "cn_pnpoly");
    }
}
