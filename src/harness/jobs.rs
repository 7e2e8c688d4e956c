//! The job list of a campaign: jobs (program, variant, input (`crate::input`)),
//! shards (`--shard K/N` takes every N-th job) and batches (the jobs of one variant that one
//! process runs together, since process start-up would otherwise dominate; a process start costs about a second on the GPU machines).

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
pub use crate::input::{parse_inputs, thesis_inputs, Input};
use crate::variant::{Program, Variant};

/// `--shard K/N`: this process runs jobs K-1, K-1+N, K-1+2N, ... (K is 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    pub fn takes(self, job_index: usize) -> bool {
        job_index % self.count as usize == (self.index - 1) as usize
    }

    /// The folder name a shard writes to inside the campaign: `shard-2-of-8`.
    pub fn dir_name(self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::Usage(format!(
                "`{s}` is not a shard: expected K/N with 1 <= K <= N"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// One unit of work: all runs of one variant on one input.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Job {
    pub variant: Variant,
    pub input: Input,
}

impl Job {
    /// A stable identifier, used in the campaign's ledger: `NB/010011/bodies=50000,steps=2`.
    pub fn id(&self) -> String {
        format!(
            "{}/{}/{}",
            self.variant.program.name(),
            self.variant.bit_string(),
            self.input.label()
        )
    }
}

/// All jobs of a campaign in input-major order (every variant of the first input, then the
/// next input), so `--shard K/N` with N dividing 64 gives each shard whole variants across
/// all inputs, which then run as one process per variant.
pub fn job_list(program: Program, inputs: &[Input], variants: Option<&[Variant]>) -> Vec<Job> {
    let all: Vec<Variant> = match variants {
        Some(v) => v.to_vec(),
        None => program.variants().collect(),
    };
    inputs
        .iter()
        .flat_map(|&input| all.iter().map(move |&variant| Job { variant, input }))
        .collect()
}

/// The jobs of one shard.
pub fn shard_jobs(jobs: &[Job], shard: Shard) -> Vec<Job> {
    jobs.iter()
        .enumerate()
        .filter(|(i, _)| shard.takes(*i))
        .map(|(_, j)| j.clone())
        .collect()
}

/// Jobs grouped by variant, in order of first appearance; each batch is one process.
pub fn batches(jobs: &[Job], max_inputs: usize) -> Vec<Vec<Job>> {
    let mut out: Vec<Vec<Job>> = Vec::new();
    let mut order: Vec<Variant> = Vec::new();
    for job in jobs {
        if !order.contains(&job.variant) {
            order.push(job.variant);
        }
    }
    for v in order {
        let mine: Vec<Job> = jobs.iter().filter(|j| j.variant == v).cloned().collect();
        for chunk in mine.chunks(max_inputs.max(1)) {
            out.push(chunk.to_vec());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_parse_in_every_form() {
        assert_eq!("50000:2".parse::<Input>().unwrap(), Input::new(50_000, 2));
        assert_eq!("1M:10".parse::<Input>().unwrap(), Input::new(1_000_000, 10));
        assert_eq!("125k:2".parse::<Input>().unwrap(), Input::new(125_000, 2));
        assert_eq!(
            "bodies=250000,steps=5".parse::<Input>().unwrap(),
            Input::new(250_000, 5)
        );
        for bad in ["", "50000", "0:2", "10:0", "x:2", "5000000000:1"] {
            assert!(bad.parse::<Input>().is_err(), "{bad}");
        }
    }

    #[test]
    fn labels_round_trip() {
        let i = Input::new(50_000, 2);
        assert_eq!(i.label(), "bodies=50000,steps=2");
        assert_eq!(Input::from_label(&i.label()).unwrap(), i);
    }

    #[test]
    fn thesis_inputs_match_table_4_2() {
        assert_eq!(thesis_inputs(Program::Nb).len(), 4);
        assert_eq!(thesis_inputs(Program::Bh).len(), 6);
        assert_eq!(
            parse_inputs(Program::Bh, "thesis").unwrap()[5],
            Input::new(1_000_000, 10)
        );
        assert!(parse_inputs(Program::Nb, "1:1,1:1").is_err());
    }

    #[test]
    fn shards_partition_the_jobs() {
        let jobs = job_list(Program::Nb, &thesis_inputs(Program::Nb), None);
        assert_eq!(jobs.len(), 256);
        let mut all = Vec::new();
        for k in 1..=3 {
            all.extend(shard_jobs(&jobs, Shard { index: k, count: 3 }));
        }
        all.sort();
        let mut expected = jobs.clone();
        expected.sort();
        assert_eq!(all, expected);
    }

    #[test]
    fn shards_dividing_64_keep_variants_whole() {
        let jobs = job_list(Program::Bh, &thesis_inputs(Program::Bh), None);
        let mine = shard_jobs(&jobs, "2/8".parse().unwrap());
        let b = batches(&mine, 100);
        assert_eq!(b.len(), 8);
        assert!(b.iter().all(|batch| batch.len() == 6));
    }

    #[test]
    fn bad_shards_are_errors() {
        for s in ["0/4", "5/4", "1", "a/b", "1/0"] {
            assert!(s.parse::<Shard>().is_err(), "{s}");
        }
    }
}
