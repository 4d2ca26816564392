use super::synthetic::{make_stale_read, Synthetic};
use super::*;

fn w(client: ClientId, key: &str, v: &str, invoke: u64, response: u64) -> Operation {
    Operation::write(client, key, v, invoke, Some(response))
}

/// A write never answered: its outcome is unknown.
fn w_unknown(client: ClientId, key: &str, v: &str, invoke: u64) -> Operation {
    Operation::write(client, key, v, invoke, None)
}

fn r(client: ClientId, key: &str, v: Option<&str>, invoke: u64, response: u64) -> Operation {
    Operation::read(client, key, v, invoke, Some(response))
}

fn del(client: ClientId, key: &str, invoke: u64, response: u64) -> Operation {
    Operation::delete(client, key, invoke, Some(response))
}

/// The history positions the anomaly names.
fn named(result: &Linearizability) -> Vec<usize> {
    let anomaly = result.anomaly.as_ref().expect("an anomaly");
    anomaly.operations.iter().map(|o| o.index).collect()
}

/// Whether the operations at `chosen` (positions in `history`, one key)
/// contradict each other whatever the key's other writes did.
fn contradicts(history: &[Operation], key: &str, chosen: &[usize]) -> bool {
    let positions = (0..history.len())
        .filter(|&p| *history[p].key == *key)
        .collect();
    let k = KeyHistory::new(history, positions);
    let keep: Vec<bool> = k.positions.iter().map(|p| chosen.contains(p)).collect();
    !k.explained(&keep)
}

/// The anomaly cannot be explained, and without any one of its operations
/// it can.
fn assert_minimal(history: &[Operation], result: &Linearizability) {
    let anomaly = result.anomaly.as_ref().expect("an anomaly");
    let chosen = named(result);
    assert!(contradicts(history, &anomaly.key, &chosen), "{chosen:?}");
    for drop in &chosen {
        let rest: Vec<usize> = chosen.iter().copied().filter(|p| p != drop).collect();
        assert!(
            !contradicts(history, &anomaly.key, &rest),
            "{chosen:?} stays a contradiction without {drop}"
        );
    }
}

/// Checks, and if not linearizable, checks the anomaly is minimal; returns
/// the positions named (empty when linearizable).
fn verdict(history: &[Operation]) -> Vec<usize> {
    let result = check(history);
    assert_eq!(result.ok, is_linearizable(history));
    assert_eq!(result.ok, result.anomaly.is_none());
    if result.ok {
        return Vec::new();
    }
    assert_minimal(history, &result);
    named(&result)
}

#[test]
fn an_empty_history_is_linearizable() {
    let result = check(&[]);
    assert_eq!(
        result,
        Linearizability {
            ok: true,
            operations: 0,
            keys: 0,
            anomaly: None
        }
    );
}

#[test]
fn sequential_writes_and_reads() {
    let h = [
        r(1, "x", None, 0, 5),
        w(1, "x", "1", 10, 20),
        r(1, "x", Some("1"), 30, 40),
        w(1, "x", "2", 50, 60),
        r(1, "x", Some("2"), 70, 80),
    ];
    assert_eq!(verdict(&h), Vec::<usize>::new());
}

#[test]
fn a_read_overlapping_a_write_may_see_it_or_not() {
    for seen in [None, Some("1")] {
        // The read began before the write and ended after it began.
        let h = [w(0, "x", "1", 10, 20), r(1, "x", seen, 5, 15)];
        assert!(check(&h).ok, "{seen:?}");
        // The read began while the write was under way.
        let h = [w(0, "x", "1", 10, 20), r(1, "x", seen, 15, 25)];
        assert!(check(&h).ok, "{seen:?}");
    }
}

