//! One helper thread for fork-join work too fine for spawning threads: [`join`] runs one
//! closure on the calling thread and the other on the helper when the helper is free (else
//! both on the calling thread, one after the other), and returns when both are done.
//!
//! The models use it for a few large halves per fit (M5P's subtrees, the root's sorts,
//! LinearRegression's Gram matrix, IBk's test rows) and, through [`join_fine`], for the many
//! small steps of JAMA's panels (hundreds per fit, some microseconds each, passing their
//! columns between the threads), where a new thread per step would cost more than the step.
//! After a job the helper spins 2 ms for the next one (waking a sleeping thread costs more
//! than many a job), then sleeps until one comes, and it moves itself off the poster's CPU
//! when the scheduler put both on one (`placement`). Results never depend on whether the
//! helper took a job: the two closures of a join touch disjoint data.
//!
//! When it starts the helper is tested (about 1.5 ms, `calibrate`): it takes no job where two
//! threads do not compute side by side at the speed of one, and no fine job where hand-overs
//! do not pay. `ADVISE_THREADS=1` (read once) keeps every job on the calling thread, for
//! measurements of one core; `ADVISE_THREADS=2` uses the helper for every job without the
//! tests; `ADVISE_HELPER_DEBUG` prints the tests' times on standard error.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

mod calibrate;
mod job;
mod map_each;
mod placement;

use calibrate::{cores_side_by_side, hand_overs_pay};
use job::{finish, BackGuard, JobRef, StackJob, WaitGuard};
pub use map_each::map_each;
use placement as cpu_placement;

struct Slot {
    job: Option<JobRef>,
    sleeping: bool,
}

struct Helper {
    /// Claimed by the caller whose job the helper runs (or is about to run).
    busy: AtomicBool,
    /// A job waits in `slot`.
    posted: AtomicBool,
    /// Whether jobs of a few microseconds whose data the two threads pass back and forth
    /// are worth handing over (see [`join_fine`]).
    fine: AtomicBool,
    slot: Mutex<Slot>,
    wake: Condvar,
    /// The thread that claimed the helper waits for its job; meanwhile it runs the jobs the
    /// helper hands back (`back`), so that neither thread idles while the other has work.
    owner_waiting: AtomicBool,
    /// Claimed by the helper while a job it handed back is out.
    back_busy: AtomicBool,
    /// A job handed back waits in `back`.
    back_posted: AtomicBool,
    back: Mutex<Option<JobRef>>,
}

/// How long the helper spins for the next job before it sleeps. Waking a sleeping thread
/// costs microseconds (on a virtual machine, where the idle core halts, tens of them), more
/// than many a job; a fit's jobs come some microseconds apart.
const SPIN_TIME: Duration = Duration::from_millis(2);

/// Spins of a caller waiting for its job before it yields its core between checks.
const CALLER_SPINS: u32 = 1 << 12;

fn helper() -> Option<&'static Helper> {
    static HELPER: OnceLock<Option<&'static Helper>> = OnceLock::new();
    *HELPER.get_or_init(|| {
        let setting = std::env::var("ADVISE_THREADS").ok();
        let setting = setting.as_deref().map(str::trim);
        let cores = thread::available_parallelism().map_or(1, |n| n.get());
        if setting == Some("1") || cores < 2 {
            return None;
        }
        let h: &'static Helper = Box::leak(Box::new(Helper {
            busy: AtomicBool::new(false),
            posted: AtomicBool::new(false),
            fine: AtomicBool::new(false),
            slot: Mutex::new(Slot {
                job: None,
                sleeping: false,
            }),
            wake: Condvar::new(),
            owner_waiting: AtomicBool::new(false),
            back_busy: AtomicBool::new(false),
            back_posted: AtomicBool::new(false),
            back: Mutex::new(None),
        }));
        thread::Builder::new()
            .name("advise-helper".into())
            .spawn(move || h.serve())
            .ok()?;
        if setting == Some("2") {
            h.fine.store(true, Ordering::Relaxed);
            return Some(h);
        }
        if !cores_side_by_side(h) {
            return None;
        }
        h.fine.store(hand_overs_pay(h), Ordering::Relaxed);
        Some(h)
    })
}

impl Helper {
    fn serve(&self) {
        IS_HELPER.set(true);
        loop {
            let mut spins = 0u32;
            let mut since: Option<Instant> = None;
            while !self.posted.load(Ordering::Acquire) {
                spins = spins.wrapping_add(1);
                if !spins.is_multiple_of(1024) {
                    std::hint::spin_loop();
                    continue;
                }
                let t0 = *since.get_or_insert_with(Instant::now);
                if t0.elapsed() < SPIN_TIME {
                    continue;
                }
                let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
                slot.sleeping = true;
                while slot.job.is_none() {
                    slot = self.wake.wait(slot).unwrap_or_else(|e| e.into_inner());
                }
                slot.sleeping = false;
                break;
            }
            let job = {
                let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
                self.posted.store(false, Ordering::Relaxed);
                slot.job.take()
            };
            if let Some(job) = job {
                // On the poster's CPU the two threads would take turns: move to another.
                if let (Some(theirs), Some(mine)) = (job.cpu, cpu_placement::current()) {
                    if theirs == mine {
                        cpu_placement::move_off(mine);
                    }
                }
                // SAFETY: `job` came from `post`, whose caller keeps the StackJob alive until
                // `done` is set, which `run` does last.
                unsafe { (job.run)(job.data) };
            }
        }
    }

