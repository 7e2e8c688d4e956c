//! The variant catalogue: the two programs of the thesis (Taheri's thesis, Table 4.1), their six
//! switchable optimizations each, and variants as 6-bit sets printed as bit strings.
//!
//! A bit string is written most significant bit first, as the thesis does: for BH, `000101`
//! means bit 2 (RSQRT) and bit 0 (VOLA) are on.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Number of optimizations (bits) per program.
pub const BITS: usize = 6;
/// Number of variants per program.
pub const VARIANTS: usize = 1 << BITS;

/// One of the two CUDA programs of the thesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Program {
    /// All-pairs N-body: regular code.
    #[serde(rename = "NB")]
    Nb,
    /// Barnes-Hut: irregular code.
    #[serde(rename = "BH")]
    Bh,
}

/// A switchable source-code optimization of NB or BH.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Optimization {
    Ftz,
    Rsqrt,
    Const,
    Peel,
    Shmem,
    Unroll,
    Vote,
    Warp,
    Sort,
    Vola,
}

impl Program {
    pub const ALL: [Program; 2] = [Program::Nb, Program::Bh];

    /// The optimizations from bit 5 (most significant) down to bit 0, as in Table 4.1.
    pub fn optimizations(self) -> [Optimization; BITS] {
        use Optimization::*;
        match self {
            Program::Bh => [Vote, Warp, Sort, Rsqrt, Ftz, Vola],
            Program::Nb => [Ftz, Rsqrt, Const, Peel, Shmem, Unroll],
        }
    }

    /// The bit (0 = least significant) that `opt` occupies, if the program has it.
    pub fn bit_of(self, opt: Optimization) -> Option<usize> {
        self.optimizations()
            .iter()
            .position(|&o| o == opt)
            .map(|i| BITS - 1 - i)
    }

    /// The short name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Program::Nb => "NB",
            Program::Bh => "BH",
        }
    }

    /// The long name.
    pub fn long_name(self) -> &'static str {
        match self {
            Program::Nb => "N-body (all pairs, regular)",
            Program::Bh => "Barnes-Hut (irregular)",
        }
    }

    /// All 64 variants in ascending bit-string order.
    pub fn variants(self) -> impl Iterator<Item = Variant> {
        (0..VARIANTS as u8).map(move |bits| Variant {
            program: self,
            bits,
        })
    }

    /// For `opt`, the 32 variants without it, each paired with its partner that has it.
    pub fn pairs(self, opt: Optimization) -> Result<Vec<(Variant, Variant)>> {
        let bit = self.bit_of(opt).ok_or_else(|| {
            Error::Usage(format!(
                "{} has no optimization {}; its optimizations are {}",
                self.name(),
                opt,
                self.optimization_list()
            ))
        })?;
        Ok(self
            .variants()
            .filter(|v| v.bits & (1 << bit) == 0)
            .map(|v| (v, v.with_bit(bit)))
            .collect())
    }

    fn optimization_list(self) -> String {
        self.optimizations()
            .iter()
            .map(|o| o.name())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Program {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "nb" | "nbody" | "n-body" => Ok(Program::Nb),
            "bh" | "barnes-hut" | "barneshut" => Ok(Program::Bh),
            _ => Err(Error::Usage(format!(
                "unknown program `{s}`: expected nb or bh"
            ))),
        }
    }
}

impl Optimization {
    pub const ALL: [Optimization; 10] = {
        use Optimization::*;
        [
            Ftz, Rsqrt, Const, Peel, Shmem, Unroll, Vote, Warp, Sort, Vola,
        ]
    };

    /// The upper-case name used in the thesis and in files.
    pub fn name(self) -> &'static str {
        use Optimization::*;
        match self {
            Ftz => "FTZ",
            Rsqrt => "RSQRT",
            Const => "CONST",
            Peel => "PEEL",
            Shmem => "SHMEM",
            Unroll => "UNROLL",
            Vote => "VOTE",
            Warp => "WARP",
            Sort => "SORT",
            Vola => "VOLA",
        }
    }

    /// One line on what the optimization changes (thesis section 4.3).
    pub fn summary(self) -> &'static str {
        use Optimization::*;
        match self {
            Ftz => "flush denormal floats to zero (compiler flag -ftz=true)",
            Rsqrt => "use the rsqrtf() intrinsic instead of 1.0f/sqrtf()",
            Const => "keep immutable kernel parameters in constant memory",
            Peel => "split the innermost force loop into a fixed-count loop and a remainder",
            Shmem => "tile the body data through shared memory",
            Unroll => "ask the compiler to unroll the innermost loop(s)",
            Vote => "warp vote instead of a shared-memory 32-element reduction",
            Warp => "warp-based instead of thread-based tree traversal",
            Sort => "sort bodies by spatial position before the force calculation",
            Vola => "copy volatile variables into registers where lockstep makes it safe",
        }
    }
}

