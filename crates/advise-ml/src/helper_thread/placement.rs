//! Which CPU a thread runs on, and moving the calling thread off one (Linux; elsewhere
//! neither is known and nothing moves). The helper thread uses them: Linux starts a new
//! thread, and wakes a sleeping one, on the CPU of the thread that woke it when that looks
//! cheaper, and two threads that hand work to each other every few microseconds then take
//! turns on one CPU until the scheduler's balancing moves one (milliseconds later).

/// The CPU the calling thread runs on now.
#[cfg(target_os = "linux")]
pub(crate) fn current() -> Option<usize> {
    // SAFETY: sched_getcpu takes no arguments and only reads the calling thread's state.
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).ok()
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn current() -> Option<usize> {
    None
}

/// Lets the calling thread run on every CPU it may use now except `cpu` (moving it at once
/// when it is on `cpu`); does nothing when `cpu` is the only one.
#[cfg(target_os = "linux")]
pub(crate) fn move_off(cpu: usize) {
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: a zeroed cpu_set_t is a valid empty set; the calls get and set the calling
    // thread's (pid 0) affinity through a set of the size passed.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return;
        }
        // The CPUs allowed to the process may have been narrowed by an earlier move: widen
        // to every online CPU the process may use, then drop `cpu`.
        let mut all: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(std::process::id() as libc::pid_t, size, &mut all) == 0 {
            set = all;
        }
        if cpu >= libc::CPU_SETSIZE as usize || !libc::CPU_ISSET(cpu, &set) {
            return;
        }
        libc::CPU_CLR(cpu, &mut set);
        if libc::CPU_COUNT(&set) == 0 {
            return;
        }
        libc::sched_setaffinity(0, size, &set);
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn move_off(_cpu: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_moved_off_a_cpu_leaves_it() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let Some(cpu) = current() else {
            return;
        };
        if cores < 2 {
            return;
        }
        std::thread::spawn(move || {
            move_off(cpu);
            assert_ne!(current(), Some(cpu));
        })
        .join()
        .unwrap_or_else(|_| panic!("the moved thread failed"));
    }
}
