//! Weka 3.6's `MyHeap` (weka.core.neighboursearch.NearestNeighbourSearch), as
//! `LinearNNSearch` uses it: the k nearest rows so far and the rows tied with the k-th, whose
//! order decides the order of the neighbours Weka returns.

/// Weka's `MyHeap`: a max-heap of the k nearest plus a list of rows tied with its top.
pub struct Heap {
    h: Vec<(usize, f64)>,
    pub ties: Vec<(usize, f64)>,
}

impl Heap {
    pub fn new(k: usize) -> Self {
        let mut h = Vec::with_capacity(k + 2);
        h.push((0, 0.0));
        Heap {
            h,
            ties: Vec::new(),
        }
    }

    pub fn size(&self) -> usize {
        self.h.len() - 1
    }

    pub fn peek(&self) -> f64 {
        self.h[1].1
    }

    pub fn put(&mut self, i: usize, d: f64) {
        self.h.push((i, d));
        let mut c = self.size();
        while c > 1 && self.h[c].1 > self.h[c / 2].1 {
            self.h.swap(c, c / 2);
            c /= 2;
        }
    }

    pub fn get(&mut self) -> (usize, f64) {
        let top = self.h[1];
        let last = self.h.len() - 1;
        self.h[1] = self.h[last];
        self.h.pop();
        let n = self.size();
        let mut i = 1;
        while (2 * i <= n && self.h[i].1 < self.h[2 * i].1)
            || (2 * i < n && self.h[i].1 < self.h[2 * i + 1].1)
        {
            // Weka goes left only when the left child is strictly larger (or there is no right).
            let left_larger = matches!(
                self.h[2 * i]
                    .1
                    .partial_cmp(&self.h.get(2 * i + 1).map_or(0.0, |e| e.1)),
                Some(std::cmp::Ordering::Greater)
            );
            let c = if 2 * i < n && !left_larger {
                2 * i + 1
            } else {
                2 * i
            };
            self.h.swap(i, c);
            i = c;
        }
        top
    }

    pub fn put_by_substitute(&mut self, i: usize, d: f64) {
        let head = self.get();
        self.put(i, d);
        let top = self.peek();
        if head.1 == top {
            self.ties.push(head);
        } else if head.1 > top {
            self.ties.clear();
        }
    }
}