#[test]
fn overlapping_writes_may_land_in_either_order_but_only_one() {
    let writes = [w(0, "x", "1", 0, 10), w(1, "x", "2", 5, 15)];
    for last in ["1", "2"] {
        let mut h = writes.to_vec();
        h.push(r(2, "x", Some(last), 20, 30));
        h.push(r(2, "x", Some(last), 40, 50));
        assert!(check(&h).ok, "{last}");
    }
    // Once a read saw 1 after both ended, 2 cannot come back: the write of 2
    // finished before that read began.
    let mut h = writes.to_vec();
    h.push(r(2, "x", Some("1"), 20, 30));
    h.push(r(2, "x", Some("2"), 40, 50));
    assert_eq!(verdict(&h), vec![1, 2, 3]);
}

#[test]
fn a_stale_read_names_the_write_it_missed_and_the_one_it_saw() {
    let h = [
        w(0, "x", "1", 0, 10),
        w(0, "x", "2", 20, 30),
        r(1, "x", Some("1"), 40, 50),
    ];
    let result = check(&h);
    assert!(!result.ok);
    assert_eq!(named(&result), vec![0, 1, 2]);
    assert_minimal(&h, &result);
}

#[test]
fn a_stale_read_names_the_latest_write_it_missed() {
    let h = [
        w(0, "x", "1", 0, 10),
        w(0, "x", "2", 20, 30),
        w(0, "x", "3", 40, 50),
        r(1, "x", Some("1"), 60, 70),
    ];
    assert_eq!(verdict(&h), vec![0, 2, 3]);
}

#[test]
fn a_read_of_a_value_never_written_is_an_anomaly_alone() {
    let h = [
        w(0, "x", "1", 0, 10),
        r(1, "x", Some("7"), 20, 30),
        w(0, "x", "7", 5, 15).with_key("y"),
    ];
    assert_eq!(verdict(&h), vec![1]);
}

#[test]
fn a_read_from_the_future_names_the_read_and_the_later_write() {
    let h = [
        w(0, "x", "1", 0, 10),
        r(1, "x", Some("2"), 20, 30),
        w(0, "x", "2", 40, 50),
    ];
    assert_eq!(verdict(&h), vec![1, 2]);
}

#[test]
fn a_lost_write_names_the_write_and_the_read() {
    let h = [
        r(1, "x", None, 0, 5),
        w(0, "x", "1", 10, 20),
        r(1, "x", None, 30, 40),
    ];
    assert_eq!(verdict(&h), vec![1, 2]);
}

#[test]
fn a_write_of_unknown_outcome_may_have_taken_effect_or_not() {
    // Seen.
    let h = [w_unknown(0, "x", "1", 0), r(1, "x", Some("1"), 100, 110)];
    assert!(check(&h).ok);
    // Not seen, even long after.
    let h = [w_unknown(0, "x", "1", 0), r(1, "x", None, 100, 110)];
    assert!(check(&h).ok);
    // Not seen at first, then seen: it took effect late.
    let h = [
        w_unknown(0, "x", "1", 0),
        r(1, "x", None, 100, 110),
        r(1, "x", Some("1"), 200, 210),
    ];
    assert!(check(&h).ok);
}

#[test]
fn a_write_of_unknown_outcome_takes_effect_at_most_once() {
    // Seen, then gone with no delete, whether or not the write returned.
    for h in [
        vec![
            w_unknown(0, "x", "1", 0),
            r(1, "x", Some("1"), 100, 110),
            r(1, "x", None, 200, 210),
        ],
        vec![
            w(0, "x", "1", 0, 10),
            r(1, "x", Some("1"), 100, 110),
            r(1, "x", None, 200, 210),
        ],
    ] {
        assert_eq!(verdict(&h), vec![1, 2]);
    }
    // Absent, then 1, then absent again.
    let h = [
        w_unknown(0, "x", "1", 0),
        r(1, "x", None, 10, 20),
        r(1, "x", Some("1"), 30, 40),
        r(1, "x", None, 50, 60),
    ];
    assert_eq!(verdict(&h), vec![2, 3]);
}

