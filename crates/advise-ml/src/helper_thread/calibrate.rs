//! The helper thread's tests at start: whether two threads compute side by side at the
//! speed of one, and whether fine hand-overs pay. Both can change from minute to minute on a
//! virtual machine whose cores the host moves (this project's 2-core VM does); each process
//! measures once, in about 1.5 ms.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{join_on, Helper};

/// Whether this thread and the helper run floating-point work side by side at nearly the
/// speed of one thread alone. Two cores of a virtual machine may be one physical core's two
/// hardware threads, or share it with another guest, for minutes at a time; then each runs
/// at about half speed when both work, and handing work to the helper only adds waiting
/// (measured on this project's 2-core VM: LinearRegression at 192 rows 8 ms with the helper
/// when the cores were independent, 12-18 ms when they were not, 10 ms without it). Takes
/// about a millisecond, once per process; where they do not, the helper takes no job
/// (`ADVISE_THREADS=2` skips the test).
pub(super) fn cores_side_by_side(h: &'static Helper) -> bool {
    // A new thread may take milliseconds to first run: wait for one job first (at most
    // 50 ms; a helper that never answers then takes no job).
    let t0 = Instant::now();
    h.busy.store(true, Ordering::Relaxed);
    join_on(h, || (), || ());
    if t0.elapsed() > Duration::from_millis(50) {
        return false;
    }
    let best = |f: &dyn Fn() -> Duration| (0..5).map(|_| f()).min().unwrap_or_default();
    let alone = best(&|| {
        let t0 = Instant::now();
        std::hint::black_box(float_work());
        t0.elapsed()
    });
    let together = best(&|| {
        h.busy.store(true, Ordering::Relaxed);
        let t0 = Instant::now();
        std::hint::black_box(join_on(h, float_work, float_work));
        t0.elapsed()
    });
    if std::env::var_os("ADVISE_HELPER_DEBUG").is_some() {
        eprintln!("helper: alone {alone:?} together {together:?}");
    }
    together.as_secs_f64() <= 1.3 * alone.as_secs_f64()
}

/// Whether joins of about two microseconds of work a side, each side taking the data the other
/// side worked on in the join before (as JAMA's panels pass their columns back and forth),
/// take at most 0.8 of the time of the same work on one thread. Where the two cores share
/// caches they do; where a line takes long to cross from one core to the other (cores on two
/// chiplets or sockets of the host; on this project's VM it changes from minute to minute)
/// they do not, and such joins then run on the calling thread.
pub(super) fn hand_overs_pay(h: &'static Helper) -> bool {
    const HALF: usize = 2048;
    fn work(x: &mut [f64]) {
        for _ in 0..12 {
            for v in x.iter_mut() {
                *v = *v * 0.999 + 0.5;
            }
        }
    }
    let mut data = vec![1.0f64; 2 * HALF];
    let mut best = |parallel: bool| {
        (0..3)
            .map(|_| {
                let t0 = Instant::now();
                for round in 0..64 {
                    let (x, y) = data.split_at_mut(HALF);
                    let (x, y) = if round % 2 == 0 { (x, y) } else { (y, x) };
                    if parallel {
                        h.busy.store(true, Ordering::Relaxed);
                        join_on(h, || work(x), || work(y));
                    } else {
                        work(x);
                        work(y);
                    }
                }
                t0.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let one = best(false);
    let two = best(true);
    if std::env::var_os("ADVISE_HELPER_DEBUG").is_some() {
        eprintln!("helper: hand-overs {two:?} against {one:?} on one thread");
    }
    two.as_secs_f64() <= 0.8 * one.as_secs_f64()
}

/// About 100 microseconds of multiplies and adds on data in the L1 cache, eight
/// independent chains (as the models' inner loops have).
fn float_work() -> f64 {
    let x: Vec<f64> = (0..512).map(|i| 1.0 + i as f64 * 1e-3).collect();
    let x = std::hint::black_box(x);
    let mut acc = [0.0f64; 8];
    for _ in 0..1024 {
        for c in x.chunks_exact(8) {
            for (a, &v) in acc.iter_mut().zip(c) {
                *a = *a * 0.999 + v;
            }
        }
    }
    acc.iter().sum()
}
