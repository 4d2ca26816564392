//! What each `say` placeholder is filled with, in English (the report's
//! words, unchanged) and in Japanese (the renderer's: ノード before an id,
//! 「、」 between ids, a counter after a count, なし for none), one
//! placeholder at a time, with a value and without.

use raftlab::lang::say::{fill, Facts, Spoken};
use raftlab::words::language::Language;
use raftlab::words::text_ja::say_ja;

fn some() -> Facts {
    Facts {
        leader: Some(2),
        term: 3,
        quorum: 2,
        voters: vec![1, 2, 3],
        learners: vec![4],
        commit: 12,
        value: Some("v1".into()),
        error: Some("timeout"),
        time_ms: 4205,
    }
}

fn none() -> Facts {
    Facts {
        quorum: 1,
        voters: vec![1],
        ..Facts::default()
    }
}

/// Each placeholder: (text, English with facts, English without, Japanese
/// with, Japanese without).
const CASES: [(&str, &str, &str, &str, &str); 9] = [
    ("{leader}", "2", "none", "ノード2", "なし"),
    ("{term}", "3", "0", "3", "0"),
    ("{quorum}", "2", "1", "2つ", "1つ"),
    ("{voters}", "1, 2, 3", "1", "ノード1、2、3", "ノード1"),
    ("{learners}", "4", "none", "ノード4", "なし"),
    ("{commit}", "12", "0", "12", "0"),
    ("{value}", "v1", "none", "v1", "なし"),
    ("{error}", "timeout", "none", "timeout", "なし"),
    ("{time}", "4.21", "0.00", "4.21秒", "0.00秒"),
];

#[test]
fn every_placeholder_in_english_is_as_the_report_has_it() {
    for (text, with, without, _, _) in CASES {
        assert_eq!(fill(text, &some()), with, "{text}");
        assert_eq!(fill(text, &none()), without, "{text}");
    }
}

#[test]
fn every_placeholder_in_japanese_has_its_counter_its_node_and_its_none() {
    for (text, _, _, with, without) in CASES {
        assert_eq!(say_ja(text, &some()), with, "{text}");
        assert_eq!(say_ja(text, &none()), without, "{text}");
    }
}

#[test]
fn an_empty_list_is_none_in_both_languages() {
    let empty = Facts::default();
    assert_eq!(fill("{voters}/{learners}", &empty), "none/none");
    assert_eq!(say_ja("{voters}／{learners}", &empty), "なし／なし");
}

#[test]
fn a_japanese_line_reads_whole_and_braces_stay_literal() {
    let text = "{leader}が任期{term}のリーダーです。投票メンバー：{voters}。クォーラム：{quorum}。\
                学習者：{learners}。{{leader}}";
    assert_eq!(
        say_ja(text, &some()),
        "ノード2が任期3のリーダーです。投票メンバー：ノード1、2、3。クォーラム：2つ。\
         学習者：ノード4。{leader}"
    );
    assert_eq!(
        say_ja(text, &none()),
        "なしが任期0のリーダーです。投票メンバー：ノード1。クォーラム：1つ。\
         学習者：なし。{leader}"
    );
}

#[test]
fn each_language_says_its_own_line_and_the_report_keeps_the_english() {
    let spoken = Spoken {
        en: fill("Leader: {leader}. Quorum: {quorum}.", &some()),
        ja: Some("リーダー：{leader}。クォーラム：{quorum}。".into()),
        facts: some(),
    };
    assert_eq!(Language::English.said(&spoken), "Leader: 2. Quorum: 2.");
    assert_eq!(
        Language::Japanese.said(&spoken),
        "リーダー：ノード2。クォーラム：2つ。"
    );
    // The report's JSON has the English words and the line as written,
    // never the facts.
    let json = serde_json::to_string(&spoken).unwrap();
    assert_eq!(
        json,
        r#"{"en":"Leader: 2. Quorum: 2.","ja":"リーダー：{leader}。クォーラム：{quorum}。"}"#
    );
    // Without a Japanese line, both languages say the English.
    let english = Spoken::en("Leader: 2.");
    assert_eq!(Language::Japanese.said(&english), "Leader: 2.");
}