#[test]
fn a_write_of_unknown_outcome_cannot_take_effect_before_it_was_sent() {
    let h = [r(1, "x", Some("1"), 0, 10), w_unknown(0, "x", "1", 20)];
    assert_eq!(verdict(&h), vec![0, 1]);
}

#[test]
fn a_read_never_answered_constrains_nothing() {
    let h = [
        w(0, "x", "1", 0, 10),
        Operation::read(1, "x", Some("9"), 20, None),
    ];
    let result = check(&h);
    assert!(result.ok);
    assert_eq!((result.operations, result.keys), (2, 1));
}

#[test]
fn deletes_make_the_key_absent() {
    let h = [
        w(0, "x", "1", 0, 10),
        del(0, "x", 20, 30),
        r(1, "x", None, 40, 50),
        w(0, "x", "1", 60, 70),
        r(1, "x", Some("1"), 80, 90),
    ];
    assert!(check(&h).ok);
    // A read overlapping the delete may see the key or not.
    for seen in [None, Some("1")] {
        let h = [
            w(0, "x", "1", 0, 10),
            del(0, "x", 20, 30),
            r(1, "x", seen, 25, 35),
        ];
        assert!(check(&h).ok, "{seen:?}");
    }
    // After the delete returned, the old value is stale.
    let h = [
        w(0, "x", "1", 0, 10),
        del(0, "x", 20, 30),
        r(1, "x", Some("1"), 40, 50),
    ];
    assert_eq!(verdict(&h), vec![0, 1, 2]);
    // A delete of unknown outcome may explain an absent read.
    let h = [
        w(0, "x", "1", 0, 10),
        Operation::delete(0, "x", 20, None),
        r(1, "x", None, 40, 50),
    ];
    assert!(check(&h).ok);
}

#[test]
fn repeated_values_are_told_apart_by_time() {
    // The second write of 1 explains the last read.
    let h = [
        w(0, "x", "1", 0, 10),
        w(0, "x", "2", 20, 30),
        w(0, "x", "1", 40, 50),
        r(1, "x", Some("1"), 60, 70),
    ];
    assert!(check(&h).ok);
    // Without it, the read is stale.
    let h = [
        w(0, "x", "1", 0, 10),
        w(0, "x", "2", 20, 30),
        w(0, "x", "1", 40, 50),
        r(1, "x", Some("2"), 60, 70),
    ];
    assert_eq!(verdict(&h), vec![1, 2, 3]);
}

#[test]
fn many_keys_one_bad() {
    let mut h = Vec::new();
    for k in 0..50 {
        let key = format!("k{k}");
        h.push(w(0, &key, "1", 10 * k, 10 * k + 5));
        h.push(r(1, &key, Some("1"), 10 * k + 6, 10 * k + 8));
    }
    h.push(w(0, "k7", "2", 1000, 1010));
    h.push(r(1, "k7", Some("1"), 1020, 1030));
    let result = check(&h);
    assert_eq!(
        (result.ok, result.operations, result.keys),
        (false, 102, 50)
    );
    let anomaly = result.anomaly.as_ref().unwrap();
    assert_eq!(anomaly.key, "k7");
    assert_eq!(named(&result), vec![15, 100, 101]);
    assert_minimal(&h, &result);
}

#[test]
fn of_several_bad_keys_the_first_failure_is_named() {
    let h = [
        w(0, "b", "1", 0, 10),
        r(1, "b", None, 20, 30),
        w(0, "a", "1", 100, 110),
        r(1, "a", None, 120, 130),
    ];
    let result = check(&h);
    assert_eq!(result.anomaly.unwrap().key, "b");
}

#[test]
fn within_one_millisecond_the_order_of_events_decides() {
    // The read is sent in the millisecond the write was answered in.
    let mut h = [w(0, "x", "1", 0, 5), r(1, "x", None, 5, 6)];
    assert!(check(&h).ok, "equal stamps overlap");
    h[0].response = Some(Stamp { ms: 5, seq: 1 });
    h[1].invoke = Stamp { ms: 5, seq: 2 };
    h[1].response = Some(Stamp { ms: 6, seq: 3 });
    assert_eq!(verdict(&h), vec![0, 1]);
    // Sent just before the answer, in the same millisecond: it overlaps.
    h[1].invoke = Stamp { ms: 5, seq: 0 };
    assert!(check(&h).ok);
}

