//! Engine benchmarks (criterion, native only): the standard workload of
//! `raftlab bench`, a 5-voter plus 1-learner cluster under a steady client
//! load, and a world checkpoint clone (what time travel pays per checkpoint).

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{criterion_group, Criterion, Throughput};
    use raftlab::cli::bench::workload;
    use raftlab::session::exec::Session;

    fn ten_simulated_minutes(c: &mut Criterion) {
        let script = workload(600, 100);
        let deliveries = Session::from_script(&script)
            .unwrap()
            .cluster()
            .world()
            .deliveries();
        let mut group = c.benchmark_group("engine");
        group.sample_size(10);
        group.throughput(Throughput::Elements(deliveries));
        group.bench_function(
            "5 voters + 1 learner, 100 writes/s, 10 simulated minutes",
            |b| b.iter(|| Session::from_script(&script).unwrap().now()),
        );
        group.finish();
    }

    fn checkpoint_clone(c: &mut Criterion) {
        let session = Session::from_script(&workload(60, 100)).unwrap();
        c.bench_function("clone a session after 1 simulated minute", |b| {
            b.iter(|| session.clone().now())
        });
    }

    criterion_group!(benches, ten_simulated_minutes, checkpoint_clone);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