    fn post(&self, job: JobRef) {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        slot.job = Some(job);
        self.posted.store(true, Ordering::Release);
        if slot.sleeping {
            self.wake.notify_one();
        }
    }

    /// Runs the job the helper handed back, if one waits; whether one did.
    fn run_handed_back(&self) -> bool {
        if !self.back_posted.load(Ordering::Acquire) {
            return false;
        }
        let job = {
            let mut back = self.back.lock().unwrap_or_else(|e| e.into_inner());
            self.back_posted.store(false, Ordering::Relaxed);
            back.take()
        };
        if let Some(job) = job {
            // SAFETY: the helper posted it from `join_back`, which keeps the StackJob alive
            // until `done` is set, which `run` does last.
            unsafe { (job.run)(job.data) };
        }
        true
    }
}

thread_local! {
    /// Set on threads whose joins stay on the thread (see [`alone`]).
    static ALONE: Cell<bool> = const { Cell::new(false) };
    /// Set on the helper thread.
    static IS_HELPER: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with every join on this thread kept on it: for worker threads that already
/// share the machine's cores among themselves (cross-validation folds on every core), where
/// the helper would only take a core from another worker.
pub fn alone<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ALONE.set(self.0);
        }
    }
    let _restore = Restore(ALONE.replace(true));
    f()
}

/// Threads a fit may use: 2 where the helper thread takes jobs, else 1 (starts the helper,
/// and its test, when nothing has yet).
pub fn threads() -> usize {
    if helper().is_some() {
        2
    } else {
        1
    }
}

/// Whether the helper thread exists and runs no job now (it may be taken the next moment):
/// work worth handing over only when it can start at once is prepared after this answers
/// yes.
pub fn is_free() -> bool {
    if ALONE.get() {
        return false;
    }
    helper().is_some_and(|h| {
        if IS_HELPER.get() {
            h.owner_waiting.load(Ordering::Relaxed) && !h.back_busy.load(Ordering::Relaxed)
        } else {
            !h.busy.load(Ordering::Relaxed)
        }
    })
}

/// [`join`] for jobs of some microseconds whose data the two threads pass back and forth:
/// on the helper only where such hand-overs were measured to pay (see `hand_overs_pay`).
pub fn join_fine<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB + Send,
    RB: Send,
{
    match helper() {
        Some(h) if h.fine.load(Ordering::Relaxed) => join(a, b),
        _ => (a(), b()),
    }
}

/// Runs `a` here and `b` on the helper thread if it is free (otherwise `b` here after `a`),
/// and returns both results once both are done. A panic in either is resumed here.
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB + Send,
    RB: Send,
{
    if ALONE.get() {
        return (a(), b());
    }
    let Some(h) = helper() else {
        return (a(), b());
    };
    if IS_HELPER.get() {
        // On the helper: hand `b` back to the thread waiting for it, if it waits.
        if h.owner_waiting.load(Ordering::Acquire)
            && h.back_busy
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            return join_back(h, a, b);
        }
        return (a(), b());
    }
    if h.busy
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return (a(), b());
    }
    join_on(h, a, b)
}

/// [`join`] on the helper thread with `back_busy` claimed: `b` goes to the owner, which
/// waits for the helper's job and runs it meanwhile (it cannot stop waiting before this
/// returns: this runs inside that job).
fn join_back<A, B, RA, RB>(h: &'static Helper, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB + Send,
    RB: Send,
{
    let job = StackJob::new(b);
    {
        let mut back = h.back.lock().unwrap_or_else(|e| e.into_inner());
        *back = Some(job.job_ref(None));
        h.back_posted.store(true, Ordering::Release);
    }
    let ra = {
        let _wait = BackGuard {
            done: &job.done,
            helper: h,
        };
        a()
    };
    finish(ra, &job)
}

/// [`join`] with the helper `h` already claimed (`busy` set); releases it.
fn join_on<A, B, RA, RB>(h: &'static Helper, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB + Send,
    RB: Send,
{
    let job = StackJob::new(b);
    h.post(job.job_ref(cpu_placement::current()));
    let ra = {
        let _wait = WaitGuard {
            done: &job.done,
            helper: h,
        };
        a()
    };
    finish(ra, &job)
}

#[cfg(test)]
mod tests;