#[test]
fn the_report_has_the_specified_shape() {
    let h = [
        w(0, "x", "1", 0, 10),
        w(0, "x", "2", 20, 30),
        r(3, "x", Some("1"), 40, 50),
        w_unknown(0, "y", "5", 60),
    ];
    let json = serde_json::to_value(check(&h)).unwrap();
    let expected = serde_json::json!({
        "ok": false,
        "operations": 4,
        "keys": 2,
        "anomaly": {
            "key": "x",
            "operations": [
                {"index": 0, "client": 0, "kind": "write", "value": "1", "invoke_ms": 0, "response_ms": 10},
                {"index": 1, "client": 0, "kind": "write", "value": "2", "invoke_ms": 20, "response_ms": 30},
                {"index": 2, "client": 3, "kind": "read", "value": "1", "invoke_ms": 40, "response_ms": 50},
            ]
        }
    });
    assert_eq!(json, expected);
    let ok = serde_json::to_value(check(&h[3..])).unwrap();
    assert_eq!(
        ok,
        serde_json::json!({"ok": true, "operations": 1, "keys": 1, "anomaly": null})
    );
    let views = [
        OperationView::of(7, &del(2, "x", 1, 2)),
        OperationView::of(8, &Operation::read(2, "x", None, 3, None)),
    ];
    assert_eq!(
        serde_json::to_value(views).unwrap(),
        serde_json::json!([
            {"index": 7, "client": 2, "kind": "delete", "value": null, "invoke_ms": 1, "response_ms": 2},
            {"index": 8, "client": 2, "kind": "read", "value": null, "invoke_ms": 3, "response_ms": null},
        ])
    );
}

#[test]
fn a_response_stamped_before_its_invocation_is_read_as_instantaneous() {
    let h = [w(0, "x", "1", 10, 5), r(1, "x", None, 11, 12)];
    assert_eq!(verdict(&h), vec![0, 1]);
}

/// 60 writes all in flight together, and reads that overlap them: without
/// the dead-read pruning, each would try every subset of the writes.
#[test]
fn reads_overlapping_many_writes_do_not_blow_up() {
    let writes: Vec<Operation> = (1..=60)
        .map(|i| w(0, "x", &i.to_string(), i, 1000 + i))
        .collect();
    // A read that ended before the writes did, seeing none of them.
    let mut h = writes.clone();
    h.push(r(1, "x", None, 10, 20));
    assert!(check(&h).ok);
    // Reads after all of them: one final value, whichever it is.
    let mut h = writes.clone();
    h.push(r(1, "x", Some("17"), 2000, 2010));
    h.push(r(1, "x", Some("17"), 2020, 2030));
    assert!(check(&h).ok);
    // A read after all of them that sees none is a lost write.
    let mut h = writes.clone();
    h.push(r(1, "x", None, 2000, 2010));
    assert_eq!(verdict(&h), vec![59, 60]);
    // Two final values: the second write finished before the first read.
    let mut h = writes.clone();
    h.push(r(1, "x", Some("17"), 2000, 2010));
    h.push(r(1, "x", Some("23"), 2020, 2030));
    assert_eq!(verdict(&h), vec![22, 60, 61]);
    // A long read overlapping all of them, and reads inside it that see
    // the writes land in a zigzag order.
    let mut h = writes;
    h.push(r(1, "x", Some("30"), 0, 3000));
    for (i, v) in [5, 40, 12, 60, 30].iter().enumerate() {
        let t = 10 + 100 * i as u64;
        h.push(r(2, "x", Some(&v.to_string()), t, t + 1));
    }
    assert!(check(&h).ok);
}

