//! Engine benchmarks (criterion). Native only.
#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{criterion_group, Criterion};
    use raftlab::raft::{KvStore, Put};

    fn kv_apply(c: &mut Criterion) {
        c.bench_function("kv apply 1000 puts", |b| {
            b.iter(|| {
                let mut kv = KvStore::default();
                for i in 0..1000u64 {
                    kv.apply_put(&Put {
                        key: format!("k{}", i % 100),
                        value: "v".into(),
                        size: 64,
                        request: i,
                    });
                }
                kv.bytes()
            })
        });
    }

    criterion_group!(benches, kv_apply);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
