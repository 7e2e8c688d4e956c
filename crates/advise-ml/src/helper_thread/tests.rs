use super::*;
use std::panic::catch_unwind;

#[test]
fn both_sides_run_and_return() {
    let mut left = vec![0u64; 1000];
    let mut right = vec![0u64; 1000];
    for round in 0..200u64 {
        let (a, b) = join(
            || {
                left.iter_mut().for_each(|v| *v += round);
                left.iter().sum::<u64>()
            },
            || {
                right.iter_mut().for_each(|v| *v += 2 * round);
                right.iter().sum::<u64>()
            },
        );
        let expect = 1000 * (round * (round + 1) / 2);
        assert_eq!((a, b), (expect, 2 * expect));
    }
}

#[test]
fn nested_and_concurrent_joins_finish() {
    let totals: Vec<u64> = thread::scope(|s| {
        let hs: Vec<_> = (0..3u64)
            .map(|t| {
                s.spawn(move || {
                    let mut total = 0;
                    for i in 0..300u64 {
                        let (a, (b, c)) = join(|| i + t, || join(|| 2 * i, || 3 * i));
                        total += a + b + c;
                    }
                    total
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(0)).collect()
    });
    for (t, total) in totals.into_iter().enumerate() {
        let sum_i: u64 = (0..300).sum();
        assert_eq!(total, 6 * sum_i + 300 * t as u64);
    }
}

#[test]
fn alone_keeps_joins_on_the_thread() {
    let here = thread::current().id();
    let (a, b) = alone(|| join(|| thread::current().id(), || thread::current().id()));
    assert_eq!((a, b), (here, here));
    assert!(!alone(is_free));
}

#[test]
fn the_helper_hands_work_back_to_the_waiting_thread() {
    if helper().is_none() {
        return;
    }
    let here = thread::current().id();
    // The caller's own part is empty, so it waits (and takes work back) while the
    // helper, a moment later, forks its part.
    let (_, (on_helper, handed_back)) = join(
        || (),
        || {
            thread::sleep(Duration::from_millis(5));
            join(|| thread::current().id(), || thread::current().id())
        },
    );
    if on_helper != here {
        assert_eq!(handed_back, here);
    }
}

#[test]
fn a_panic_on_the_helper_reaches_the_caller() {
    let r = catch_unwind(|| join(|| 1, || -> u32 { panic!("helper side") }));
    assert!(r.is_err());
    // The helper is free again afterwards.
    assert_eq!(join(|| 1, || 2), (1, 2));
}
