//! Kernel Tuner 1.5.0's two local searches as settings of the iterated local search
//! (src/search/ils.rs): `greedy_ils` (strategies/greedy_ils.py: Hamming neighbours, jumps of
//! up to three parameters from the best) and `basinhopping` (strategies/basinhopping.py:
//! adjacent neighbours, jumps of up to two, the Metropolis rule at temperature 0.1).

use super::{FreeMoves, Ils, Neighbourhood};
use crate::search::bayes::BayesOpt;

impl Ils {
    pub fn greedy() -> Ils {
        Ils {
            name: "greedy_ils".into(),
            neighbourhood: Neighbourhood::Hamming,
            perturb: 3,
            temp: 0.0,
            model: false,
            model_rows: 0.0,
            gate: 0.0,
            scan: 0,
            line_cap: 0,
            line_flat: 0.0,
            restart: 0,
            rebest: 0,
            repair_floor: 0,
            init: 0.0,
            init_min: 0,
            init_max: 0,
            offspring: 0.0,
            offspring_keep: 0,
            spread: 1,
            noise: 0.0,
            bo: 0.0,
            bo_opt: BayesOpt::default(),
            bo_min: 0,
            bo_budget: 0,
            bo_max: usize::MAX,
            bo_wide_at: 0.0,
            bo_wide: 0.0,
            bo_wide_max: 0,
            repair: 0,
            twins: false,
            momentum: false,
            bo_jump: 0,
            bo_jump_max: 0,
            mirror: false,
            mirror_from: 0,
            mirror_gemm_from: 0,
            stall: 0.0,
            stall_min: 0,
            free_moves: FreeMoves::Off,
            free_from: 0.0,
            monotone: 0,
        }
    }

    pub fn basinhopping() -> Ils {
        Ils {
            name: "basinhopping".into(),
            neighbourhood: Neighbourhood::Adjacent,
            perturb: 2,
            temp: 0.1,
            ..Ils::greedy()
        }
    }
}