impl fmt::Display for Optimization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Optimization {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Optimization::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                Error::Usage(format!(
                    "unknown optimization `{s}`: expected one of FTZ RSQRT CONST PEEL SHMEM \
                     UNROLL VOTE WARP SORT VOLA"
                ))
            })
    }
}

/// A set of optimizations of one program, stored as six bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant {
    pub program: Program,
    bits: u8,
}

impl Variant {
    /// A variant from its bits (only the low six are allowed).
    pub fn new(program: Program, bits: u8) -> Result<Self> {
        if bits as usize >= VARIANTS {
            return Err(Error::Usage(format!(
                "variant bits {bits} do not fit in {BITS} bits"
            )));
        }
        Ok(Variant { program, bits })
    }

    /// Parses a bit string such as `000101`.
    pub fn parse(program: Program, s: &str) -> Result<Self> {
        let s = s.trim();
        if s.len() != BITS || !s.bytes().all(|b| b == b'0' || b == b'1') {
            return Err(Error::Usage(format!(
                "`{s}` is not a variant: expected {BITS} characters of 0 and 1, e.g. 000101"
            )));
        }
        let bits = u8::from_str_radix(s, 2)
            .map_err(|e| Error::Usage(format!("`{s}` is not a bit string: {e}")))?;
        Variant::new(program, bits)
    }

    pub fn bits(self) -> u8 {
        self.bits
    }

    /// The bit string, most significant bit first.
    pub fn bit_string(self) -> String {
        format!("{:06b}", self.bits)
    }

    /// Whether the variant applies `opt`.
    pub fn has(self, opt: Optimization) -> bool {
        self.program
            .bit_of(opt)
            .is_some_and(|b| self.bits & (1 << b) != 0)
    }

    /// The optimizations the variant applies, in bit order from bit 5 down.
    pub fn applied(self) -> Vec<Optimization> {
        self.program
            .optimizations()
            .into_iter()
            .filter(|&o| self.has(o))
            .collect()
    }

    fn with_bit(self, bit: usize) -> Variant {
        Variant {
            program: self.program,
            bits: self.bits | (1 << bit),
        }
    }

    /// Names of the applied optimizations joined by `+`, or `baseline`.
    pub fn label(self) -> String {
        let applied = self.applied();
        if applied.is_empty() {
            "baseline".to_string()
        } else {
            applied
                .iter()
                .map(|o| o.name())
                .collect::<Vec<_>>()
                .join("+")
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.bit_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_example_000101_is_rsqrt_and_vola_for_bh() {
        let v = Variant::parse(Program::Bh, "000101").unwrap();
        assert_eq!(v.applied(), vec![Optimization::Rsqrt, Optimization::Vola]);
        assert_eq!(v.bit_string(), "000101");
        assert_eq!(v.label(), "RSQRT+VOLA");
    }

    #[test]
    fn nb_bit_order_matches_table_4_1() {
        let v = Variant::parse(Program::Nb, "100001").unwrap();
        assert_eq!(v.applied(), vec![Optimization::Ftz, Optimization::Unroll]);
        assert_eq!(Program::Nb.bit_of(Optimization::Ftz), Some(5));
        assert_eq!(Program::Bh.bit_of(Optimization::Ftz), Some(1));
        assert_eq!(Program::Nb.bit_of(Optimization::Vote), None);
    }

    #[test]
    fn all_64_variants_round_trip() {
        let all: Vec<_> = Program::Bh.variants().collect();
        assert_eq!(all.len(), 64);
        for v in all {
            assert_eq!(Variant::parse(Program::Bh, &v.bit_string()).unwrap(), v);
        }
    }

    #[test]
    fn each_optimization_has_32_pairs_differing_in_its_bit() {
        for p in Program::ALL {
            for o in p.optimizations() {
                let pairs = p.pairs(o).unwrap();
                assert_eq!(pairs.len(), 32);
                for (without, with) in pairs {
                    assert!(!without.has(o) && with.has(o));
                    assert_eq!((without.bits ^ with.bits).count_ones(), 1);
                }
            }
        }
        assert!(Program::Nb.pairs(Optimization::Vola).is_err());
    }

    #[test]
    fn bad_bit_strings_are_errors() {
        for s in ["", "00010", "0001011", "00a101", "2222222"] {
            assert!(Variant::parse(Program::Nb, s).is_err(), "{s}");
        }
    }
}
