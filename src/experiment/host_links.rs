//! Which host link (dataset::host_link) each sample of a pool was measured on. A merged pool
//! can hold one program and input from two machines (XPlacer's bfs on AWS and on Lassen):
//! their samples carry their dataset's name as `campaign` (experiment::pool_merge::merge), which
//! tells the two apart.

use std::collections::BTreeMap;

use crate::dataset::host_link::HostLink;
use crate::dataset::samples::SpeedupSample;

/// Per program and input, per dataset: the host link, where the dataset says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostLinks {
    links: BTreeMap<(String, String), BTreeMap<String, HostLink>>,
}

impl HostLinks {
    /// Every `(program, input)` of the dataset `name` measured on `link`.
    pub fn of_dataset<'a>(
        name: &str,
        link: Option<HostLink>,
        runs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        let mut out = HostLinks::default();
        if let Some(link) = link {
            for (program, input) in runs {
                out.links
                    .entry((program.to_string(), input.to_string()))
                    .or_default()
                    .insert(name.to_string(), link);
            }
        }
        out
    }

    /// Joins another pool's links.
    pub fn extend(&mut self, other: HostLinks) {
        for (k, v) in other.links {
            self.links.entry(k).or_default().extend(v);
        }
    }

    /// The link of a sample's run: its dataset's (`campaign`) where two datasets hold the run,
    /// else the one dataset's; `None` where no dataset says, or the run's datasets disagree
    /// and the sample does not say which is its own.
    pub fn of(&self, s: &SpeedupSample) -> Option<HostLink> {
        let by_dataset = self
            .links
            .get(&(s.key.program.clone(), s.key.input.clone()))?;
        if !s.campaign.is_empty() {
            return by_dataset.get(&s.campaign).copied();
        }
        let mut links = by_dataset.values();
        let first = *links.next()?;
        links.all(|l| *l == first).then_some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::measurements::RunKey;

    fn sample(program: &str, campaign: &str) -> SpeedupSample {
        SpeedupSample {
            switch: "advise0:0->1".into(),
            key: RunKey {
                program: program.into(),
                input: "g".into(),
                run: 1,
                variant: "0".into(),
            },
            partner: "1".into(),
            features: vec![],
            speedup: 1.0,
            speedup_range: None,
            campaign: campaign.into(),
        }
    }

    #[test]
    fn a_run_on_two_machines_takes_its_datasets_link() {
        let mut links = HostLinks::of_dataset("aws", Some(HostLink::Pcie), [("bfs", "g")]);
        links.extend(HostLinks::of_dataset(
            "lassen",
            Some(HostLink::Coherent),
            [("bfs", "g"), ("cfd", "g")],
        ));
        links.extend(HostLinks::of_dataset("ktt", None, [("pnpoly", "g")]));
        assert_eq!(links.of(&sample("bfs", "aws")), Some(HostLink::Pcie));
        assert_eq!(links.of(&sample("bfs", "lassen")), Some(HostLink::Coherent));
        assert_eq!(links.of(&sample("cfd", "")), Some(HostLink::Coherent));
        // Two machines, and the sample does not say which: unknown, never a guess.
        assert_eq!(links.of(&sample("bfs", "")), None);
        assert_eq!(links.of(&sample("pnpoly", "")), None);
    }
}