#[test]
fn a_ten_minute_history_is_decided() {
    let mut h = Synthetic::default().generate();
    let writes = h
        .iter()
        .filter(|o| !matches!(o.kind, OpKind::Read(_)))
        .count();
    assert_eq!(writes, 60_000);
    assert!(h.len() - writes > 30_000, "{}", h.len());
    let result = check(&h);
    assert_eq!(
        (result.ok, result.operations, result.keys),
        (true, h.len(), 100)
    );

    // A stale read: late in the run, a read returns the value its key held
    // before a write that finished before the read was sent.
    let stale = make_stale_read(&mut h).unwrap();
    let result = check(&h);
    assert!(!result.ok);
    assert_eq!(result.anomaly.as_ref().unwrap().key, *h[stale].key);
    assert!(named(&result).contains(&stale));
    assert_minimal(&h, &result);
}

#[test]
fn synthetic_histories_are_linearizable_on_every_seed_and_shape() {
    for seed in 0..20 {
        let shape = Synthetic {
            seed,
            duration_ms: 20_000,
            keys: 1 + seed % 4,
            max_latency_ms: 5 + 20 * seed,
            unknown_percent: 10,
            delete_percent: 20,
            slow_read_percent: 10,
            ..Synthetic::default()
        };
        let h = shape.generate();
        assert!(is_linearizable(&h), "{shape:?}");
    }
}

impl Operation {
    fn with_key(mut self, key: &str) -> Operation {
        self.key = Rc::from(key);
        self
    }
}

/// Brute force, for small histories: tries every order. `call: None` is
/// "any time", `ret: None` is "never answered" (may also have no effect).
// Only the property tests (native) use it.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy)]
struct Brute {
    call: Option<u64>,
    ret: Option<u64>,
    read: bool,
    value: u32,
}

// Only the property tests (native) use it.
#[cfg(not(target_arch = "wasm32"))]
fn brute_linearizable(ops: &[Brute]) -> bool {
    fn go(ops: &[Brute], placed: &mut [bool], state: u32) -> bool {
        if ops
            .iter()
            .zip(placed.iter())
            .all(|(o, &p)| p || o.ret.is_none())
        {
            return true;
        }
        for i in 0..ops.len() {
            let o = ops[i];
            let blocked = (0..ops.len()).any(|j| {
                !placed[j] && j != i && matches!((ops[j].ret, o.call), (Some(r), Some(c)) if r < c)
            });
            if placed[i] || blocked || (o.read && o.value != state) {
                continue;
            }
            placed[i] = true;
            if go(ops, placed, if o.read { state } else { o.value }) {
                return true;
            }
            placed[i] = false;
        }
        false
    }
    go(ops, &mut vec![false; ops.len()], 0)
}

