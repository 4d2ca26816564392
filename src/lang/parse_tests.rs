//! Tests of the scenario parser that are not data: error codes round-trip,
//! odd input never panics, and the render/parse round trip as properties.
//! Every message with its line and column, every command form and the
//! `cluster` defaults are data-driven: `tests/testdata/parse/`.

use crate::lang::ast::*;
use crate::lang::parse::*;

fn cmd(line: &str) -> Command {
    parse_command(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn the_default_cluster_is_the_bare_cluster_line() {
    let c = parse_script("cluster voters=1,2,3").unwrap().cluster;
    assert_eq!(c, ClusterSpec::new(vec![1, 2, 3]));
    // A byte-order mark at the start is ignored.
    assert!(parse_script("\u{feff}cluster voters=1").is_ok());
}

#[test]
fn error_codes_round_trip() {
    let names = [
        "bad-url",
        "id-exists",
        "id-removed",
        "peer-url-exists",
        "too-many-learners",
        "member-not-found",
        "member-not-learner",
        "member-not-voter",
        "learner-not-ready",
        "member-read-only",
        "not-enough-started-members",
        "unhealthy",
        "bad-leader-transferee",
        "not-supported-for-learner",
        "not-started",
        "server-stopped",
        "no-leader",
        "timeout",
        "expect-failed",
        "compacted",
        "future-rev",
        "empty-key",
        "no-message",
    ];
    assert_eq!(ErrorCode::ALL.map(|c| c.as_str()), names);
    for code in ErrorCode::ALL {
        assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
        assert_eq!(code.to_string(), code.as_str());
    }
    for role in RoleName::ALL {
        assert_eq!(role.as_str().parse::<RoleName>(), Ok(role));
    }
}

#[test]
fn a_match_share_is_a_whole_percentage_up_to_100() {
    let parsed = cmd("expect match 4>=90%");
    assert_eq!(
        format!("{parsed:?}"),
        "Expect(MatchShare { id: 4, bound: AtLeast, percent: 90 })"
    );
    assert_eq!(cmd("expect match 4<=5%").to_string(), "expect match 4<=5%");
    for bad in ["4>=101%", "4=90%", "4>=90", "4>=9.5%", "4>=-1%", "4"] {
        let e = parse_command(&format!("expect match {bad}")).unwrap_err();
        assert!(
            e.to_string()
                .contains("expected N>=P% or N<=P% like 4>=90%"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn never_panics_on_odd_input() {
    let long = "9".repeat(100_000);
    let inputs = [
        "\u{0}",
        "\"",
        "\\",
        "=",
        "==",
        "put =",
        "put k =\"",
        "put k x=\"",
        "put k v via=\"\"",
        "say \"\\",
        "expect role =",
        "expect role =\"x\"",
        "expect commit>=",
        "expect =",
        "cut ->",
        "cut ->->",
        "cut 1->->2",
        "partition ||,,",
        "partition |",
        "partition ,",
        "wait .s",
        "wait 1.5.5s",
        "wait ms",
        "wait é",
        "wait 1.ééé",
        "put k v size=.KB",
        "put k v size=1.KB",
        "cluster voters=1",
        "load rate=/s",
        "member add 1 --peer-url=\"é\"é",
        "say «ça» \"日本語 \u{1F600}\"",
        "\u{202E}crash 1",
        "put k v size=0.00000000000000000000000000000000000001GB",
        "put k v size=1.0000000000000000000000000000000000000000000000000KB",
        "wait 0.00000000000000000000000000000000000000000000000000000000s",
    ];
    for input in inputs {
        let _ = parse_command(input);
        let _ = parse_script(&format!("cluster voters=1\n{input}"));
        let _ = parse_script(input);
    }
    for input in [
        format!("wait {long}s"),
        format!("wait 1.{long}s"),
        format!("crash {long}"),
        format!("put k v size={long}B"),
        format!("put k v size=1.{long}B"),
        format!("cluster voters={long}"),
        format!("say \"{long}"),
        format!("expect commit>={long}"),
        format!("partition {long} | 1"),
        "x ".repeat(50_000),
    ] {
        let _ = parse_command(&input);
        let _ = parse_script(&input);
    }
    // A zero fraction is still a whole number.
    assert_eq!(
        cmd("wait 0.000000000000000000000000000000000000000000000s"),
        Command::Wait(0)
    );
    assert_eq!(
        parse_size("1.0000000000000000000000000000000000000000000000000KB"),
        Ok(1024)
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn id() -> impl Strategy<Value = NodeId> {
        1u64..=15
    }

    fn ids(min: usize) -> impl Strategy<Value = Vec<NodeId>> {
        proptest::sample::subsequence((1u64..=15).collect::<Vec<_>>(), min..=15).prop_shuffle()
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9/_.:-]{1,12}",
            any::<String>(),
            "[ \"\\\\#=a-z]{0,8}",
        ]
    }

    fn duration() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..5000,
            (0u64..100).prop_map(|s| s * 1000),
            0..=MAX_WAIT_MS
        ]
    }

    fn net() -> impl Strategy<Value = Command> {
        (
            proptest::option::of(prop_oneof![0u32..=1_000_000, Just(10_000u32)]),
            proptest::option::of((0u64..5000, 0u64..5000)),
            proptest::option::of(proptest::option::of(1..=MAX_SIZE_BYTES)),
        )
            .prop_filter("at least one option", |(l, t, b)| {
                l.is_some() || t.is_some() || b.is_some()
            })
            .prop_map(|(loss_ppm, latency, bandwidth)| Command::Net {
                loss_ppm,
                latency: latency.map(|(a, b)| (a.min(b), a.max(b))),
                bandwidth,
            })
    }

    fn size() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..5000,
            (0u64..=1024).prop_map(|k| k * 1024),
            0..=MAX_SIZE_BYTES
        ]
    }

    fn role() -> impl Strategy<Value = RoleName> {
        proptest::sample::select(RoleName::ALL.to_vec())
    }

    fn code() -> impl Strategy<Value = ErrorCode> {
        proptest::sample::select(ErrorCode::ALL.to_vec())
    }

    fn condition() -> impl Strategy<Value = Condition> {
        prop_oneof![
            Just(Condition::Leader),
            id().prop_map(Condition::LeaderIs),
            Just(Condition::NoLeader),
            id().prop_map(Condition::CaughtUp),
            Just(Condition::AllApplied),
            any::<u64>().prop_map(Condition::Quorum),
            ids(1).prop_map(Condition::Voters),
            ids(0).prop_map(Condition::Learners),
            ids(0).prop_map(Condition::VotersOutgoing),
            any::<u64>().prop_map(Condition::Term),
            any::<u64>().prop_map(Condition::TermAtLeast),
            any::<u64>().prop_map(Condition::CommitAtLeast),
            (id(), role()).prop_map(|(id, role)| Condition::Role { id, role }),
            (id(), proptest::sample::select(ProgressName::ALL.to_vec()))
                .prop_map(|(id, state)| Condition::Progress { id, state }),
            (id(), any::<bool>(), 0u64..=100).prop_map(|(id, least, percent)| {
                Condition::MatchShare {
                    id,
                    bound: if least { Bound::AtLeast } else { Bound::AtMost },
                    percent,
                }
            }),
            Just(Condition::Ok),
            code().prop_map(Condition::Error),
            text().prop_map(Condition::Value),
            Just(String::new()).prop_map(Condition::Value),
            Just(Condition::Absent),
            Just(Condition::Linearizable),
            Just(Condition::NotLinearizable),
            (proptest::option::of(id()), any::<bool>(), size()).prop_map(|(id, least, bytes)| {
                Condition::Queued {
                    id,
                    bound: if least { Bound::AtLeast } else { Bound::AtMost },
                    bytes,
                }
            }),
            (
                id(),
                any::<bool>(),
                proptest::sample::select(vec![Bound::AtLeast, Bound::AtMost, Bound::Exactly]),
                any::<u64>()
            )
                .prop_map(|(id, out, bound, count)| Condition::Messages {
                    id,
                    dir: if out { MsgDir::Out } else { MsgDir::In },
                    bound,
                    count,
                }),
            (1..=u64::MAX, 0u8..3, any::<u64>()).prop_map(|(watch, b, count)| {
                Condition::WatchEvents {
                    watch,
                    bound: [None, Some(Bound::AtLeast), Some(Bound::AtMost)][b as usize],
                    count,
                }
            }),
            (1..=u64::MAX).prop_map(Condition::WatchCanceled),
            (id(), proptest::sample::select(MirrorState::ALL.to_vec()))
                .prop_map(|(id, state)| Condition::Mirror { id, state }),
            (id(), code()).prop_map(|(id, code)| Condition::MirrorError { id, code }),
            (
                link(),
                any::<bool>(),
                proptest::sample::select(vec![Bound::AtLeast, Bound::AtMost, Bound::Exactly]),
                any::<u64>()
            )
                .prop_map(|((from, to, _), held, bound, count)| if held {
                    Condition::Held {
                        from,
                        to,
                        bound,
                        count,
                    }
                } else {
                    Condition::InFlight {
                        from,
                        to,
                        bound,
                        count,
                    }
                }),
        ]
    }

    /// `say` text: anything, its braces doubled, or words around placeholders.
    fn say_text() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>().prop_map(|s| s.replace('{', "{{").replace('}', "}}")),
            "[a-z {}]{0,6}".prop_map(|s| s.replace('{', "{{").replace('}', "}}")),
            "[a-z ]{0,6}\\{(leader|term|quorum|voters|learners|commit|value|error|time)\\}[a-z ]{0,6}",
        ]
    }

    /// Distinct ids dealt into the five lists, each list ascending.
    fn joint_change() -> impl Strategy<Value = JointChange> {
        (
            ids(1),
            proptest::collection::vec(0usize..5, 15),
            any::<bool>(),
        )
            .prop_map(|(all, slots, explicit_leave)| {
                let mut lists: [Vec<NodeId>; 5] = Default::default();
                for (id, slot) in all.into_iter().zip(slots) {
                    lists[slot].push(id);
                }
                for l in &mut lists {
                    l.sort_unstable();
                }
                let [add, add_learner, promote, demote, remove] = lists;
                JointChange {
                    add,
                    add_learner,
                    promote,
                    demote,
                    remove,
                    explicit_leave,
                }
            })
    }

    fn link() -> impl Strategy<Value = (NodeId, NodeId, bool)> {
        (id(), id(), any::<bool>()).prop_filter("two nodes", |(a, b, _)| a != b)
    }

    fn partition() -> impl Strategy<Value = Vec<Vec<NodeId>>> {
        ids(2).prop_flat_map(|all| {
            let n = all.len();
            proptest::collection::vec(any::<bool>(), n - 1).prop_map(move |cuts| {
                // Split `all` into groups at the chosen points; force one split.
                let mut groups = vec![vec![all[0]]];
                for (i, cut) in cuts.iter().enumerate() {
                    if *cut || (i == n - 2 && groups.len() == 1) {
                        groups.push(Vec::new());
                    }
                    groups.last_mut().unwrap().push(all[i + 1]);
                }
                groups
            })
        })
    }

    /// A client's `timeout=` and `require-leader`.
    fn client() -> impl Strategy<Value = (Option<u64>, bool)> {
        (proptest::option::of(duration()), any::<bool>())
    }

    fn command() -> impl Strategy<Value = Command> {
        prop_oneof![
            (id(), id(), id(), proptest::option::of(text())).prop_map(|(id, from, to, prefix)| {
                Command::MirrorStart {
                    id,
                    from,
                    to,
                    prefix,
                }
            }),
            id().prop_map(Command::MirrorStop),
            duration().prop_map(Command::Wait),
            (condition(), duration()).prop_map(|(cond, within_ms)| Command::WaitUntil {
                cond: Arc::new(cond),
                within_ms
            }),
            condition().prop_map(|c| Command::Expect(Arc::new(c))),
            proptest::option::of(id()).prop_map(|via| Command::Status { via }),
            say_text().prop_map(|text| Command::Say { text, ja: None }),
            Just(Command::Pause),
            (
                text(),
                text(),
                proptest::option::of(id()),
                proptest::option::of(size()),
                any::<bool>(),
                client()
            )
                .prop_map(
                    |(key, value, via, size, nowait, (timeout_ms, require_leader))| Command::Put {
                        key,
                        value,
                        via,
                        size,
                        nowait,
                        timeout_ms,
                        require_leader
                    }
                ),
            (
                text(),
                proptest::option::of(any::<u64>()),
                proptest::option::of(id()),
                any::<bool>(),
                client()
            )
                .prop_map(
                    |(key, rev, via, serializable, (timeout_ms, require_leader))| Command::Get {
                        key,
                        rev,
                        via,
                        serializable,
                        timeout_ms,
                        require_leader
                    }
                ),
            (text(), proptest::option::of(id()), client()).prop_map(
                |(key, via, (timeout_ms, require_leader))| Command::Delete {
                    key,
                    via,
                    timeout_ms,
                    require_leader
                }
            ),
            (
                text(),
                any::<bool>(),
                proptest::option::of(any::<u64>()),
                proptest::option::of(id())
            )
                .prop_map(|(key, prefix, from_rev, via)| Command::Watch {
                    key,
                    prefix,
                    from_rev,
                    via
                }),
            (any::<u64>(), proptest::option::of(id()), client()).prop_map(
                |(rev, via, (timeout_ms, require_leader))| Command::Compaction {
                    rev,
                    via,
                    timeout_ms,
                    require_leader
                }
            ),
            (
                1..=MAX_LOAD_RATE_PER_S,
                proptest::option::of(size()),
                proptest::option::of(id())
            )
                .prop_map(|(rate_per_s, size, via)| Command::LoadStart {
                    rate_per_s,
                    size,
                    via
                }),
            Just(Command::LoadStop),
            (
                id(),
                0u8..6,
                proptest::option::of(text()),
                proptest::option::of(id()),
                client()
            )
                .prop_map(|(id, how, peer_url, via, (timeout_ms, require_leader))| {
                    Command::MemberAdd {
                        id,
                        // Nothing, --learner, --voter, --standby (a learner),
                        // --read-only=weak or =strong (learners too).
                        learner: matches!(how, 1 | 3 | 4 | 5),
                        voter: how == 2,
                        standby: how == 3,
                        read_only: match how {
                            4 => Some(ReadMode::Weak),
                            5 => Some(ReadMode::Strong),
                            _ => None,
                        },
                        peer_url,
                        via,
                        timeout_ms,
                        require_leader,
                    }
                }),
            (joint_change(), proptest::option::of(id()), client()).prop_map(
                |(change, via, (timeout_ms, require_leader))| {
                    Command::MemberChange {
                        change,
                        via,
                        timeout_ms,
                        require_leader,
                    }
                }
            ),
            (proptest::option::of(id()), client()).prop_map(
                |(via, (timeout_ms, require_leader))| Command::MemberLeaveJoint {
                    via,
                    timeout_ms,
                    require_leader,
                }
            ),
            (id(), client()).prop_map(|(id, (timeout_ms, require_leader))| {
                Command::MemberPromote {
                    id,
                    timeout_ms,
                    require_leader,
                }
            }),
            (id(), client()).prop_map(|(id, (timeout_ms, require_leader))| {
                Command::MemberRemove {
                    id,
                    timeout_ms,
                    require_leader,
                }
            }),
            (any::<bool>(), proptest::option::of(id()), client()).prop_map(
                |(serializable, via, (timeout_ms, require_leader))| {
                    Command::MemberList {
                        serializable,
                        via,
                        timeout_ms,
                        require_leader,
                    }
                }
            ),
            id().prop_map(Command::Start),
            id().prop_map(Command::Crash),
            id().prop_map(Command::Campaign),
            id().prop_map(Command::TransferLeader),
            id().prop_map(Command::Compact),
            link().prop_map(|(a, b, one_way)| Command::Cut { a, b, one_way }),
            proptest::option::of(link()).prop_map(|link| Command::Heal { link }),
            partition().prop_map(Command::Partition),
            id().prop_map(Command::Isolate),
            net(),
            link().prop_map(|(a, b, one_way)| Command::Hold { a, b, one_way }),
            (
                proptest::option::of(link()),
                proptest::option::of(1..=u64::MAX)
            )
                .prop_map(|(link, count)| Command::Release { link, count }),
            (
                link(),
                proptest::option::of(proptest::sample::select(
                    crate::lang::messages::MESSAGE_KINDS
                        .iter()
                        .map(|(_, k)| *k)
                        .collect::<Vec<_>>()
                )),
                proptest::option::of(any::<u64>()),
                proptest::option::of(1..=u64::MAX)
            )
                .prop_map(|((from, to, _), kind, id, count)| Command::Drop {
                    from,
                    to,
                    kind,
                    id,
                    count,
                }),
            proptest::option::of(link()).prop_map(|l| Command::DeliverNext {
                link: l.map(|(a, b, _)| (a, b))
            }),
        ]
    }

    fn cluster_spec() -> impl Strategy<Value = ClusterSpec> {
        (
            ids(1),
            any::<u64>(),
            1u64..2000,
            0u64..=45_000,
            any::<(bool, bool, bool)>(),
            any::<(u64, u64, u64)>(),
            (0u64..500, 0u64..500),
            proptest::option::of(1..=MAX_SIZE_BYTES),
            (
                proptest::sample::select(Release::ALL.to_vec()),
                any::<bool>(),
            ),
            (
                any::<bool>(),
                proptest::option::of(1u8..=100),
                proptest::option::of(0u64..100_000),
                any::<bool>(),
            ),
        )
            .prop_map(
                |(
                    voters,
                    seed,
                    hb,
                    extra,
                    (pv, cq, sr),
                    (ml, sc, ce),
                    (l1, l2),
                    bw,
                    (etcd, st),
                    (nm, ap, fa, grow),
                )| {
                    let election_timeout_ms = (hb * 5 + extra).min(MAX_ELECTION_TIMEOUT_MS);
                    ClusterSpec {
                        voters,
                        seed,
                        heartbeat_ms: hb,
                        election_timeout_ms,
                        prevote: pv,
                        check_quorum: cq,
                        strict_reconfig: sr,
                        // Only v3.6 lets it be set.
                        max_learners: if etcd.max_learners_settable() { ml } else { 1 },
                        snapshot_count: sc.max(1),
                        catchup_entries: ce,
                        latency_min_ms: l1.min(l2),
                        latency_max_ms: l1.max(l2),
                        bandwidth: bw,
                        transport: if st {
                            Transport::Streams
                        } else {
                            Transport::Shared
                        },
                        etcd,
                        new_members: if nm {
                            NewMembers::Learner
                        } else {
                            NewMembers::Voter
                        },
                        auto_promote: ap,
                        // Named only at or above the election timeout.
                        failover_after_ms: fa.map_or(DEFAULT_FAILOVER_AFTER_MS, |extra| {
                            election_timeout_ms + extra
                        }),
                        failover: if grow {
                            Failover::Grow
                        } else {
                            Failover::Replace
                        },
                        name: None,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn render_then_parse_is_identity(c in command()) {
            let text = c.to_string();
            prop_assert_eq!(parse_command(&text), Ok(c), "{}", text);
        }

        #[test]
        fn cluster_render_then_parse_is_identity(spec in cluster_spec()) {
            let text = spec.to_string();
            let parsed = parse_script(&text).map(|s| s.cluster);
            prop_assert_eq!(parsed, Ok(spec), "{}", text);
        }

        #[test]
        fn parse_never_panics(s in any::<String>()) {
            let _ = parse_command(&s);
            let _ = parse_script(&s);
            let _ = parse_script(&format!("cluster voters=1\n{s}"));
        }

        #[test]
        fn parse_never_panics_on_language_soup(
            words in proptest::collection::vec(
                prop_oneof![
                    proptest::sample::select(COMMAND_NAMES.to_vec()).prop_map(String::from),
                    "[a-z0-9=,|.>\"\\\\#: -]{0,12}",
                    "[0-9]{1,30}(ms|s|B|KB|MB|GB|/s)?",
                    "(via|size|rate|within|--peer-url|voters|learners|role|commit>)=[0-9,.\"]{0,6}",
                ],
                0..8,
            )
        ) {
            let line = words.join(" ");
            let _ = parse_command(&line);
            let _ = parse_script(&format!("cluster {line}"));
        }

        #[test]
        fn errors_point_inside_or_just_past_the_line(s in "[a-z0-9=,|.>\"\\\\#: -]{0,40}") {
            if let Err(e) = parse_command(&s) {
                prop_assert!(e.column >= 1);
                prop_assert!(e.column <= s.chars().count() + 2, "{} {:?}", s, e);
            }
        }
    }
}
