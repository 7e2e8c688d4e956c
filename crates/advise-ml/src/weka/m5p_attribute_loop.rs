//! One run of M5P's attribute loop over a node (`RuleNode.split`): each attribute screened
//! (m5p_screen.rs), and scanned exactly where the screen cannot rule it out, with the row
//! order Weka's sorts would leave kept up to date as cheaply as possible.

use std::sync::atomic::{AtomicU64, Ordering};

use super::m5p_screen::{Column, Screen, LANES};
use super::m5p_split::{SortedColumns, Split, SplitScan};
use super::m5p_tree::Builder;
use super::util::sort_indices_into;

/// A node as its attribute loop reads it: positions `lo..hi` of the sorted store, and the
/// tree's columns.
#[derive(Clone, Copy)]
pub(super) struct NodeView<'a> {
    pub(super) builder: &'a Builder<'a>,
    pub(super) sorted: &'a SortedColumns,
    pub(super) lo: usize,
    pub(super) hi: usize,
}

impl NodeView<'_> {
    /// The node's rows in ascending order of `attr`.
    fn order(&self, attr: usize) -> &[u32] {
        self.sorted.order(attr, self.lo, self.hi)
    }

    /// `attr`'s values by row.
    fn col(&self, attr: usize) -> &[f64] {
        &self.builder.cols[attr]
    }
}

/// One run of `RuleNode.split`'s attribute loop over a node: the rows in the order the
/// last attribute's sort left them (or, while `rows_are` names a tie-free attribute, in that
/// attribute's presorted order, not yet written out, and then sorted by each of `owed` in
/// turn), and the scratch of the screen, the scans and the sorts.
pub(super) struct AttributeLoop<'a> {
    scan: SplitScan<'a>,
    y: &'a [f64],
    /// Whether each attribute has tied values in the node.
    ties: &'a [bool],
    rows: Vec<usize>,
    rows_are: Option<usize>,
    /// Attributes with ties the screen ruled out, whose sorts of `rows` are owed: the next
    /// attribute with ties that is scanned, or the node's children, start from their order.
    owed: Vec<usize>,
    /// Built at the first attribute screened; `None` inside when the node has no candidate.
    screen: Option<Option<Screen>>,
    /// The attributes screened together last, and which of them the screen ruled out.
    batch: std::ops::Range<usize>,
    batch_ruled: u32,
    /// One past the last attribute of the loop.
    end: usize,
    keys: Vec<f64>,
    index: Vec<usize>,
    sorted_rows: Vec<usize>,
}

impl<'a> AttributeLoop<'a> {
    /// The loop over attributes `..end` of `node`, whose tie flags are `ties`, from `rows`
    /// (or, where `rows_are` names a tie-free attribute, its presorted order).
    pub(super) fn new(
        node: NodeView<'a>,
        ties: &'a [bool],
        rows: Vec<usize>,
        rows_are: Option<usize>,
        end: usize,
    ) -> Self {
        let (y, n) = (node.builder.y, node.hi - node.lo);
        AttributeLoop {
            scan: SplitScan::new(y, n),
            y,
            ties,
            rows,
            rows_are,
            owed: Vec::new(),
            screen: None,
            batch: 0..0,
            batch_ruled: 0,
            end,
            keys: Vec::new(),
            index: Vec::new(),
            sorted_rows: Vec::new(),
        }
    }

    /// `attr`'s best split in the node at `lo..hi` (see [`SplitScan`] for `floor`). An
    /// attribute the screen rules out gets what the scan gives where it evaluates no
    /// candidate: no impurity, which never replaces a split.
    pub(super) fn split(&mut self, node: NodeView, attr: usize, floor: f64) -> Split {
        let col = node.col(attr);
        let ties = self.ties[attr];
        let ruled_out = self.ruled_out(node, attr, floor);
        if !ties {
            // Every sort gives a tie-free attribute's presorted order, whatever came before.
            self.rows_are = Some(attr);
            self.owed.clear();
        }
        if ruled_out {
            if ties {
                self.owed.push(attr);
            }
            return Split {
                attr: Some(attr),
                position: 0,
                ..Split::none()
            };
        }
        if ties {
            self.settle(node);
            self.sort_rows(col);
            self.scan.by_rows(attr, col, &self.rows, floor)
        } else {
            self.scan.sorted(attr, col, node.order(attr), floor)
        }
    }

    /// Whether the node's screen rules `attr` out against `floor`: screened with the next
    /// attributes of the loop in one batch, against the floor at the batch's first (a floor
    /// only rises, so a candidate at or below that one is at or below the later ones too).
    fn ruled_out(&mut self, node: NodeView, attr: usize, floor: f64) -> bool {
        if floor <= SCREEN_FLOOR {
            return false;
        }
        if !self.batch.contains(&attr) {
            let batch = attr..(attr + LANES).min(self.end).max(attr + 1);
            let y = self.y;
            let screen = self
                .screen
                .get_or_insert_with(|| Screen::new(y, node.order(attr)));
            self.batch_ruled = match screen {
                Some(screen) => {
                    let last = batch.end - 1;
                    let cols: [Column; LANES] = std::array::from_fn(|k| {
                        let a = (attr + k).min(last);
                        (node.order(a), node.col(a), self.ties[a])
                    });
                    screen.rules_out(y, &cols[..batch.len()], floor)
                }
                None => 0,
            };
            self.batch = batch;
        }
        (self.batch_ruled >> (attr - self.batch.start)) & 1 == 1
    }

    /// Weka's quicksort of the rows by `col`, from their present order.
    fn sort_rows(&mut self, col: &[f64]) {
        sort_indices_into(
            self.rows.iter().map(|&r| col[r]),
            &mut self.keys,
            &mut self.index,
        );
        self.sorted_rows.clear();
        self.sorted_rows
            .extend(self.index.iter().map(|&i| self.rows[i]));
        std::mem::swap(&mut self.rows, &mut self.sorted_rows);
    }

    /// Writes the rows out in the order the attributes so far leave them: a presorted order,
    /// then the owed sorts.
    fn settle(&mut self, node: NodeView) {
        if let Some(a) = self.rows_are.take() {
            copy_order(&mut self.rows, node.order(a));
        }
        for attr in std::mem::take(&mut self.owed) {
            self.sort_rows(node.col(attr));
        }
    }

    /// `RuleNode.split`'s loop over `attrs`: the node's best split, each attribute's scan
    /// skipping what cannot beat the best so far by Weka's margin of 1e-6; each new best's
    /// impurity is stored in `publish`.
    pub(super) fn best(
        &mut self,
        node: NodeView,
        attrs: std::ops::Range<usize>,
        publish: Option<&AtomicU64>,
    ) -> Split {
        let mut best = Split::none();
        for attr in attrs {
            let cur = self.split(node, attr, best.impurity + 1e-6);
            if best.beaten_by(&cur) {
                best = cur;
                if let Some(p) = publish {
                    p.store(best.impurity.to_bits(), Ordering::Relaxed);
                }
            }
        }
        best
    }

    /// The rows in the order the loop's last attribute left them.
    pub(super) fn finish(mut self, node: NodeView) -> Vec<usize> {
        self.settle(node);
        self.rows
    }
}

/// Floors at or below this are the "no split yet" of [`Split::none`], which every candidate
/// beats: the screen would rule nothing out.
const SCREEN_FLOOR: f64 = -1e19;

fn copy_order(rows: &mut Vec<usize>, order: &[u32]) {
    rows.clear();
    rows.extend(order.iter().map(|&r| r as usize));
}