/// The brute-force reading of "the operations at `chosen` contradict each
/// other whatever the other writes did".
#[cfg(not(target_arch = "wasm32"))]
fn brute_contradicts(history: &[Operation], chosen: &[usize]) -> bool {
    let value = |v: Option<&str>| v.map_or(0, |v| v.as_bytes()[0] as u32);
    let ops: Vec<Brute> = history
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            let kept = chosen.contains(&i);
            let (read, v) = match &o.kind {
                OpKind::Write(v) => (false, value(Some(v))),
                OpKind::Read(v) => (true, value(v.as_deref())),
                OpKind::Delete => (false, 0),
            };
            match (kept, read) {
                (true, _) => Some(Brute {
                    call: Some(o.invoke.ms),
                    ret: o.response.map(|r| r.ms),
                    read,
                    value: v,
                }),
                (false, true) => None,
                (false, false) => Some(Brute {
                    call: None,
                    ret: None,
                    read,
                    value: v,
                }),
            }
        })
        .collect();
    !brute_linearizable(&ops)
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::Index;

    /// A small history on one key: anything, linearizable or not.
    fn small_history() -> impl Strategy<Value = Vec<Operation>> {
        // Two values, so that most reads return one that was written.
        let op = (0u8..3, 0u8..3, 0u64..20, 0u64..8, 0u8..8);
        proptest::collection::vec(op, 1..=7).prop_map(|ops| {
            ops.into_iter()
                .enumerate()
                .map(|(i, (kind, v, invoke, len, pending))| {
                    let client = i as u64;
                    let value = ["a", "b", "a"][usize::from(v)];
                    let response = (pending > 0).then_some(invoke + len);
                    match (kind, v) {
                        (0, _) => Operation::write(client, "x", value, invoke, response),
                        (1, 2) => Operation::read(client, "x", None, invoke, response),
                        (1, _) => Operation::read(client, "x", Some(value), invoke, response),
                        _ => Operation::delete(client, "x", invoke, response),
                    }
                })
                .collect()
        })
    }

    /// One step of a register's run: which key, what, and how its interval
    /// spreads around the instant it takes effect.
    type Step = (u8, u8, u64, u64, u64, u8);

    /// A history of a real register per key: each operation takes effect at
    /// a distinct instant inside its interval; reads return what was there.
    fn from_register(steps: &[Step]) -> Vec<Operation> {
        let mut state: [Option<String>; 3] = Default::default();
        let mut instant = 0;
        let mut ops = Vec::new();
        for (i, &(key, what, gap, left, right, fate)) in steps.iter().enumerate() {
            instant += 1 + gap;
            let k = usize::from(key % 3);
            let name = format!("k{k}");
            let invoke = instant.saturating_sub(left);
            let response = Some(instant + right);
            let client = u64::from(what % 4);
            ops.push(match what {
                0..=1 => {
                    state[k] = None;
                    Operation::delete(client, &name, invoke, response)
                }
                2..=7 => {
                    // A few writes are never answered; of those, some never
                    // took effect either.
                    let v = format!("v{i}");
                    if fate != 1 {
                        state[k] = Some(v.clone());
                    }
                    let response = response.filter(|_| fate > 1);
                    Operation::write(client, &name, &v, invoke, response)
                }
                _ => Operation::read(client, &name, state[k].as_deref(), invoke, response),
            });
        }
        ops
    }

    fn register_steps() -> impl Strategy<Value = Vec<Step>> {
        proptest::collection::vec(
            (0u8..3, 0u8..14, 0u64..4, 0u64..15, 0u64..15, 0u8..12),
            1..80,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn agrees_with_brute_force(h in small_history()) {
            let result = check(&h);
            let all: Vec<usize> = (0..h.len()).collect();
            prop_assert_eq!(result.ok, !brute_contradicts(&h, &all));
            if let Some(anomaly) = &result.anomaly {
                let chosen: Vec<usize> = anomaly.operations.iter().map(|o| o.index).collect();
                prop_assert!(brute_contradicts(&h, &chosen), "{:?}", chosen);
                for drop in &chosen {
                    let rest: Vec<usize> = chosen.iter().copied().filter(|p| p != drop).collect();
                    prop_assert!(!brute_contradicts(&h, &rest), "{:?} without {}", chosen, drop);
                }
            }
        }

        #[test]
        fn a_real_register_is_linearizable(steps in register_steps()) {
            let h = from_register(&steps);
            prop_assert!(check(&h).ok);
        }

        #[test]
        fn a_read_of_a_value_never_written_is_flagged(steps in register_steps(), pick in any::<Index>()) {
            let mut h = from_register(&steps);
            let reads: Vec<usize> = (0..h.len()).filter(|&i| matches!(h[i].kind, OpKind::Read(_))).collect();
            prop_assume!(!reads.is_empty());
            let bad = reads[pick.index(reads.len())];
            h[bad].kind = OpKind::Read(Some(Rc::from("never written")));
            let result = check(&h);
            prop_assert!(!result.ok);
            prop_assert_eq!(named(&result), vec![bad]);
            prop_assert_eq!(&*result.anomaly.unwrap().key, &*h[bad].key);
        }
    }
}
