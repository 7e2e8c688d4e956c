//! Which of an optimization's per-host models answers a profile (`catalogue::Entry::
//! per_host_link`: unified memory's policies slow a PCIe-attached GPU down where a coherent
//! link can gain). The profile's own link answers, read from Nsight Compute's device
//! attributes (dataset::host_link); a profile that does not show it is answered for a
//! PCIe-attached GPU, the common case (x86 servers and workstations), and says so.

use crate::dataset::host_link::HostLink;
use crate::recommend::bundle::{Advisor, OptimizationModel};

/// How a model stands to the profile's host link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum HostUse {
    /// The optimization does not depend on the link.
    Any,
    /// Learned on the profile's link (`assumed`: the profile does not show one).
    Own { link: HostLink, assumed: bool },
    /// Learned only on another link than the profile's: no evidence for this profile.
    Other {
        learned: HostLink,
        profile: HostLink,
        assumed: bool,
    },
}

/// How `m` answers a profile on `profile_link`; `None` where another model of the same
/// optimization was learned on the profile's link and answers instead (so too for a model of
/// samples whose link no dataset said, beside models of known links).
pub(crate) fn choose(
    advisor: &Advisor,
    m: &OptimizationModel,
    profile_link: Option<HostLink>,
) -> Option<HostUse> {
    decide(m.host_link, profile_link, |want| {
        advisor
            .optimizations
            .iter()
            .any(|o| o.name == m.name && o.host_link == Some(want))
    })
}

/// [`choose`] for a model learned on `learned`, where `has_model_for(link)` says whether the
/// optimization has a model learned on `link`.
fn decide(
    learned: Option<HostLink>,
    profile_link: Option<HostLink>,
    has_model_for: impl Fn(HostLink) -> bool,
) -> Option<HostUse> {
    let assumed = profile_link.is_none();
    let want = profile_link.unwrap_or(HostLink::Pcie);
    let Some(learned) = learned else {
        return (!has_model_for(want)).then_some(HostUse::Any);
    };
    if learned == want {
        return Some(HostUse::Own {
            link: learned,
            assumed,
        });
    }
    (!has_model_for(want)).then_some(HostUse::Other {
        learned,
        profile: want,
        assumed,
    })
}

impl HostUse {
    /// The link of the model that answered, for the suggestion's JSON.
    pub(crate) fn learned(self) -> Option<HostLink> {
        match self {
            HostUse::Any => None,
            HostUse::Own { link, .. } => Some(link),
            HostUse::Other { learned, .. } => Some(learned),
        }
    }

    /// Whether the answer has no evidence for this profile (the verdict is then uncertain).
    pub(crate) fn no_evidence(self) -> bool {
        matches!(self, HostUse::Other { .. })
    }

    /// What the reason adds: which host's data answered.
    pub(crate) fn reason(self) -> Option<String> {
        let assumed_note = "the profile does not show how the GPU is attached to its host (an \
                            older Nsight Compute, or a details page), so it is taken to be on \
                            PCIe; --host-link says otherwise";
        match self {
            HostUse::Any => None,
            HostUse::Own { link, assumed } => Some(format!(
                "; learned from measurements on {}{}",
                link.describe(),
                if assumed {
                    format!(" ({assumed_note})")
                } else {
                    ", as the profile shows (or --host-link says)".into()
                }
            )),
            HostUse::Other {
                learned,
                profile,
                assumed,
            } => Some(format!(
                "; uncertain: learned only from measurements on {}, and the profile is of {}{}: \
                 what this optimization does depends on that link",
                learned.describe(),
                profile.describe(),
                if assumed {
                    format!(" ({assumed_note})")
                } else {
                    String::new()
                }
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HostLink::{Coherent, Pcie};

    #[test]
    fn the_profiles_own_link_answers_and_another_is_no_evidence() {
        let both = |_: HostLink| true;
        // Not per host: always.
        assert_eq!(decide(None, Some(Pcie), |_| false), Some(HostUse::Any));
        // Samples of no known link beside a model of the profile's link: that one answers.
        assert_eq!(decide(None, Some(Pcie), both), None);
        assert_eq!(
            decide(None, Some(Coherent), |l| l == Pcie),
            Some(HostUse::Any)
        );
        // Both models exist: the profile's answers, the other is left out.
        assert_eq!(
            decide(Some(Pcie), Some(Pcie), both),
            Some(HostUse::Own {
                link: Pcie,
                assumed: false
            })
        );
        assert_eq!(decide(Some(Coherent), Some(Pcie), both), None);
        // A profile that does not show its link is taken to be on PCIe, and says so.
        let own = decide(Some(Pcie), None, both).unwrap();
        assert_eq!(
            own,
            HostUse::Own {
                link: Pcie,
                assumed: true
            }
        );
        assert!(own.reason().unwrap().contains("taken to be on PCIe"));
        assert_eq!(decide(Some(Coherent), None, both), None);
        // Only the other link's model: it answers, without evidence for this profile.
        let other = decide(Some(Coherent), Some(Pcie), |l| l == Coherent).unwrap();
        assert!(other.no_evidence());
        assert_eq!(other.learned(), Some(Coherent));
        let why = other.reason().unwrap();
        assert!(
            why.contains("uncertain: learned only from measurements on a GPU on a cache-coherent")
                && why.contains("the profile is of a PCIe-attached GPU"),
            "{why}"
        );
    }
}
