//! The linearizability checker (criterion, native only) on the size it must
//! decide in under a second: 10 simulated minutes at 100 writes/s over 100
//! keys, with four readers. Before criterion runs, prints the history's size
//! and one timed check of each case.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::time::Instant;

    use criterion::{criterion_group, Criterion};
    use raftlab::sim::linearizability::synthetic::{make_stale_read, Synthetic};
    use raftlab::sim::linearizability::{check, Operation};

    fn histories() -> (Vec<Operation>, Vec<Operation>) {
        let good = Synthetic::default().generate();
        let mut bad = good.clone();
        make_stale_read(&mut bad).expect("a read to make stale");
        (good, bad)
    }

    fn summary(good: &[Operation], bad: &[Operation]) {
        let writes = good
            .iter()
            .filter(|o| !matches!(o.kind, raftlab::sim::linearizability::OpKind::Read(_)))
            .count();
        println!(
            "history: {} operations ({} writes, {} reads), 10 simulated minutes",
            good.len(),
            writes,
            good.len() - writes
        );
        let mut medians = Vec::new();
        for (name, h) in [("linearizable", good), ("one stale read", bad)] {
            // Five checks, their median: one figure on a busy machine.
            let mut ms = Vec::new();
            let mut result = check(h);
            for _ in 0..5 {
                let start = Instant::now();
                result = check(h);
                ms.push(start.elapsed().as_secs_f64() * 1000.0);
            }
            ms.sort_by(f64::total_cmp);
            let anomaly = result.anomaly.map_or(0, |a| a.operations.len());
            println!(
                "{name}: ok={} keys={} anomaly of {anomaly} operations, in {:.1} ms (median of 5)",
                result.ok, result.keys, ms[2]
            );
            medians.push(ms[2]);
        }
        println!(
            "figure: the linearizability checker, 10 simulated minutes at 100 writes/s ({} operations): \
             {:.1} ms for a linearizable history, {:.1} ms for one with a stale read = {:.2} of the \
             history's 600 simulated seconds in wall milliseconds per simulated second (no goal \
             set: docs/performance.md keeps its history)",
            good.len(),
            medians[0],
            medians[1],
            medians[0].max(medians[1]) / 600.0
        );
    }

    fn checker(c: &mut Criterion) {
        let (good, bad) = histories();
        summary(&good, &bad);
        let mut group = c.benchmark_group("linearizability");
        group.sample_size(10);
        group.bench_function("check 10 minutes at 100 writes/s (linearizable)", |b| {
            b.iter(|| check(&good))
        });
        group.bench_function(
            "check 10 minutes at 100 writes/s (one stale read, with its anomaly)",
            |b| b.iter(|| check(&bad)),
        );
        group.finish();
    }

    criterion_group!(benches, checker);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
