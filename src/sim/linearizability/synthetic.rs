//! Histories a correct store produces: every operation takes effect at one
//! instant inside its interval, on one copy of the data. For the checker's
//! tests and its benchmark (a run's size and shape without running a
//! cluster).

use std::rc::Rc;

use super::{OpKind, Operation, Stamp};

/// The shape of a synthetic history. `Default` is the size the checker must
/// decide in under a second: 10 minutes at 100 writes/s over 100 keys, with
/// four readers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synthetic {
    pub seed: u64,
    pub duration_ms: u64,
    /// Writes of one client (client 0, like `load`), not waited for: several
    /// are in flight at once.
    pub writes_per_s: u64,
    pub keys: u64,
    /// Clients 1..=readers, each reading one key at a time.
    pub readers: u64,
    pub reads_per_s: u64,
    /// An operation is invoked up to this long before it takes effect and
    /// answered up to this long after.
    pub max_latency_ms: u64,
    /// Reads that take up to 40 times as long (a read waiting on a slow
    /// quorum), overlapping several writes of their key.
    pub slow_read_percent: u64,
    /// Writes that are deletes.
    pub delete_percent: u64,
    /// Writes never answered; half of them took effect.
    pub unknown_percent: u64,
}

impl Default for Synthetic {
    fn default() -> Synthetic {
        Synthetic {
            seed: 1,
            duration_ms: 600_000,
            writes_per_s: 100,
            keys: 100,
            readers: 4,
            reads_per_s: 25,
            max_latency_ms: 30,
            slow_read_percent: 2,
            delete_percent: 2,
            unknown_percent: 1,
        }
    }
}

/// SplitMix64: a small, fixed generator, so a seed gives the same history
/// everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..=max`.
    fn upto(&mut self, max: u64) -> u64 {
        self.next() % (max + 1)
    }

    fn percent(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
}

impl Synthetic {
    /// The history, in invocation order. Values are unique per write.
    pub fn generate(&self) -> Vec<Operation> {
        let mut rng = Rng(self.seed);
        let keys = self.keys.max(1);
        let lat_us = self.max_latency_ms * 1000;
        // Times in microseconds; writes take effect at even ones and reads
        // at odd ones, so no read ties with a write.
        let interval = (1_000_000 / self.writes_per_s.max(1)).max(2);
        let writes = self.duration_ms * 1000 / interval;
        let mut ops = Vec::new();
        // Per key: (instant, value) of the writes that took effect, in time order.
        let mut effects: Vec<Vec<(u64, Option<String>)>> = vec![Vec::new(); keys as usize];
        for i in 0..writes {
            let at = (i * interval + rng.upto(interval - 2)) & !1;
            let key = rng.upto(keys - 1);
            let value = (!rng.percent(self.delete_percent)).then(|| i.to_string());
            let unknown = rng.percent(self.unknown_percent);
            if !unknown || rng.percent(50) {
                effects[key as usize].push((at, value.clone()));
            }
            let kind = match value {
                Some(v) => OpKind::Write(Rc::from(v)),
                None => OpKind::Delete,
            };
            let response = (!unknown).then(|| at + rng.upto(lat_us));
            ops.push(op(
                0,
                key,
                kind,
                at.saturating_sub(rng.upto(lat_us)),
                response,
            ));
        }
        let think = 1_000_000 / self.reads_per_s.max(1);
        let end = self.duration_ms * 1000;
        for client in 1..=self.readers {
            let mut now = rng.upto(think);
            while now < end {
                let slow = if rng.percent(self.slow_read_percent) {
                    40
                } else {
                    1
                };
                let at = (now + rng.upto(lat_us * slow)) | 1;
                let key = rng.upto(keys - 1);
                let timeline = &effects[key as usize];
                let seen = timeline.partition_point(|&(t, _)| t < at);
                let value = seen.checked_sub(1).and_then(|i| timeline[i].1.clone());
                let response = at + rng.upto(lat_us * slow);
                ops.push(op(
                    client,
                    key,
                    OpKind::Read(value.map(Rc::from)),
                    now,
                    Some(response),
                ));
                now = response + rng.upto(think);
            }
        }
        ops.sort_by_key(|o| o.invoke);
        ops
    }
}

/// An operation from times in microseconds: invoked in the millisecond it
/// was sent, answered by the end of the millisecond it was answered in, so
/// its instant of effect stays inside.
fn op(client: u64, key: u64, kind: OpKind, invoke_us: u64, response_us: Option<u64>) -> Operation {
    Operation {
        client,
        key: Rc::from(format!("k{key}")),
        kind,
        invoke: Stamp::at(invoke_us / 1000),
        response: response_us.map(|r| Stamp::at(r.div_ceil(1000))),
    }
}

/// Makes the latest read it can into a stale one: it now returns the value
/// of a write that finished before another write of its key, which itself
/// finished before the read was sent. Returns the read's position, or
/// `None` if no read qualifies.
pub fn make_stale_read(history: &mut [Operation]) -> Option<usize> {
    let (read, old) = (0..history.len()).rev().find_map(|i| {
        let read = &history[i];
        let OpKind::Read(Some(_)) = read.kind else {
            return None;
        };
        let mut writes = history[..i].iter().rev().filter(|o| {
            o.key == read.key
                && !matches!(o.kind, OpKind::Read(_))
                && o.response.is_some_and(|t| t < read.invoke)
        });
        let missed = writes.next()?;
        let before = writes.find(|o| o.response.is_some_and(|t| t < missed.invoke))?;
        match &before.kind {
            OpKind::Write(old) => Some((i, old.clone())),
            _ => None,
        }
    })?;
    history[read].kind = OpKind::Read(Some(old));
    Some(read)
}
