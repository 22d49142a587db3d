//! With `NoTrace`, a generated resolution formats nothing and allocates nothing: every
//! trace event is built inside `if T::ENABLED { .. }`, and aggregates over lists and
//! filled boxes iterate in place.

mod common;

use common::{Draw, SeededDecide};
use rulesc_runtime::{Env, NoTrace, SeededDice, VecTrace};
use rulesc_tests::kingsmark as km;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts allocations made by this test binary.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn attacks_without_a_trace_do_not_allocate() {
    // One test function: the counter is global, so nothing else may run beside it.
    let mut inputs = Vec::new();
    for seed in 0..500 {
        let mut d = Draw::new(seed);
        inputs.push((d.combatant(), d.combatant(), d.weapon(), d.int(-4, 6)));
    }
    let mut env = Env::new(SeededDice::new(7), SeededDecide::new(7), NoTrace);
    let n = allocations_during(|| {
        for (a, d, w, realism) in inputs.iter_mut() {
            std::hint::black_box(km::melee_attack(&mut env, a, d, w));
            std::hint::black_box(km::ranged_attack(&mut env, a, d, w, *realism));
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 untraced attacks");

    // The counter does count: the same attacks with a trace allocate.
    let mut env = Env::new(
        SeededDice::new(7),
        SeededDecide::new(7),
        VecTrace::default(),
    );
    let (a, d, w, _) = &mut inputs[0];
    assert!(
        allocations_during(|| {
            km::melee_attack(&mut env, a, d, w);
        }) > 0
    );
}
