//! Weka 3.6.14's `IBk`, `M5P` and `LinearRegression`, reproduced to the last bits that decide
//! their predictions (checked against Weka's own output in `tests/golden/weka`), with the
//! filters they run first, Weka's option strings and its cross-validation layout.

pub mod cv;
pub mod filters;
pub mod ibk;
mod ibk_heap;
mod ibk_nearest;
mod ibk_pivots;
mod ibk_scan;
mod jama;
mod jama_crout;
mod jama_panel;
mod jama_reuse;
pub mod linear;
mod linear_gram;
mod linear_select;
pub mod m5p;
mod m5p_attribute_loop;
mod m5p_bound;
mod m5p_impurity;
mod m5p_prune;
mod m5p_root;
mod m5p_screen;
mod m5p_split;
mod m5p_tree;
pub mod options;
pub mod util;
