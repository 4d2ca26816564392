//! Time-travel benchmarks (criterion, native only): seeking to random
//! moments of a run of 10 simulated minutes under a steady load, the way the
//! page's scrubber does. Before criterion runs, prints the spread of single
//! seeks (median, 99th percentile, worst) and what the checkpoints weigh.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicIsize, Ordering};
    use std::time::Instant;

    use criterion::{criterion_group, Criterion};
    use raftlab::lang::parse::parse_script;
    use raftlab::session::timeline::{Timeline, TimelineConfig, DEFAULT_MAX_CHECKPOINTS};

    /// Counts the bytes alive on the heap, to weigh the checkpoints.
    struct Counting;

    static LIVE: AtomicIsize = AtomicIsize::new(0);

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static ALLOC: Counting = Counting;

    /// 3 voters, 50 writes/s of 256 bytes, 10 simulated minutes.
    pub const SCRIPT: &str = "cluster voters=1,2,3 seed=1\n\
                              wait-until leader\n\
                              load rate=50/s size=256B\n\
                              wait 600s\n";

    /// A fixed pseudo-random sequence of moments (xorshift).
    fn moments(end: u64, n: usize) -> Vec<u64> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % (end + 1)
            })
            .collect()
    }

    fn summary(max_checkpoints: usize) {
        summary_of(
            SCRIPT,
            "10 simulated minutes at 50 writes/s",
            max_checkpoints,
        );
    }

    /// What one timeline measured.
    struct Measured {
        counted_mb: f64,
        allocated_mb: f64,
        checkpoints: usize,
        /// Over 2000 random moments, each seek's best of three passes (a
        /// busy machine's pauses would make the worst a measure of them).
        median_ms: f64,
        worst_ms: f64,
    }

    fn summary_of(src: &str, what: &str, max_checkpoints: usize) -> Measured {
        let config = TimelineConfig {
            max_checkpoints,
            ..TimelineConfig::default()
        };
        let script = parse_script(src).unwrap();
        let before = LIVE.load(Ordering::Relaxed);
        let start = Instant::now();
        let mut t = Timeline::run_script_with(&script, config);
        let built = start.elapsed();
        let weight = LIVE.load(Ordering::Relaxed) - before;
        let counted = t.memory_bytes();
        let one = {
            let b = LIVE.load(Ordering::Relaxed);
            let c = t.session().clone();
            let w = LIVE.load(Ordering::Relaxed) - b;
            drop(c);
            w
        };
        let cps = t.checkpoint_times();
        let widest = cps.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let targets = moments(t.end(), 2000);
        let mut ms = vec![f64::INFINITY; targets.len()];
        for _ in 0..3 {
            for (best, &m) in ms.iter_mut().zip(&targets) {
                let s = Instant::now();
                t.seek(m);
                *best = best.min(s.elapsed().as_secs_f64() * 1000.0);
            }
        }
        ms.sort_by(f64::total_cmp);
        let pick = |q: f64| ms[((ms.len() - 1) as f64 * q) as usize];
        println!(
            "timeline (max {max_checkpoints} checkpoints): {what} built in {:.0} ms; {} checkpoints \
             (widest gap {} ms), {:.1} MB for the whole timeline (counted: {:.1} MB), {:.0} KB \
             for one session at the end",
            built.as_secs_f64() * 1000.0,
            cps.len(),
            widest,
            weight as f64 / 1e6,
            counted as f64 / 1e6,
            one as f64 / 1e3
        );
        println!(
            "          2000 random seeks, each the best of 3: median {:.2} ms, 99th percentile {:.2} ms, worst {:.2} ms",
            pick(0.5),
            pick(0.99),
            pick(1.0)
        );
        Measured {
            counted_mb: counted as f64 / 1e6,
            allocated_mb: weight as f64 / 1e6,
            checkpoints: cps.len(),
            median_ms: pick(0.5),
            worst_ms: pick(1.0),
        }
    }

    /// The bench workload's timeline before this round, measured on
    /// 2026-12-06 with this file on main's code of that day in the same
    /// sitting as this branch (docs/performance.md): what
    /// `Timeline::memory_bytes` counted, and its seeks natively (median and
    /// worst of 2000, each the best of three). A figure over 1 of before
    /// compares two runs on a shared machine: run both again to tell.
    const BEFORE_MB: f64 = 127.6;
    const BEFORE_MEDIAN_MS: f64 = 9.89;
    const BEFORE_WORST_MS: f64 = 42.09;

    /// One line each for the bench workload's timeline: its memory against
    /// the goal (a third of before), its seeks against before's.
    fn figures(m: &Measured) {
        println!(
            "figure: timeline of raftlab bench's workload (10 simulated minutes, 100 writes/s, {} checkpoints): \
             {:.1} MB counted ({:.1} MB allocated) = {:.2} of the {BEFORE_MB:.1} MB before (at most 45 MB, a third, wanted)",
            m.checkpoints,
            m.counted_mb,
            m.allocated_mb,
            m.counted_mb / BEFORE_MB
        );
        println!(
            "figure: seeks in that timeline, natively (2000 random moments, each the best of 3): median {:.2} ms, \
             worst {:.2} ms = {:.2} and {:.2} of before's {BEFORE_MEDIAN_MS:.2} and {BEFORE_WORST_MS:.2} ms (no slower wanted)",
            m.median_ms,
            m.worst_ms,
            m.median_ms / BEFORE_MEDIAN_MS,
            m.worst_ms / BEFORE_WORST_MS
        );
    }

    fn seek(c: &mut Criterion) {
        let m = summary_of(
            &raftlab::cli::bench::workload(600, 100),
            "raftlab bench's workload (5 voters + 1 learner, 100 writes/s, 10 simulated minutes)",
            DEFAULT_MAX_CHECKPOINTS,
        );
        figures(&m);
        for max in [32, DEFAULT_MAX_CHECKPOINTS, 128] {
            summary(max);
        }
        let mut t = Timeline::from_script(SCRIPT).unwrap();
        let ms = moments(t.end(), 4096);
        let mut i = 0;
        let mut group = c.benchmark_group("timeline");
        group.sample_size(20);
        group.bench_function(
            "seek to a random moment of 10 simulated minutes at 50 writes/s",
            |b| {
                b.iter(|| {
                    i = (i + 1) % ms.len();
                    t.seek(ms[i])
                })
            },
        );
        let end = t.end();
        group.bench_function("seek back one second from the end", |b| {
            b.iter(|| {
                t.seek(end);
                t.seek(end - 1000)
            })
        });
        group.finish();
    }

    criterion_group!(benches, seek);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
