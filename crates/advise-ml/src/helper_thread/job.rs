//! The jobs two threads hand each other: a closure and its result on the stack of the
//! thread that waits for it, the pointer the other thread runs it through, and the waits
//! that keep a job from outliving the data it borrows.

use std::cell::UnsafeCell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use super::{Helper, CALLER_SPINS};

/// A job handed to the helper: a pointer to a [`StackJob`] on the caller's stack and the
/// function that runs it.
#[derive(Clone, Copy)]
pub(super) struct JobRef {
    pub(super) data: *const (),
    pub(super) run: unsafe fn(*const ()),
    /// The CPU the poster ran on when it posted.
    pub(super) cpu: Option<usize>,
}

// SAFETY: the data behind `data` is a `StackJob` whose closure and result are `Send`, and the
// caller does not touch it until the helper has set `done`.
unsafe impl Send for JobRef {}

/// A closure and its result, on the stack of the thread that waits for it.
pub(super) struct StackJob<F, R> {
    f: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<thread::Result<R>>>,
    pub(super) done: AtomicBool,
}

impl<F: FnOnce() -> R + Send, R: Send> StackJob<F, R> {
    pub(super) fn new(f: F) -> Self {
        StackJob {
            f: UnsafeCell::new(Some(f)),
            result: UnsafeCell::new(None),
            done: AtomicBool::new(false),
        }
    }

    /// The job as handed to the other thread; `cpu`, where the poster runs.
    pub(super) fn job_ref(&self, cpu: Option<usize>) -> JobRef {
        JobRef {
            data: self as *const Self as *const (),
            run: Self::run,
            cpu,
        }
    }

    /// Runs the job behind `data` (a `StackJob<F, R>`) and marks it done.
    unsafe fn run(data: *const ()) {
        // SAFETY: `data` points to a live StackJob<F, R> (see `JobRef`); only this thread
        // touches its cells until `done` is set.
        let job = unsafe { &*(data as *const Self) };
        let f = unsafe { (*job.f.get()).take() };
        if let Some(f) = f {
            let r = catch_unwind(AssertUnwindSafe(f));
            unsafe { *job.result.get() = Some(r) };
        }
        job.done.store(true, Ordering::Release);
    }
}

/// Waits for a posted job even when the calling closure panics, so that the job never
/// outlives the data it borrows.
pub(super) struct WaitGuard<'a> {
    pub(super) done: &'a AtomicBool,
    pub(super) helper: &'static Helper,
}

impl Drop for WaitGuard<'_> {
    fn drop(&mut self) {
        let h = self.helper;
        h.owner_waiting.store(true, Ordering::Release);
        wait_until(self.done, || h.run_handed_back());
        // The helper's job is done, so every job it handed back is done too.
        h.owner_waiting.store(false, Ordering::Relaxed);
        h.busy.store(false, Ordering::Release);
    }
}

/// Waits, on the helper thread, for a job it handed back.
pub(super) struct BackGuard<'a> {
    pub(super) done: &'a AtomicBool,
    pub(super) helper: &'static Helper,
}

impl Drop for BackGuard<'_> {
    fn drop(&mut self) {
        wait_until(self.done, || false);
        self.helper.back_busy.store(false, Ordering::Release);
    }
}

/// Spins (then yields its core between checks) until `done` is set; `meanwhile` runs
/// between checks and says whether it did some work (the spinning then starts over).
pub(super) fn wait_until(done: &AtomicBool, mut meanwhile: impl FnMut() -> bool) {
    let mut spins = 0;
    while !done.load(Ordering::Acquire) {
        if meanwhile() {
            spins = 0;
        } else if spins < CALLER_SPINS {
            spins += 1;
            std::hint::spin_loop();
        } else {
            thread::yield_now();
        }
    }
}

/// The results of a join once its job is done (`done` set): a panic in the job is resumed.
pub(super) fn finish<B: FnOnce() -> RB, RA, RB>(ra: RA, job: &StackJob<B, RB>) -> (RA, RB) {
    // SAFETY: `done` was set (the guard waited for it), so the other thread no longer
    // touches the job.
    let rb = unsafe { (*job.result.get()).take() };
    match rb {
        Some(Ok(rb)) => (ra, rb),
        Some(Err(panic)) => resume_unwind(panic),
        // The helper sets `done` only after storing the result; a job it never ran (it
        // cannot happen) runs here.
        None => {
            let f = unsafe { (*job.f.get()).take() };
            match f {
                Some(f) => (ra, f()),
                None => unreachable!("a finished job leaves its result"),
            }
        }
    }
}
