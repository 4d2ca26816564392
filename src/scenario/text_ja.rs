//! The Japanese renderer: every sentence of [`Renderer`] in 日本語, made
//! from the same structured events and results as the English ones (never
//! by translating English text). The vocabulary is the design document's
//! (学習者メンバー, 投票メンバー, 昇格, クォーラム, リーダー選挙...); the
//! glossary is `docs/glossary-ja.md`.
//!
//! As in English, etcd's own error texts ("etcdserver: ..."), Raft's message
//! names ("MsgApp"), error codes, progress states and commands are quoted as
//! they are written. A server error's detail, a failed expectation and a
//! refused link are said from their facts (`ErrorDetail`, `Unmet`,
//! `ShareProblem`) after the code's Japanese explanation; only etcd's (and
//! Go's) own texts inside them stay in English.

use super::fixed::Fixed;
use crate::raft::joined::Joined;
use crate::raft::{ConfChangeType, ConfChangeV2, NodeId, RaftEvent};
use crate::server::cluster::DEADLINE_EXCEEDED;
use crate::server::{ErrorCode, ErrorDetail, ServerError, UrlProblem, Waited};
use crate::sim::{DropReason, Event, EventKind, KeyRead, MirrorEvent, ModeDecision, NotYet};

use super::ast::{format_duration, format_quoted, MAX_NODE_ID, MIN_NODE_ID};
use super::cond::{SetName, Unmet};
use super::etcdctl::{self, EtcdctlError};
use super::narrate::{CampaignFold, Refusal, Renderer};
use super::parse::{ParseError, ParseErrorKind, COMMAND_NAMES};
use super::parse_error::{Form, Least, Named, SayProblem, CONDITION_FORMS};
use super::report::{CommandResult, Failure};
use super::share::{ShareError, ShareProblem, Source, LINK_VERSION};
use super::slice::{mib, Stop};
use super::text_en::json_string;
use super::view::{
    FailoverView, HistoryVerdict, LearnerKind, LogMark, NodeState, ProgressView, QuorumView,
    ViolationView,
};
use crate::sim::linearizability::{ClientId, OpName};

/// A server's refusal or failure in Japanese, from its facts. etcd's own
/// text (and Go's, for a URL) is quoted as written, after raftlab's words.
pub fn server_detail(e: &ServerError) -> String {
    use ErrorDetail::*;
    let etcd = e.code.etcd_text();
    match &e.why {
        EtcdText => format!("etcd のエラー: {etcd}"),
        Membership(m) => format!(
            "適用時にメンバーシップの検査が変更を拒否した: {}",
            m.etcd_text()
        ),
        NoLeaderKnown { via } => format!("メンバー {via} はリーダーを知らない: {etcd}"),
        NoMemberRunning => format!("動いているメンバーがいない: {etcd}"),
        ProposalDropped { why } => format!(
            "Raft が提案を破棄した（{}）: {etcd}",
            reason(why.reason())
        ),
        Unexpected { outcome } => {
            format!("要求が想定外の結果 {outcome} で終わった（raftlab の不具合）")
        }
        Removed { id } => {
            format!("メンバー {id} はクラスターから削除され、プロセスは停止している")
        }
        RemovedCannotReturn { id } => {
            format!("メンバー {id} はクラスターから削除済みで、戻ることはできない")
        }
        RemovedForGood { id } => {
            format!("メンバー {id} は削除済みで、プロセスは完全に停止している")
        }
        NotRunning { id } => format!("メンバー {id} のプロセスは動いていない"),
        NodeDown { id } => format!("ノード {id} のプロセスは動いていない"),
        AlreadyRunning { id } => format!("ノード {id} のプロセスはすでに動いている"),
        NotAMember { id } => {
            format!("ノード {id} はメンバーではない: 先に `member add {id}` で追加する")
        }
        NoSuchNode { id } => format!("ノード {id} は存在しない"),
        LearnerRpc { via } => format!("メンバー {via} は学習者メンバー: {etcd}"),
        NotTracked { leader, id } => format!(
            "リーダー {leader} はメンバー {id} の進捗を追跡していない: {etcd}"
        ),
        ReadOnlyLearner { id, mode } => format!(
            "メンバー {id} は読み取り専用（{mode}）の学習者メンバーで、昇格しない"
        ),
        LearnerNotReady {
            id,
            learner_match,
            leader_match,
            percent,
        } => format!(
            "学習者メンバー {id} の match {learner_match} はリーダーの match {leader_match} の \
             {percent}% に届かない"
        ),
        NotEnoughStarted {
            started,
            quorum,
            voters,
            others,
        } => format!(
            "起動済みの投票メンバー{} {started} では、投票メンバー {voters} のクォーラム \
             {quorum} に足りない: {etcd}",
            if *others { "（削除するものを除く）" } else { "" }
        ),
        UnhealthyNotAll {
            connected,
            voters,
            release,
        } => format!(
            "5 秒以上接続している投票メンバーは {voters} のうち {connected}。etcd {release} は\
             すべての投票メンバーとの接続を求める: {etcd}"
        ),
        UnhealthyAdd {
            connected,
            quorum,
            members,
        } => format!(
            "5 秒以上接続している投票メンバーは {connected} で、追加後の {members} メンバーの\
             クォーラム {quorum} に足りない: {etcd}"
        ),
        UnhealthyRemove {
            connected,
            voters,
            remain,
            quorum,
            after,
        } => format!(
            "5 秒以上接続している投票メンバーは {voters} のうち {connected}。削除後に残るのは \
             {remain} で、投票メンバー {after} のクォーラム {quorum} に足りない: {etcd}"
        ),
        BadPeerUrl { url, problem } => {
            let why = match problem {
                UrlProblem::Parse { input, go_error } => {
                    format!("Go の url.Parse が {input:?} を拒否: {go_error}")
                }
                UrlProblem::Rule { input, rule } => {
                    format!("etcd の URL の規則に反する: {rule}: {input}")
                }
            };
            format!("ピアURL {url:?} は無効（{why}）: {etcd}")
        }
        PeerListener {
            id,
            peer_url,
            go_error,
        } => format!(
            "ホスト n{id} のメンバー {id} のプロセスはピアURL {peer_url} で待ち受けできない。\
             etcd は起動時に \"creating peer listener failed\" で終了する: {go_error}"
        ),
        BadTransferee { to, learner: false } => {
            format!("メンバー {to} はクラスターにいない: {etcd}")
        }
        BadTransferee { to, learner: true } => {
            format!("メンバー {to} は学習者メンバー: {etcd}")
        }
        Deadline {
            waited,
            raft_refused,
        } => {
            let what = match waited {
                Waited::Transfer { to } => {
                    format!("リーダーシップが期限内に {to} に移らなかった")
                }
                Waited::NoLeaderAt { via } => format!(
                    "{DEADLINE_EXCEEDED}: メンバー {via} は要求を送る先のリーダーを知らなかった"
                ),
                Waited::NoMember => {
                    format!("{DEADLINE_EXCEEDED}: 要求を受け取るメンバーが動いていなかった")
                }
                Waited::ClientDeadline => {
                    format!("クライアントの期限切れ: {DEADLINE_EXCEEDED}")
                }
                Waited::ServerTimeout => format!(
                    "サーバーの要求タイムアウト: {}",
                    ErrorCode::Timeout.etcd_text()
                ),
            };
            match raft_refused {
                Some(r) => format!("{what}（Raft が変更を拒否: {}）", reason(r)),
                None => what,
            }
        }
        WatchCanceled {
            watch,
            compact_revision,
        } => format!(
            "ウォッチ {watch} がキャンセルされた: {etcd}（コンパクションのリビジョン {compact_revision}）"
        ),
        IdInCluster { id, cluster } => format!("ID {id} はすでにクラスタ {cluster} のノード"),
        MirrorExists { id } => format!("ID {id} はすでにミラープロセス"),
        ClusterNameTaken { name } => format!("{name} という名前のクラスタはすでにある"),
        MirrorSameCluster { from, to, cluster } => format!(
            "{from} と {to} はどちらもクラスタ {cluster} にある。ミラーは別のクラスタへ写す"
        ),
        NoSuchMirror { id } => format!("ミラープロセス {id} は存在しない"),
        NoLinkAcross { a, b } => format!(
            "{a} と {b} をつなぐリンクはない: 別々のクラスタにあるか、一方がミラープロセスで、それが読み書きする2つのメンバーにしかつながっていない"
        ),
    }
}

/// A node's role as a condition names it, in Japanese.
fn role_name(role: &str) -> String {
    match role {
        "leader" => "リーダー".to_string(),
        "follower" => "フォロワー".to_string(),
        "candidate" => "候補者".to_string(),
        "pre-candidate" => "事前候補者".to_string(),
        "down" => "停止中".to_string(),
        other => other.to_string(),
    }
}

/// What was true instead of a condition, in Japanese.
pub fn unmet(u: &Unmet) -> String {
    match u {
        Unmet::NoLeader => "リーダーがいない".to_string(),
        Unmet::LeaderIs(l) => format!("リーダーは {l}"),
        Unmet::Match { id, matched, last } => {
            format!("リーダーから見た {id} の match は {last} 件中 {matched}")
        }
        Unmet::NotTracked(id) => format!("リーダーが {id} の進捗を追跡していない"),
        Unmet::NotApplied { commit, behind } => {
            let each: Vec<String> = behind
                .iter()
                .map(|(id, applied)| format!("{id} は {applied} まで適用"))
                .collect();
            format!("リーダーのコミットは {commit} だが、{}", each.joined("、"))
        }
        Unmet::Quorum(q) => format!("クォーラムは {q}"),
        Unmet::Set { set, actual } => {
            let what = match set {
                SetName::Voters => "投票メンバー",
                SetName::Learners => "学習者メンバー",
                SetName::OutgoingVoters => "旧構成の投票メンバー",
            };
            let ids: Vec<String> = actual.iter().map(|id| id.to_string()).collect();
            format!("{what}は [{}]", ids.joined(","))
        }
        Unmet::Term(t) => format!("任期は {t}"),
        Unmet::Commit(c) => format!("リーダーのコミットインデックスは {c}"),
        Unmet::Role { id, actual } => format!("ノード {id} は{}", role_name(actual)),
        Unmet::Progress { id, actual } => format!("リーダーから見た {id} の進捗は {actual}"),
        Unmet::NoPrevious => "直前のコマンドがない".to_string(),
        Unmet::PreviousFailed(code) => format!("直前のコマンドは {code} で失敗した"),
        Unmet::PreviousSucceeded => "直前のコマンドは成功した".to_string(),
        Unmet::PreviousNotGet => "直前のコマンドは get ではない".to_string(),
        Unmet::PreviousRead(Some(v)) => {
            format!("直前の get が読んだ値は {}", format_quoted(v))
        }
        Unmet::PreviousRead(None) => "直前の get ではキーが見つからなかった".to_string(),
        Unmet::Anomaly(None) => "履歴は線形化可能ではない".to_string(),
        Unmet::Anomaly(Some(a)) => {
            let ops: Vec<String> = a
                .operations
                .iter()
                .map(|op| {
                    let what = match (op.kind, &op.value) {
                        (OpName::Write, Some(v)) => format!("書き込み {}", format_quoted(v)),
                        (OpName::Read, Some(v)) => format!("読み取り {}", format_quoted(v)),
                        (OpName::Read, None) => "読み取り（キーなし）".to_string(),
                        (OpName::Write, None) | (OpName::Delete, _) => "削除".to_string(),
                    };
                    let end = op.response_ms.map_or("応答なし".to_string(), |r| {
                        format!("{} 秒", Fixed(r as f64 / 1000.0, 2))
                    });
                    format!("{what}（{}–{end}）", Fixed(op.invoke_ms as f64 / 1000.0, 2))
                })
                .collect();
            format!(
                "キー {} の操作をどの順序でも説明できない: {}",
                format_quoted(&a.key),
                ops.joined("、")
            )
        }
        Unmet::Linearizable { operations, keys } => {
            format!("{keys} 個のキーに対する {operations} 件の操作の履歴は線形化可能")
        }
        Unmet::NoWatch(w) => format!("ウォッチ {w} は存在しない"),
        Unmet::Mirror { id, actual: None } => format!("ミラープロセス {id} は存在しない"),
        Unmet::MirrorError { id, code: None } => format!("ミラー {id} は失敗していない"),
        Unmet::MirrorError {
            id,
            code: Some(code),
        } => format!("ミラー {id} は {code} で失敗した"),
        Unmet::Mirror {
            id,
            actual: Some(state),
        } => format!("ミラー {id} は {state}"),
        Unmet::WatchEvents { watch, events } => {
            format!("ウォッチ {watch} が受け取ったイベントは {events} 件")
        }
        Unmet::WatchOpen { watch, events } => {
            format!("ウォッチ {watch} はまだ開いている（イベント {events} 件を受信）")
        }
        Unmet::Queued {
            node,
            named,
            queued,
        } => {
            let whose = if *named {
                format!("ノード {node}")
            } else {
                format!("リーダー（{node}）")
            };
            format!("{whose}の送信キューには {queued} バイトある")
        }
        Unmet::Messages { id, out, count } => {
            let verb = if *out { "送信" } else { "受信" };
            format!("直前のコマンドの間にノード {id} が{verb}したメッセージは {count} 件")
        }
    }
}

/// Why a command failed, in Japanese.
pub fn failure_detail(f: &Failure) -> String {
    match f {
        Failure::Server(e) => server_detail(e),
        Failure::Expect { cond, unmet: u } => {
            format!("{cond} を期待したが、{}", unmet(u))
        }
        Failure::WaitUntil {
            cond,
            within_ms,
            unmet: u,
        } => format!(
            "{cond} が {} 以内に成り立たなかった: {}",
            format_duration(*within_ms),
            unmet(u)
        ),
        Failure::Stopped(stop) => Japanese.stopped(stop),
    }
}

/// A failed command's detail in Japanese: from its facts when it has
/// them, else the words it carries.
fn result_detail(r: &CommandResult) -> Option<String> {
    match &r.failure {
        Some(f) => Some(failure_detail(f)),
        None => r.detail.clone(),
    }
}

/// Why a link or a file does not open, in Japanese.
pub fn share_problem(p: &ShareProblem) -> String {
    use ShareProblem::*;
    let source = |s: &Source| match s {
        Source::File => "ファイル",
        Source::Link => "リンク",
    };
    match p {
        Script { source: s, error } => format!(
            "{}のスクリプトを解釈できない: {} 行目 {} 文字目: {}",
            source(s),
            error.line,
            error.column,
            parse_error(&error.kind)
        ),
        TooLongRun {
            source: s,
            bound,
            limit,
        } => format!(
            "{}の実行は長すぎて開けない: コマンドがシミュレーション時間を最大 {bound} 進めうるが、\
             上限は {limit}",
            source(s)
        ),
        Moment { line, why } => format!(
            "{line} 行目: 時点の行は「# at: 12340ms」の形で書くこと: {}",
            parse_error(why)
        ),
        LinkTooLong { chars, max } => format!(
            "リンクの長さ {chars} 文字は、raftlab のリンクの上限 {max} 文字を超えている"
        ),
        NotALink { found } => format!(
            "raftlab のリンクではない: リンクのフラグメントは「#v{LINK_VERSION}.」で始まるが、\
             {found} がある"
        ),
        Version { version } => format!(
            "このリンクは形式 v{version} で、この raftlab には読めない（読めるのは \
             v{LINK_VERSION} のリンク）"
        ),
        TruncatedBytes { bytes } => format!(
            "リンクが途中で切れている: ペイロードが {bytes} バイトしかなく、スクリプトと\
             チェックサムには足りない"
        ),
        Checksum { expected, actual } => format!(
            "リンクが壊れているか編集されている: チェックサムは {expected:08x} だが、内容の合計は \
             {actual:08x}（貼り付けで途中が切れたリンクもこうなる）"
        ),
        EscapeAtEnd => "リンクのスクリプトがエスケープの途中で終わっている".to_string(),
        NotUtf8 { at } => {
            format!("リンクのスクリプトがテキストではない: {at} バイト目から不正な UTF-8")
        }
        NotBase64 { c, at } => format!(
            "リンクのペイロードが base64url ではない: {at} 文字目に {c:?}（「#v{LINK_VERSION}.」の後に\
             使えるのは英字、数字、「-」、「_」だけ）"
        ),
        TruncatedChars { chars } => format!(
            "リンクが途中で切れている: ペイロードの長さ {chars} 文字は base64url ではありえない"
        ),
        NotCanonical => "リンクのペイロードが正規の base64url ではない: 最後の文字に\
                         どのバイトにも属さないビットがある（リンクが編集された）"
            .to_string(),
    }
}

/// raftlab in 日本語.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Japanese;

/// "1、2、3".
fn list(ids: &[NodeId]) -> String {
    ids.iter()
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .joined("、")
}

/// "2.31 秒": a moment in running text.
pub fn seconds(ms: u64) -> String {
    format!("{} 秒", Fixed(ms as f64 / 1000.0, 2))
}

/// "2.0 秒": a duration in a mode's sentence.
fn span(ms: u64) -> String {
    format!("{} 秒", Fixed(ms as f64 / 1000.0, 1))
}

/// A reason a Raft node gives (etcd-raft's words), in Japanese; an unknown
/// one is quoted as it is.
fn reason(r: &str) -> String {
    match r {
        "lease" => "リーダーのリースが有効な間は投票しない".to_string(),
        "already voted" => "この任期ではすでに投票済み".to_string(),
        "leader known" => "リーダーを知っている".to_string(),
        "log not up to date" => "候補者のログが最新ではない".to_string(),
        "learner" => "学習者メンバーである".to_string(),
        "no leader" => "リーダーがいない".to_string(),
        "already leader" => "すでにリーダーである".to_string(),
        "pending configuration changes to apply" => "未適用の構成変更がある".to_string(),
        "not a follower" => "フォロワーではない".to_string(),
        "unknown member" => "メンバーではない".to_string(),
        "transfer already in progress" => "同じ移譲がすでに進行中".to_string(),
        "leadership transfer in progress" => "リーダーシップの移譲中".to_string(),
        "leader not in the configuration" => "リーダーが構成に含まれていない".to_string(),
        "must transition out of joint config first" => {
            "先に共同構成から抜ける必要がある".to_string()
        }
        "config is already joint" => "すでに共同構成にある".to_string(),
        "can't make a zero-voter config joint" => {
            "投票メンバーのいない構成は共同構成にできない".to_string()
        }
        "can't leave a non-joint config" => "共同構成ではないので抜けられない".to_string(),
        "can't apply simple config change in joint config" => {
            "共同構成の間は単純な構成変更を適用できない".to_string()
        }
        "more than one voter changed without entering joint config" => {
            "共同構成に入らずに複数の投票メンバーを変更した".to_string()
        }
        "removed all voters" => "すべての投票メンバーを削除した".to_string(),
        other => format!("「{other}」"),
    }
}

/// Why a learner is not promoted yet.
fn not_yet_text(reason: &NotYet) -> String {
    match reason {
        NotYet::Behind {
            matched,
            last,
            percent_now,
            percent,
        } => format!("{percent_now}% < {percent}%（{last} 件中 match {matched}）"),
        NotYet::NotHeard { silent_ms: None } => {
            "リーダーはまだ一度も応答を受け取っていない".to_string()
        }
        NotYet::NotHeard {
            silent_ms: Some(ms),
        } => format!(
            "リーダーは {} 応答を受け取っていない（選挙タイムアウトより長い）",
            span(*ms)
        ),
        NotYet::Snapshot => "リーダーがまだスナップショットを送信中".to_string(),
        NotYet::Strict(e) => format!(
            "厳格な再構成チェックが拒否: {}",
            e.get::<ServerError>()
                .map(server_detail)
                .unwrap_or_default()
        ),
        NotYet::NotTracked => "リーダーが進捗を追跡していない".to_string(),
        NotYet::NoStandby => "待機用の学習者メンバーがいない".to_string(),
    }
}

/// A decision of the server's modes (the design document's proposals).
fn mirror_sentence(m: &MirrorEvent) -> String {
    match *m {
        MirrorEvent::Started { mirror, from, to } => format!(
            "ミラー {mirror} が開始: メンバー {from} のクラスタをメンバー {to} のクラスタへ写す"
        ),
        MirrorEvent::Synced {
            mirror,
            revision,
            keys,
        } => format!(
            "ミラー {mirror} がリビジョン {revision} 時点の {keys} 個のキーを写し終えた。リビジョン {} からウォッチする",
            revision + 1
        ),
        MirrorEvent::Relayed {
            mirror,
            count,
            revision,
        } => format!(
            "ミラー {mirror} が {count} 件の書き込みを中継した（ソースのリビジョン {revision} まで）"
        ),
        MirrorEvent::Paused {
            mirror,
            peer,
            revision,
        } => format!(
            "ミラー {mirror} は {peer} 経由のウォッチを失い一時停止した（受け取ったのはリビジョン {revision} まで）"
        ),
        MirrorEvent::Resumed { mirror, revision } => {
            format!("ミラー {mirror} がリビジョン {revision} から再びウォッチする")
        }
        MirrorEvent::Failed { mirror, error, .. } => {
            format!("ミラー {mirror} が失敗して終了した: {error}")
        }
        MirrorEvent::Stopped { mirror } => format!("ミラー {mirror} が停止した"),
    }
}

fn mode_sentence(leader: NodeId, d: &ModeDecision) -> String {
    match d {
        ModeDecision::Promote {
            learner,
            matched,
            last,
            percent,
        } => format!(
            "リーダー {leader} が学習者メンバー {learner} を昇格: {last} 件中 match {matched} ≥ {percent}%"
        ),
        ModeDecision::NotYet { learner, reason } => format!(
            "リーダー {leader} は学習者メンバー {learner} をまだ昇格しない: {}",
            not_yet_text(reason)
        ),
        ModeDecision::FailoverCountdown {
            voter,
            silent_ms,
            left_ms,
        } => format!(
            "リーダー {leader} は投票メンバー {voter} から {} 応答がない: 応答がなければ {} 後に待機ノードへフェイルオーバー",
            span(*silent_ms),
            span(*left_ms)
        ),
        ModeDecision::FailoverCancelled { voter } => format!(
            "リーダー {leader} に投票メンバー {voter} から再び応答: フェイルオーバーしない"
        ),
        ModeDecision::FailoverRemove {
            voter,
            standby,
            silent_ms,
        } => format!(
            "リーダー {leader} がフェイルオーバー: 投票メンバー {voter} が {} 無応答。先に {voter} を削除し、次に待機ノード {standby} を昇格する",
            span(*silent_ms)
        ),
        ModeDecision::FailoverPromote {
            standby,
            voter,
            grow: false,
        } => format!(
            "リーダー {leader} が待機ノード {standby} を昇格し、投票メンバー {voter} と置き換える"
        ),
        ModeDecision::FailoverPromote {
            standby,
            voter,
            grow: true,
        } => format!(
            "リーダー {leader} がフェイルオーバー: 無応答の投票メンバー {voter} を残したまま待機ノード {standby} を昇格（failover=grow）"
        ),
        ModeDecision::FailoverBlocked {
            voter,
            standby: Some(s),
            reason,
        } => format!(
            "リーダー {leader} は投票メンバー {voter} をまだフェイルオーバーできない: 待機ノード {s} はまだ: {}",
            not_yet_text(reason)
        ),
        ModeDecision::FailoverBlocked {
            voter,
            standby: None,
            reason,
        } => format!(
            "リーダー {leader} は投票メンバー {voter} をフェイルオーバーできない: {}",
            not_yet_text(reason)
        ),
    }
}

fn single_text(change_type: ConfChangeType, id: NodeId) -> String {
    match change_type {
        ConfChangeType::AddNode => format!("投票メンバー {id} の追加"),
        ConfChangeType::AddLearnerNode => format!("学習者メンバー {id} の追加"),
        ConfChangeType::RemoveNode => format!("メンバー {id} の削除"),
        ConfChangeType::UpdateNode => format!("メンバー {id} の更新"),
    }
}

fn joint_text(c: &ConfChangeV2) -> String {
    if c.leave_joint() {
        return "共同構成から抜ける".to_string();
    }
    let changes: Vec<String> = c
        .changes
        .iter()
        .map(|s| single_text(s.change_type, s.node_id))
        .collect();
    match c.enter_joint() {
        Some(_) => format!("共同構成に入る: {}", changes.joined("、")),
        None => changes.joined("、"),
    }
}

fn drop_reason(r: DropReason) -> &'static str {
    match r {
        DropReason::LinkCut => "リンクが切断されている",
        DropReason::NodeDown => "受信側が停止している",
        DropReason::NoRoute => "ピアURLが存在しないホストを指している",
        DropReason::SenderRemoved => "送信側はクラスターから削除された",
        DropReason::Lost => "ネットワークで失われた",
    }
}

fn vote(pre_vote: bool) -> &'static str {
    if pre_vote {
        "事前投票"
    } else {
        "投票"
    }
}

fn raft_sentence(node: NodeId, event: &RaftEvent) -> String {
    use RaftEvent::*;
    match event {
        BecameFollower { term, leader } if *leader != 0 => {
            format!("ノード {node} が任期 {term} でリーダー {leader} のフォロワーになった")
        }
        BecameFollower { term, .. } => format!("ノード {node} が任期 {term} でフォロワーになった"),
        BecamePreCandidate { term } => format!(
            "ノード {node} が事前候補者になり、任期 {} の事前投票を求める",
            term + 1
        ),
        BecameCandidate { term } => format!("ノード {node} が任期 {term} の候補者になった"),
        BecameLeader { term, votes } => format!(
            "ノード {node} が {} の票を得て任期 {term} のリーダーになった",
            list(votes)
        ),
        VoteGranted {
            candidate,
            term,
            pre_vote,
        } => format!(
            "ノード {node} が任期 {term} の{}を {candidate} に与えた",
            vote(*pre_vote)
        ),
        VoteRejected {
            candidate,
            term,
            pre_vote,
            reason: r,
        } => format!(
            "ノード {node} が {candidate} の任期 {term} の{}を拒否: {}",
            vote(*pre_vote),
            reason(r)
        ),
        StepDownNoQuorum { term } => format!(
            "ノード {node} が任期 {term} でリーダーを降りた: 投票メンバーのクォーラムに届かない（check-quorum）"
        ),
        Committed { index } => format!("ノード {node} がインデックス {index} までコミットした"),
        SnapshotSent { to, index } => {
            format!("ノード {node} がインデックス {index} のスナップショットを {to} に送った")
        }
        SnapshotRestored { index } => {
            format!("ノード {node} がインデックス {index} のスナップショットを取り込んだ")
        }
        ConfChangeRefused { reason: r, .. } => {
            format!("ノード {node} がメンバーシップの変更を拒否: {}", reason(r))
        }
        ProposalDropped { reason: r } => {
            format!("ノード {node} が提案を破棄: {}", reason(r))
        }
        TransferStarted { to } => format!("ノード {node} がリーダーシップを {to} に移譲中"),
        TransferIgnored { to, reason: r } => format!(
            "ノード {node} が {to} へのリーダーシップ移譲を無視: {}",
            reason(r)
        ),
        TransferAborted { to } => {
            format!("ノード {node} が {to} へのリーダーシップ移譲をあきらめた")
        }
        IgnoredTimeoutNow { reason: r } => {
            format!("ノード {node} が MsgTimeoutNow を無視: {}", reason(r))
        }
        CampaignIgnored { reason: r } => {
            format!("ノード {node} は選挙に立候補しない: {}", reason(r))
        }
        ForgetLeaderIgnored => {
            format!("ノード {node} が ForgetLeader を無視: 読み取りがリースに依存している")
        }
        AutoLeaveProposed => format!("ノード {node} が共同構成から抜けることを提案した"),
    }
}

/// A word the parser found missing, in Japanese; forms such as `N=K` are
/// written as they are typed.
pub fn missing_ja(what: &str) -> String {
    match what {
        "node id" => "ノードID".to_string(),
        "quoted text" => "引用符で囲んだテキスト".to_string(),
        "duration" => "時間（250ms、2s など）".to_string(),
        "a key" => "キー".to_string(),
        "a value" => "値".to_string(),
        "a condition" => "条件".to_string(),
        "a number" => "数".to_string(),
        "a revision" => "リビジョン".to_string(),
        "an error code" => "エラーコード".to_string(),
        "a size" => "サイズ（512B、4KB、1MB など）".to_string(),
        "state" => "状態".to_string(),
        "a member subcommand (add, promote, remove, list, change or leave-joint)" => {
            "member のサブコマンド（add, promote, remove, list, change, leave-joint）".to_string()
        }
        form => format!("「{form}」"),
    }
}

/// Why a line does not parse, in Japanese, from the parser's
/// [`ParseErrorKind`]. Words quoted from the input, commands, options and
/// the lists of forms are shown as they are typed.
pub fn parse_error(kind: &ParseErrorKind) -> String {
    use ParseErrorKind::*;
    match kind {
        QuoteInsideWord { word } => {
            format!("単語 {word} の途中に引用符がある。単語全体を引用符で囲むこと")
        }
        UnknownEscape { escape } => format!(
            "引用符内のテキストに未知のエスケープ {escape} がある。使えるのは \\\" と \\\\ だけ"
        ),
        Unterminated => "引用符が閉じていない".to_string(),
        SpaceAfterQuote { found } => {
            format!("閉じ引用符の後には空白が必要だが、{found} がある")
        }
        ClusterFirst { found } => format!(
            "最初の行は「cluster voters=1,2,3」のような cluster 行でなければならないが、{found} がある"
        ),
        SecondCluster => {
            "2つ目の cluster 行は別のクラスタを加えるもので、name=NAME が要る（最初のクラスタの名前は main）"
                .to_string()
        }
        SecondSayJa => "同じ say 行に2つ目の say-ja がある".to_string(),
        SayJaAlone => "say-ja は翻訳する say 行の直後に置くこと".to_string(),
        EmptyScript => {
            "スクリプトが空。「cluster voters=1,2,3」のような行で始めること".to_string()
        }
        NoCommand => format!(
            "コマンドがない。コマンドは: {}",
            COMMAND_NAMES.joined(", ")
        ),
        ClusterNotCommand => {
            "name= のない cluster はスクリプトの最初の行にしか書けない。\"cluster voters=... name=NAME\" で別のクラスタを加えられる"
                .to_string()
        }
        BadClusterName { found } => format!(
            "クラスタ名 {found} は使えない: 英字・数字・'-' を1〜20文字。最初のクラスタの名前は main"
        ),
        QuotedCommand { found } => {
            format!("コマンドがあるべき所に引用符で囲んだテキスト {found} がある")
        }
        UnknownCommand { found } => format!(
            "未知のコマンド {found}。使えるコマンドは: {}",
            COMMAND_NAMES.joined(", ")
        ),
        Missing { what, after } => format!("{after} の後に{}がない", missing_ja(what)),
        TextIsOption { what, after, found } => {
            let what = missing_ja(what);
            format!(
                "{after} の後には{what}が必要だが、オプション {found} がある。\
                 「=」を含む{what}は引用符で囲むこと"
            )
        }
        ExtraWord { word, after } => format!("{after} の後に余分な単語 {word} がある"),
        ExtraSayWord { word, after } => format!(
            "{after} のテキストの後に余分な単語 {word} がある。空白を含むテキストは二重引用符で囲むこと"
        ),
        QuotedOption {
            found,
            cmd,
            expected,
        } => format!("{cmd} に引用符で囲んだテキスト {found} は使えない。使えるのは: {expected}"),
        UnknownOption {
            name,
            cmd,
            expected,
        } => format!("{cmd} に未知のオプション {name}。使えるのは: {expected}"),
        DuplicateOption { name } => format!("オプション「{name}」が重複している"),
        OptionTakesNoValue { name } => format!("オプション「{name}」は値を取らない"),
        MissingOptionValue { name, hint } => {
            format!("オプション「{name}」に値がない。{hint} の形で書くこと")
        }
        UnknownCondition { found } => {
            format!("未知の条件 {found}。使える条件は: {CONDITION_FORMS}")
        }
        BadDuration { found } => format!("250ms や 2s のような時間が必要だが、{found} がある"),
        NegativeDuration { found } => format!("時間は負にできない: {found}"),
        DurationUnit { found } => format!("時間には単位（ms か s）が必要: {found}"),
        DurationTooLong { found } => format!("時間 {found} は長すぎる"),
        DurationFraction { found } => {
            format!("時間はミリ秒単位の整数。{found} は 1ms より細かい")
        }
        WaitTooLong { found, limit } => format!(
            "時間 {found} は上限 {limit} を超えている（1つのコマンドで進められるシミュレーション時間は最大1時間）"
        ),
        BadPercent { found } => format!("1% や 0.5% のような百分率が必要だが、{found} がある"),
        LossAbove100 { found } => format!("損失率 {found} が 100% を超えている"),
        LossDecimals { found } => format!("損失率 {found} の小数が4桁を超えている"),
        BadSize { found } => format!("512B、4KB、1MB のようなサイズが必要だが、{found} がある"),
        NegativeSize { found } => format!("サイズは負にできない: {found}"),
        SizeUnit { found } => format!("サイズには単位（B、KB、MB、GB）が必要: {found}"),
        SizeTooLarge { found, limit } => format!("サイズ {found} は上限 {limit} を超えている"),
        SizeFraction { found } => format!("サイズ {found} がバイトの整数ではない"),
        BadNodeId { found } => format!(
            "ノードID（{MIN_NODE_ID}..={MAX_NODE_ID}）が必要だが、{found} がある"
        ),
        NodeIdRange { found } => {
            format!("ノードID {found} は範囲 {MIN_NODE_ID}..={MAX_NODE_ID} の外")
        }
        BadNumber { found } => format!("整数が必要だが、{found} がある"),
        NumberTooLarge { found } => format!("数 {found} は大きすぎる"),
        Say(SayProblem::Unclosed) => {
            "「{」で始めたプレースホルダーが閉じていない。波かっこそのものは {{ と書くこと".to_string()
        }
        Say(SayProblem::UnknownPlaceholder { name, known }) => format!(
            "未知のプレースホルダー {{{name}}}。使えるのは: {known}（波かっこそのものは {{{{ と }}}}）"
        ),
        Say(SayProblem::StrayClose) => {
            "「}」が閉じるプレースホルダーがない。波かっこそのものは }} と書くこと".to_string()
        }
        CommandExpected => "コマンドが必要だが、何もない".to_string(),
        SayJaInConsole => {
            "say-ja は直前の say 行の日本語訳。スクリプトの中で say 行の直後にだけ書ける".to_string()
        }
        LoadMissing => "load の後に「rate=N/s」か「stop」がない".to_string(),
        LoadNoRate => {
            "load にオプション「rate」がない。「load rate=N/s」か「load stop」と書くこと".to_string()
        }
        NetMissing => "net の後にオプションがない。loss=PERCENT、latency=MIN..MAX、\
                       bandwidth=SIZE/s|unlimited のどれかを書くこと"
            .to_string(),
        LearnerAndVoter => "--learner と --voter は同時に指定できない".to_string(),
        LearnerKindWithVoter { kind } => {
            format!("{kind} は学習者メンバーを追加するので、--voter とは同時に指定できない")
        }
        StandbyAndReadOnly => "--standby と --read-only は同時に指定できない。\
                               読み取り専用の学習者メンバーは昇格しないので、\
                               フェイルオーバーの待機ノードになれない"
            .to_string(),
        UnknownName {
            what,
            found,
            expected,
        } => {
            let what = match what {
                Named::MemberSubcommand => "member のサブコマンド",
                Named::MirrorSubcommand => "mirror のサブコマンド",
                Named::MirrorState => "ミラーの状態",
                Named::Role => "役割",
                Named::ProgressState => "進捗の状態",
                Named::ErrorCode => "エラーコード",
            };
            format!("未知の{what} {found}。使えるのは: {expected}")
        }
        UnknownRelease { found } => {
            format!("未知の etcd リリース {found}。使えるのは 3.4、3.5、3.6")
        }
        TwiceInChange { id } => {
            format!("ノード {id} が member change の2つの変更に含まれている")
        }
        ChangeMissing => "member change の後に変更がない。add=、add-learner=、promote=、\
                          demote=、remove= にノードIDを付けて書くこと"
            .to_string(),
        MissingLinkEnd { from } => format!("「{from}->」の後にノードIDがない"),
        SameNodeLink { a, b } => {
            format!("リンクは異なる2つのノードを結ぶもの。指定されたのは {a} と {b}")
        }
        QuotedGroups { found } => format!(
            "1,2 | 3 のようなノードIDのグループが必要だが、引用符で囲んだテキスト {found} がある"
        ),
        PartitionMissing => {
            "partition の後にグループがない。1,2 | 3 のように書くこと".to_string()
        }
        GroupSeparator { id } => {
            format!("ノードIDの間には「,」か「|」が必要だが、「{id}」がある")
        }
        TwiceInGroup { id } => format!("ノード {id} が同じグループに2回ある"),
        InTwoGroups { id } => format!("ノード {id} が2つのグループに含まれている"),
        CommaBeforeId => "ノードIDが必要だが、「,」がある".to_string(),
        EmptyGroupBeforeBar => "空のグループ。「|」の前にノードIDが必要".to_string(),
        EmptyGroupAfterBar => "「|」の後のグループが空".to_string(),
        IdAfterComma => "「,」の後にノードIDがない".to_string(),
        OneGroup => {
            "分断には「|」で区切った2つ以上のグループが必要（1,2 | 3 など）".to_string()
        }
        EmptyList => "1,2,3 のようなノードIDのリストが必要だが、何もない".to_string(),
        TwiceInList { id } => format!("ノード {id} がリストに2回ある"),
        EmptyValue => {
            "「value=」の後に値がない。空の値は value=\"\" と引用符で書くこと".to_string()
        }
        FormExpected { form, found } => {
            let form = match form {
                Form::Messages(name) => {
                    format!("{name} の後に 1=0 のような N=K、N>=K、N<=K の形")
                }
                Form::Queued => "1>=1MB のような N>=SIZE か N<=SIZE の形".to_string(),
                Form::WatchEvents => "1>=3 のような W=N、W>=N、W<=N の形".to_string(),
                Form::Role => "2=leader のような N=ROLE の形".to_string(),
                Form::Mirror => "9=watching のような M=STATE の形".to_string(),
                Form::Progress => "2=replicate のような N=STATE の形".to_string(),
                Form::Rate => "50/s のようなレート".to_string(),
                Form::WatchNumber => "1 のようなウォッチ番号".to_string(),
                Form::AutoPromote => {
                    "off か、1% から 100% までの整数の百分率（90% など）".to_string()
                }
                Form::Latency => "10ms..30ms のような遅延の範囲".to_string(),
                Form::Bandwidth => "1MB/s のような帯域幅か unlimited".to_string(),
                Form::Choice(a, b) => format!("{a} か {b}"),
            };
            format!("{form}が必要だが、{found} がある")
        }
        MissingEventCount => "イベントの数がない".to_string(),
        MissingRole { id } => format!("「{id}=」の後に役割がない"),
        MissingVoters => {
            "cluster にオプション「voters」がない。cluster voters=1,2,3 のように書くこと".to_string()
        }
        MaxLearnersRelease { etcd } => format!(
            "etcd={etcd} では max-learners を指定できない。etcd {etcd} では学習者メンバーは\
             最大1つに固定（--max-learners は 3.6 から）"
        ),
        TooSmall(least) => match least {
            Least::Heartbeat => "ハートビートは 1ms 以上であること",
            Least::SnapshotCount => "snapshot-count は 1 以上であること",
            Least::Rate => "レートは 1/s 以上であること",
            Least::Bandwidth => "帯域幅は 1B/s 以上であること",
            Least::WatchNumber => "ウォッチの番号は 1 から始まる",
        }
        .to_string(),
        RateTooHigh { rate, limit } => {
            format!("レート {rate}/s は上限 {limit}/s を超えている")
        }
        AutoPromoteRange { found } => {
            format!("auto-promote {found} は範囲外。1% から 100% までで指定すること")
        }
        LatencyOrder { min, max } => {
            format!("遅延の最小値 {min} が最大値 {max} を超えている")
        }
        ElectionTooShort {
            election,
            times,
            heartbeat,
        } => format!(
            "election-timeout {election} はハートビート {heartbeat} の {times} 倍以上であること\
             （etcd の規則）"
        ),
        ElectionTooLong { election, max } => {
            format!("election-timeout {election} は長すぎる。etcd の上限は {max}")
        }
        FailoverTooShort { failover, election } => format!(
            "failover-after {failover} は選挙タイムアウト {election} 以上であること。\
             投票メンバーは選挙タイムアウトの間応答がなくて初めて沈黙とみなされる"
        ),
    }
}

/// What an error code means, in Japanese (the code itself is shown too).
pub fn error_meaning(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::BadUrl => "ピアURLが無効",
        ErrorCode::IdExists => "そのIDのメンバーはすでに存在する",
        ErrorCode::IdRemoved => "そのIDのメンバーは削除済み",
        ErrorCode::PeerUrlExists => "そのピアURLはすでに使われている",
        ErrorCode::TooManyLearners => "学習者メンバーが多すぎる",
        ErrorCode::MemberNotFound => "メンバーが見つからない",
        ErrorCode::MemberNotLearner => "学習者メンバーではない",
        ErrorCode::MemberNotVoter => "投票メンバーではない",
        ErrorCode::LearnerNotReady => "学習者メンバーがまだリーダーに追いついていない",
        ErrorCode::MemberReadOnly => "読み取り専用の学習者メンバーは昇格しない",
        ErrorCode::NotEnoughStartedMembers => "起動済みのメンバーが足りない",
        ErrorCode::Unhealthy => "クラスターが健全ではない",
        ErrorCode::BadLeaderTransferee => "リーダーシップの移譲先として不適切",
        ErrorCode::NotSupportedForLearner => "学習者メンバーはこの要求を扱わない",
        ErrorCode::NotStarted => "メンバーのプロセスが動いていない",
        ErrorCode::NoLeader => "リーダーがいない",
        ErrorCode::Timeout => "時間切れ",
        ErrorCode::ExpectFailed => "期待した条件が成り立たない",
        ErrorCode::Compacted => "そのリビジョンはコンパクション済み",
        ErrorCode::FutureRev => "そのリビジョンはまだ存在しない",
    }
}

fn code_text(code: &str) -> String {
    match code.parse::<ErrorCode>() {
        Ok(c) => format!("{code}（{}）", error_meaning(c)),
        Err(_) => code.to_string(),
    }
}

/// A node state in Japanese.
pub fn state_name(state: NodeState) -> &'static str {
    match state {
        NodeState::Leader => "リーダー",
        NodeState::Follower => "フォロワー",
        NodeState::Candidate => "候補者",
        NodeState::PreCandidate => "事前候補者",
        NodeState::Down => "停止",
        NodeState::NotStarted => "未起動",
        NodeState::Removed => "削除済み",
    }
}

/// A safety property in Japanese (an unknown one as it is written).
fn property(p: &str) -> String {
    match p {
        "election safety" => "選挙の安全性",
        "log matching" => "ログの一致",
        "leader completeness" => "リーダーの完全性",
        "state machine safety" => "状態機械の安全性",
        "leader append-only" => "リーダーは追記のみ",
        "term monotonicity" => "任期の単調性",
        "commit monotonicity" => "コミットの単調性",
        "learners never campaign" => "学習者メンバーは立候補しない",
        other => return other.to_string(),
    }
    .to_string()
}

impl Renderer for Japanese {
    fn stopped(&self, stop: &Stop) -> String {
        let secs = |ms: u64| format!("t={}秒", Fixed(ms as f64 / 1000.0, 2));
        let place = match (stop.line, &stop.command) {
            (Some(l), Some(c)) => format!("{l} 行目（`{c}`）、"),
            _ => String::new(),
        };
        let why = match (
            stop.reason,
            stop.max_wall_ms,
            stop.budget_bytes,
            stop.counted_bytes,
        ) {
            ("max-wall", Some(limit), _, _) => {
                format!("：実行時間の上限 {} を超えた", format_duration(limit))
            }
            ("memory", _, Some(budget), Some(counted)) => format!(
                "：メモリ予算 {} を超える（{} と数えた）",
                mib(budget),
                mib(counted)
            ),
            _ => String::new(),
        };
        let verb = if stop.reason == "cancelled" {
            "取り消した"
        } else {
            "止めた"
        };
        format!(
            "{place}{} で{verb}{why}。実行は最後に終わったコマンド（{}）で終わる",
            secs(stop.reached_ms),
            secs(stop.time_ms)
        )
    }
    fn say<'a>(&self, text: &'a super::say::Spoken) -> &'a str {
        text.get(super::lang::Language::Japanese)
    }

    fn time(&self, ms: u64) -> String {
        format!("t={}s", Fixed(ms as f64 / 1000.0, 2))
    }

    fn time_span(&self, from_ms: u64, to_ms: u64) -> String {
        format!(
            "t={}–{}s",
            Fixed(from_ms as f64 / 1000.0, 2),
            Fixed(to_ms as f64 / 1000.0, 2)
        )
    }

    fn event(&self, e: &Event) -> String {
        use EventKind::*;
        match &e.kind {
            Raft { node, event } => raft_sentence(*node, event),
            PutApplied { node, index, .. } => {
                format!("ノード {node} がインデックス {index} の書き込みを適用した")
            }
            PublishApplied { node, member } => {
                format!("ノード {node} がメンバー {member} の自己公開を適用した")
            }
            ConfChangeApplied {
                node,
                index,
                change,
                refused,
            } => match refused {
                None => format!(
                    "ノード {node} がインデックス {index} で「{}」を適用した",
                    single_text(change.change_type, change.node_id)
                ),
                Some(err) => format!(
                    "ノード {node} がインデックス {index} の「{}」を拒否: {}",
                    single_text(change.change_type, change.node_id),
                    err.etcd_text()
                ),
            },
            JointChangeApplied {
                node,
                index,
                change,
                refused,
            } => match refused {
                None => format!(
                    "ノード {node} がインデックス {index} で「{}」を適用した",
                    joint_text(change)
                ),
                Some(err) => format!(
                    "ノード {node} がインデックス {index} の「{}」を拒否: {}",
                    joint_text(change),
                    err.etcd_text()
                ),
            },
            DeleteApplied {
                node,
                index,
                deleted,
                revision,
                ..
            } => match deleted {
                0 => format!("ノード {node} がインデックス {index} で削除を適用した: キーなし"),
                _ => format!(
                    "ノード {node} がインデックス {index} で削除を適用した: リビジョン {revision}"
                ),
            },
            CompactionApplied {
                node,
                index,
                rev,
                refused,
                ..
            } => match refused {
                None => format!(
                    "ノード {node} がリビジョン {rev} でキーの履歴をコンパクションした（インデックス {index}）"
                ),
                Some(e) => format!(
                    "ノード {node} がリビジョン {rev} のコンパクションを拒否（インデックス {index}）: {}",
                    e.etcd_text()
                ),
            },
            ReadServed { node, read, .. } => match read {
                Ok(KeyRead { value: Some(v), .. }) => {
                    format!("ノード {node} が線形化可能な読み取りに応答: {v:?}")
                }
                Ok(KeyRead { value: None, .. }) => {
                    format!("ノード {node} が線形化可能な読み取りに応答: キーなし")
                }
                Err(e) => format!(
                    "ノード {node} が線形化可能な読み取りを拒否: {}",
                    e.etcd_text()
                ),
            },
            Compacted { node, index } => format!(
                "ノード {node} がインデックス {index} でスナップショットを作り、ログをコンパクションした"
            ),
            MessageDropped {
                from,
                to,
                kind,
                reason,
            } => format!(
                "{from} から {to} への {} が破棄された: {}",
                kind.name(),
                drop_reason(*reason)
            ),
            Crashed { node } => format!("ノード {node} がクラッシュした"),
            Started { node } => format!("ノード {node} が起動した"),
            StoppedRemoved {
                node,
                delayed: false,
            } => format!("ノード {node} はクラスターから削除されたことを知り、停止した"),
            StoppedRemoved {
                node,
                delayed: true,
            } => format!("ノード {node} が停止した: 少し前に自身の削除を適用していた"),
            LinkCut { from, to } => format!("リンク {from}->{to} を切断"),
            LinkHealed { from, to } => format!("リンク {from}->{to} を復旧"),
            WatchEvents {
                node,
                watch,
                count: 1,
                revision,
            } => format!("ノード {node} のウォッチ {watch} がリビジョン {revision} のイベントを受け取った"),
            WatchEvents {
                node,
                watch,
                count,
                revision,
            } => format!(
                "ノード {node} のウォッチ {watch} がリビジョン {revision} までの {count} 件のイベントを受け取った"
            ),
            WatchCanceled {
                node,
                watch,
                compact_revision,
            } => format!(
                "ノード {node} のウォッチ {watch} がキャンセルされた: 必要な履歴はリビジョン {compact_revision} でコンパクションされていた"
            ),
            Mode { leader, decision } => mode_sentence(*leader, decision),
            Mirror(m) => mirror_sentence(m),
        }
    }

    fn result_summary(&self, r: &CommandResult) -> String {
        match (r.error, &r.detail) {
            (Some(code), Some(_)) if r.failure.is_some() => format!(
                "エラー {}: {}",
                code_text(code),
                result_detail(r).unwrap_or_default()
            ),
            (Some(code), Some(d)) => format!("エラー {}: {d}", code_text(code)),
            (Some(code), None) => format!("エラー {}", code_text(code)),
            (None, _) if r.pending => "送信済み、完了を待たない".to_string(),
            // A read shows what it read, as in English.
            (None, _) if r.value.is_some() => match r.value.as_ref().and_then(Option::as_ref) {
                Some(v) => format!("成功: 値 {}", json_string(v)),
                None => "成功: キーなし".to_string(),
            },
            (None, Some(d)) => format!("成功: {d}"),
            (None, None) => "成功".to_string(),
        }
    }

    fn result_details(&self, r: &CommandResult) -> Option<String> {
        if !r.ok {
            return None;
        }
        let mut bits = Vec::new();
        if let Some(index) = r.index {
            bits.push(format!("インデックス {index} でコミット"));
        }
        if let Some(deleted) = r.deleted {
            bits.push(match (deleted, r.revision) {
                (0, _) => "そのキーはない".to_string(),
                (_, Some(rev)) => format!("リビジョン {rev} で削除"),
                (_, None) => "削除".to_string(),
            });
        }
        if let (Some(w), Some(events)) = (r.watch, &r.events) {
            bits.push(format!(
                "ウォッチ {w}: これまでに {} 件のイベント",
                events.len()
            ));
        }
        if let Some(members) = &r.members {
            let text: Vec<String> = members
                .iter()
                .map(|m| {
                    format!(
                        "{}{} {}{}",
                        m.id,
                        if m.learner { "（学習者）" } else { "" },
                        m.peer_url,
                        if m.started { "" } else { " 未起動" }
                    )
                })
                .collect();
            bits.push(text.joined("; "));
        }
        (!bits.is_empty()).then(|| format!("  {}", bits.joined("、")))
    }

    fn echo(&self, command: &str) -> String {
        format!("› {command}")
    }

    fn logged_result(
        &self,
        time_ms: u64,
        r: &CommandResult,
        named: bool,
        expected: bool,
    ) -> String {
        let summary = self.result_summary(r);
        let what = if named {
            format!("{}: ", r.command)
        } else {
            String::new()
        };
        let bad = r.error.is_some();
        if bad && expected {
            return format!(
                "{} ✗ {what}{summary}（レッスンの想定どおり）",
                self.time(time_ms)
            );
        }
        let mark = if bad { "✗" } else { "✓" };
        format!("{} {mark} {what}{summary}", self.time(time_ms))
    }

    fn unparsed(&self, command: &str, e: &ParseError) -> String {
        format!(
            "エラー: 「{command}」を解釈できない: {} 行目 {} 文字目: {}",
            e.line,
            e.column,
            parse_error(&e.kind)
        )
    }

    fn folded(&self, first_ms: u64, last_ms: u64, latest: &str, count: usize) -> String {
        format!("{} {latest}（×{count}）", self.time_span(first_ms, last_ms))
    }

    fn campaign_folded(&self, c: &CampaignFold) -> String {
        let when = if c.first_ms == c.last_ms {
            self.time(c.first_ms)
        } else {
            self.time_span(c.first_ms, c.last_ms)
        };
        let mut s = format!(
            "{when} ノード {} が{}を {} 回求めた（最後は任期 {}）",
            c.node,
            vote(c.pre_vote),
            c.campaigns,
            c.term
        );
        if !c.granted.is_empty() {
            s.push_str(&format!("。{} が与えた", list(&c.granted)));
        }
        if !c.refused.is_empty() {
            let refusals: Vec<String> = c
                .refused
                .iter()
                .map(|(why, by)| format!("{}（{}）", reason(why), list(by)))
                .collect();
            s.push_str(&format!("。拒否: {}", refusals.joined("、")));
        }
        s
    }

    fn branch_started(&self, fork_ms: u64, branch: u32, left: u32) -> String {
        format!(
            "↪ 過去の t = {} で操作したので、ここから分岐 {branch} が始まる。\
             元の実行は分岐 {left} として残っている: クラスターの下の分岐リストで選べる。",
            seconds(fork_ms)
        )
    }

    fn branch_resumed(&self, branch: u32, at_ms: u64) -> String {
        format!(
            "↪ 分岐 {branch} に戻った。離れたときの t = {} から。",
            seconds(at_ms)
        )
    }

    fn refusal(&self, why: &Refusal) -> String {
        match why {
            Refusal::NoFreeId { max } => {
                format!("エラー: 1 から {max} までのIDはすべて使われている")
            }
            Refusal::NoLeaderToIsolate => {
                "エラー: 孤立させるリーダーがいない（no-leader）".to_string()
            }
            Refusal::TooFewToPartition => "エラー: 分断には少なくとも2つのノードが必要".to_string(),
            Refusal::NoBranch(id) => format!("エラー: ブランチ {id} はない"),
            Refusal::LessonHasNoBranches => {
                "エラー: レッスンにはブランチがない。先にレッスンを終えること".to_string()
            }
            Refusal::RunInProgress => {
                "エラー: 実行中の処理がある。終わるまで待つか、取り消すこと".to_string()
            }
            Refusal::ClockOverBudget { budget, counted } => format!(
                "時計を止めた：実行がメモリ予算 {} を超える（{} と数えた）。続けるには過去に戻るかリセットすること",
                crate::scenario::slice::mib(*budget),
                crate::scenario::slice::mib(*counted)
            ),
            Refusal::AutoPromoteRange => {
                "エラー: auto-promote は 1% から 100% までの整数のパーセント".to_string()
            }
            Refusal::FailoverAfterRange { min_ms, max_ms } => format!(
                "エラー: failover-after は {}（選挙タイムアウト）から {} まで",
                crate::scenario::ast::format_duration(*min_ms),
                crate::scenario::ast::format_duration(*max_ms)
            ),
            Refusal::MaxLearnersRange { max } => {
                format!("エラー: max-learners は 0 から {max} までの整数")
            }
            Refusal::ModeChoice {
                option,
                found,
                choices,
            } => format!(
                "エラー: {option} の値 {found:?} は使えない。使えるのは {}",
                choices.joined(" か ")
            ),
            Refusal::Modes(e) => format!(
                "エラー: {} 行目 {} 文字目: {}",
                e.line,
                e.column,
                parse_error(&e.kind)
            ),
        }
    }

    fn nothing_happens(&self) -> String {
        "1分以内にはもう何も起きない".to_string()
    }

    fn at_the_beginning(&self) -> String {
        "ここが実行の始まり".to_string()
    }

    fn seek_cancelled(&self, at_ms: u64) -> String {
        format!("移動を取り消した。t = {} のまま。", seconds(at_ms))
    }

    fn surprises(&self, results: &[CommandResult]) -> String {
        let each: Vec<String> = results
            .iter()
            .map(|r| {
                let error = r.error.unwrap_or("");
                match &result_detail(r) {
                    Some(d) if !d.is_empty() => format!("{}: {error}（{d}）", r.command),
                    _ => format!("{}: {error}", r.command),
                }
            })
            .collect();
        format!("レッスンの説明どおりにならなかった: {}", each.joined("; "))
    }

    fn etcdctl_refusal(&self, e: &EtcdctlError) -> String {
        match e {
            EtcdctlError::Etcdctl(msg) => format!("Error: {msg}"),
            EtcdctlError::Server { code, member_id } => format!(
                "Error: {}（ID {member_id:x} のメンバーはいない: IDは etcdctl member list で確認できる）",
                code.etcd_text()
            ),
            EtcdctlError::Unmodelled { command } => format!(
                "raftlab は「{}」を再現していない: コンソールが理解する etcdctl は {}。raftlab 自身のコマンドも使える",
                etcdctl::full_name(command),
                etcdctl::MODELLED.joined("、")
            ),
            EtcdctlError::UnmodelledFlag { command, flag } => format!(
                "raftlab は「{}」のフラグ {flag} を再現していない",
                etcdctl::full_name(command)
            ),
            EtcdctlError::BadName { name } => format!(
                "raftlab は {name:?} という名前のメンバーを追加できない: メンバー名は n1 から n15（メンバー N はホスト nN で動く）。\
                 例: etcdctl member add n4 --peer-urls=http://n4:2380"
            ),
            EtcdctlError::SeveralUrls => {
                "raftlab のメンバーのピアURLは1つだけ: --peer-urls にはURLを1つ指定する".to_string()
            }
        }
    }

    fn etcdctl_recorded(&self, command: &str) -> String {
        format!("記録されたコマンド: {command}")
    }

    fn share_refusal(&self, e: &ShareError) -> String {
        share_problem(&e.problem)
    }

    fn no_lesson(&self, id: &str) -> String {
        format!("レッスン {id:?} はない")
    }

    fn quorum_verdict(&self, q: &QuorumView) -> String {
        let Some(leader) = q.leader else {
            return "リーダーがいない: 選挙に勝つまで書き込みはコミットできない".to_string();
        };
        let (n, voters) = (q.reachable.len(), q.voters.len());
        if q.can_reach_quorum {
            format!(
                "リーダー {leader} は投票メンバー {voters} のうち {n} に届く: クォーラム {} を満たす",
                q.quorum
            )
        } else {
            format!(
                "リーダー {leader} は投票メンバー {voters} のうち {n} にしか届かない（クォーラム {}）: リーダーを降りる",
                q.quorum
            )
        }
    }

    fn quorum_sentence(&self, q: &QuorumView) -> String {
        let mut s = format!(
            "投票メンバー: {}（{}）。クォーラム: {}。",
            q.voters.len(),
            list(&q.voters),
            q.quorum
        );
        if !q.learners.is_empty() {
            s += &format!("学習者メンバー（数えない）: {}。", list(&q.learners));
        }
        let Some(from) = q.from else {
            s += "動いているメンバーはいない。";
            return s;
        };
        let who = if q.leader == Some(from) {
            format!("リーダー {from}")
        } else {
            format!("リーダーなし。ノード {from}（最大の任期）")
        };
        let n = q.reachable.len();
        s += &format!("{who} が届く投票メンバーは {n}（{}）: ", list(&q.reachable));
        if q.has_quorum {
            s += "クォーラムを満たす。";
        } else {
            s += &format!("クォーラムに {} 足りない。", q.quorum.saturating_sub(n));
        }
        s
    }

    fn node_head(&self, kind: Option<LearnerKind>, state: NodeState) -> String {
        let what = state_name(state);
        match kind {
            None => what.to_string(),
            Some(LearnerKind::Plain) => format!("学習者 · {what}"),
            Some(LearnerKind::Standby) => format!("スタンバイ · {what}"),
            Some(LearnerKind::ReadOnly(m)) => {
                let m = match m {
                    crate::server::ReadMode::Weak => "弱",
                    crate::server::ReadMode::Strong => "強",
                };
                format!("読み取り専用（{m}） · {what}")
            }
        }
    }

    fn auto_promote_at(&self, percent: u8) -> String {
        format!("{percent}% で自動昇格")
    }

    fn failover_countdown(&self, f: &FailoverView) -> String {
        if f.left_ms == 0 {
            "フェイルオーバーの時刻: 準備のできたスタンバイを待つ".to_string()
        } else {
            format!("フェイルオーバーまで {}", span(f.left_ms))
        }
    }

    fn message_counts(&self, received: u64, sent: u64, compact: bool) -> String {
        if compact {
            format!("受 {received} · 送 {sent}")
        } else {
            format!("メッセージ 受信 {received} · 送信 {sent}")
        }
    }

    fn history_lane(&self, key: &str, client: ClientId) -> String {
        let who = match client {
            crate::server::history::SCRIPT_CLIENT => "あなた".to_string(),
            crate::server::history::LOAD_CLIENT => "負荷".to_string(),
            c => format!("クライアント {c}"),
        };
        format!("{} · {who}", crate::scenario::ast::format_text(key))
    }

    fn history_op(&self, kind: OpName, value: Option<&str>) -> String {
        let v = |v: Option<&str>| v.map_or("なし".to_string(), crate::scenario::ast::format_text);
        match kind {
            OpName::Write => format!("put {}", v(value)),
            OpName::Read => format!("get → {}", v(value)),
            OpName::Delete => "delete".to_string(),
        }
    }

    fn history_tick(&self, ms: u64) -> String {
        format!("{}.{:02}秒", ms / 1000, ms % 1000 / 10)
    }

    fn history_verdict(&self, v: &HistoryVerdict) -> String {
        let value = |v: &Option<String>| {
            v.as_deref()
                .map_or("なし（キーが存在しない）".to_string(), |v| {
                    format!("「{v}」")
                })
        };
        match v {
            HistoryVerdict::Empty => {
                "クライアントの操作はまだない: キーを put / get すると、ここに時間軸で並ぶ。".to_string()
            }
            HistoryVerdict::Linearizable { operations, keys } => format!(
                "✓ 線形化可能: {keys} 個のキーに対する {operations} 個の操作を、すべての読み取りを説明する1つの順序に並べられる。"
            ),
            HistoryVerdict::StaleRead {
                key,
                read_value,
                read_ms,
                missed_value,
                missed_done_ms,
            } => format!(
                "✗ 線形化可能でない: 古い値の読み取り。キー {} で、{} に送られた get が {} を返したが、{} の put は {} に完了していた。どの順序でも説明できない。",
                crate::scenario::ast::format_text(key),
                seconds(*read_ms),
                value(read_value),
                value(missed_value),
                seconds(*missed_done_ms)
            ),
            HistoryVerdict::NotLinearizable { key, operations } => format!(
                "✗ 線形化可能でない: キー {} で、赤の {operations} 個の操作は、どの順序でも読み取りの結果を説明できない。",
                crate::scenario::ast::format_text(key)
            ),
        }
    }

    fn history_note(
        &self,
        from_ms: u64,
        to_ms: u64,
        shown: usize,
        total: usize,
        hidden_lanes: usize,
    ) -> String {
        let mut s = format!(
            "t = {} から {}: 全 {total} 個のうち {shown} 個の操作",
            seconds(from_ms),
            seconds(to_ms)
        );
        if hidden_lanes > 0 {
            s += &format!("。ほかに {hidden_lanes} 行は表示していない");
        }
        s
    }

    fn unreachable_url(&self, url: &str) -> String {
        format!("届かないURL {url}")
    }

    fn progress(&self, p: &ProgressView, compact: bool) -> String {
        let state = p.state.name();
        if compact {
            format!("m {} · n {} · {state}", p.matched, p.next)
        } else {
            format!("match {} · next {} · {state}", p.matched, p.next)
        }
    }

    fn send_queue(&self, bytes: u64) -> String {
        let size = if bytes >= 1 << 20 {
            format!("{} MB", Fixed(bytes as f64 / (1u64 << 20) as f64, 1))
        } else if bytes >= 1 << 10 {
            format!("{} KB", Fixed(bytes as f64 / 1024.0, 0))
        } else {
            format!("{bytes} B")
        };
        format!("送信キュー {size}")
    }

    fn log_title(&self) -> String {
        "ログ".to_string()
    }

    fn log_row(&self, id: NodeId, learner: bool) -> String {
        if learner {
            format!("ノード {id}（学）")
        } else {
            format!("ノード {id}")
        }
    }

    fn no_log(&self) -> String {
        "ログはまだない".to_string()
    }

    fn ring_caption(&self, leader: Option<(NodeId, u64)>, revision: u64) -> String {
        match leader {
            Some((id, term)) => format!("リーダー {id} · 任期 {term} · リビジョン {revision}"),
            None => format!("リーダーなし · リビジョン {revision}"),
        }
    }

    fn mirror_caption(&self, m: &crate::scenario::view::MirrorView) -> [String; 2] {
        let r = &m.report;
        let state = match r.state {
            "syncing" => "同期中",
            "watching" => "ウォッチ中",
            "stopped" => "停止",
            _ => "失敗",
        };
        [
            format!("ミラー {} · {state}", r.id),
            match r.error {
                Some(e) => e.to_string(),
                None => format!("リビジョン {} まで中継", r.last_revision),
            },
        ]
    }

    fn log_mark(&self, mark: LogMark) -> String {
        match mark {
            LogMark::Commit => "コミット",
            LogMark::Applied => "適用済み",
            LogMark::Snapshot => "スナップショット",
            LogMark::MemberChange => "メンバー変更",
            LogMark::Uncommitted => "未コミット",
            LogMark::Compacted => "コンパクション済み",
        }
        .to_string()
    }

    fn safety_headline(&self, violations: &[ViolationView]) -> String {
        let Some(first) = violations.first() else {
            return "Raft の安全性: すべての不変条件が成り立つ".to_string();
        };
        let more = match violations.len() {
            1 => String::new(),
            n => format!("（ほか {} 件）", n - 1),
        };
        format!(
            "Raft の安全性が破れた: {}、{}{more}",
            property(&first.property),
            when_who(first)
        )
    }

    fn violation(&self, v: &ViolationView) -> String {
        if v.text.is_empty() {
            format!("{} · {}", when_who(v), property(&v.property))
        } else {
            format!("{} · {}: {}", when_who(v), property(&v.property), v.text)
        }
    }

    fn safety_list_head(&self, count: usize) -> String {
        if count == 0 {
            format!("違反なし。イベントごとに確認している: {CHECKED}。")
        } else {
            format!("Raft の安全性の違反 {count} 件（イベントごとに確認）:")
        }
    }

    fn safety_tip(&self, ok: bool) -> String {
        if ok {
            "Raft の安全性をイベントごとにすべて確認している。クリックで一覧"
        } else {
            "安全性が破れた。クリックですべての違反を表示"
        }
        .to_string()
    }
}

/// What the world checks after every event.
const CHECKED: &str = "選挙の安全性、ログの一致、リーダーの完全性、状態機械の安全性、\
     任期とコミットの単調性、学習者メンバーは立候補しない";

/// "t=12.34s、ノード 1、2" (no nodes: just the time).
fn when_who(v: &ViolationView) -> String {
    let t = format!("t={}s", Fixed(v.time_ms as f64 / 1000.0, 2));
    match v.nodes.as_slice() {
        [] => t,
        many => format!("{t}、ノード {}", list(many)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::{ConfChange, ConfChangeSingle, MessageType, ProgressState};
    use crate::scenario::exec::Session;
    use crate::scenario::text_en::English;
    use crate::sim::membership::MemberError;
    use crate::sim::mvcc::MvccError;
    use crate::sim::PeerUrls;

    /// Whether a text holds Japanese (kana or kanji).
    fn japanese(s: &str) -> bool {
        s.chars()
            .any(|c| matches!(c as u32, 0x3040..=0x30ff | 0x4e00..=0x9fff | 0xff01..=0xff60))
    }

    fn raft(event: RaftEvent) -> EventKind {
        EventKind::Raft { node: 1, event }
    }

    /// The first run of three or more English words left in `text` once
    /// the texts kept as written (etcd's, Go's, commands) are taken out.
    fn english_phrase(text: &str, kept: &[&str]) -> Option<String> {
        let mut rest = text.to_string();
        for k in kept.iter().filter(|k| !k.is_empty()) {
            rest = rest.replace(k, " ");
        }
        // Words joined by single spaces make a phrase; punctuation (a list's
        // commas) ends one.
        let mut run: Vec<&str> = Vec::new();
        for token in rest.split(|c: char| c.is_whitespace() || !c.is_ascii()) {
            let w = token.trim_start_matches(|c: char| "(\"'".contains(c));
            let bare = w.trim_end_matches(|c: char| ",.;:)\"'".contains(c));
            // Units and names in capitals (KB, MB) are no words.
            let word = bare.len() >= 2
                && bare.chars().any(|c| c.is_ascii_lowercase())
                && bare.chars().all(|c| c.is_ascii_alphabetic() || c == '\'');
            if word {
                run.push(bare);
                if run.len() >= 3 {
                    return Some(run.joined(" "));
                }
                if bare.len() < w.len() {
                    run.clear();
                }
            } else {
                run.clear();
            }
        }
        None
    }

    /// What a server error's detail quotes as written: etcd's text and the
    /// Go error, rule or outcome it carries.
    fn kept_texts(e: &crate::server::ServerError) -> Vec<&'static str> {
        let mut kept = vec![e.code.etcd_text(), DEADLINE_EXCEEDED];
        match &e.why {
            ErrorDetail::Membership(m) => kept.push(m.etcd_text()),
            ErrorDetail::PeerListener { go_error, .. } => {
                kept.push("creating peer listener failed");
                kept.push(go_error.clone().leak());
            }
            ErrorDetail::BadPeerUrl { problem, .. } => match problem {
                UrlProblem::Parse { go_error, .. } => kept.push(go_error.clone().leak()),
                UrlProblem::Rule { rule, .. } => kept.push(rule),
            },
            _ => {}
        }
        kept
    }

    fn not_yets() -> Vec<NotYet> {
        vec![
            NotYet::Behind {
                matched: 3,
                last: 9,
                percent_now: 33,
                percent: 90,
            },
            NotYet::NotHeard { silent_ms: None },
            NotYet::NotHeard {
                silent_ms: Some(1500),
            },
            NotYet::Snapshot,
            NotYet::Strict(crate::raft::opaque::Opaque::new(
                crate::server::ServerError::new(
                    ErrorCode::NotEnoughStartedMembers,
                    ErrorDetail::NotEnoughStarted {
                        started: 1,
                        quorum: 2,
                        voters: 3,
                        others: false,
                    },
                ),
                0,
            )),
            NotYet::NotTracked,
            NotYet::NoStandby,
        ]
    }

    /// One event of every kind (each Raft event, each mode decision, each
    /// way a message is dropped).
    fn every_event() -> Vec<EventKind> {
        use RaftEvent::*;
        let change = |t, request| ConfChange {
            change_type: t,
            node_id: 4,
            request,
            context: PeerUrls::one(4, "http://n4:2380"),
            promote: false,
        };
        let joint = |changes: Vec<ConfChangeSingle>| ConfChangeV2 {
            changes,
            request: 3,
            ..ConfChangeV2::default()
        };
        let mut all = vec![
            raft(BecameFollower { term: 2, leader: 3 }),
            raft(BecameFollower { term: 2, leader: 0 }),
            raft(BecamePreCandidate { term: 2 }),
            raft(BecameCandidate { term: 3 }),
            raft(BecameLeader {
                term: 3,
                votes: vec![1, 2],
            }),
            raft(StepDownNoQuorum { term: 3 }),
            raft(Committed { index: 9 }),
            raft(SnapshotSent { to: 4, index: 9 }),
            raft(SnapshotRestored { index: 9 }),
            raft(TransferStarted { to: 2 }),
            raft(TransferAborted { to: 2 }),
            raft(ForgetLeaderIgnored),
            raft(AutoLeaveProposed),
            EventKind::PutApplied {
                node: 1,
                index: 5,
                request: 1,
            },
            EventKind::PublishApplied { node: 1, member: 4 },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Ok(KeyRead {
                    value: Some("v".into()),
                    mod_revision: Some(2),
                    revision: 3,
                }),
            },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Ok(KeyRead {
                    value: None,
                    mod_revision: None,
                    revision: 3,
                }),
            },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Err(MvccError::Compacted),
            },
            EventKind::DeleteApplied {
                node: 1,
                index: 6,
                request: 3,
                deleted: 1,
                revision: 4,
            },
            EventKind::DeleteApplied {
                node: 1,
                index: 6,
                request: 3,
                deleted: 0,
                revision: 4,
            },
            EventKind::CompactionApplied {
                node: 1,
                index: 7,
                request: 4,
                rev: 3,
                refused: None,
            },
            EventKind::CompactionApplied {
                node: 1,
                index: 7,
                request: 4,
                rev: 9,
                refused: Some(MvccError::FutureRev),
            },
            EventKind::Compacted { node: 1, index: 9 },
            EventKind::Crashed { node: 1 },
            EventKind::Started { node: 1 },
            EventKind::StoppedRemoved {
                node: 1,
                delayed: false,
            },
            EventKind::StoppedRemoved {
                node: 1,
                delayed: true,
            },
            EventKind::LinkCut { from: 1, to: 2 },
            EventKind::LinkHealed { from: 1, to: 2 },
            EventKind::WatchEvents {
                node: 1,
                watch: 1,
                count: 1,
                revision: 5,
            },
            EventKind::WatchEvents {
                node: 1,
                watch: 1,
                count: 3,
                revision: 7,
            },
            EventKind::WatchCanceled {
                node: 1,
                watch: 2,
                compact_revision: 6,
            },
            EventKind::Mirror(MirrorEvent::Started {
                mirror: 9,
                from: 1,
                to: 11,
            }),
            EventKind::Mirror(MirrorEvent::Synced {
                mirror: 9,
                revision: 4,
                keys: 3,
            }),
            EventKind::Mirror(MirrorEvent::Relayed {
                mirror: 9,
                count: 2,
                revision: 6,
            }),
            EventKind::Mirror(MirrorEvent::Paused {
                mirror: 9,
                peer: 1,
                revision: 6,
            }),
            EventKind::Mirror(MirrorEvent::Resumed {
                mirror: 9,
                revision: 7,
            }),
            EventKind::Mirror(MirrorEvent::Failed {
                mirror: 9,
                code: "compacted",
                error: "etcdserver: mvcc: required revision has been compacted",
            }),
            EventKind::Mirror(MirrorEvent::Stopped { mirror: 9 }),
        ];
        for pre_vote in [false, true] {
            all.push(raft(VoteGranted {
                candidate: 2,
                term: 3,
                pre_vote,
            }));
            all.push(raft(VoteRejected {
                candidate: 2,
                term: 3,
                pre_vote,
                reason: "lease",
            }));
        }
        for t in [
            ConfChangeType::AddNode,
            ConfChangeType::AddLearnerNode,
            ConfChangeType::RemoveNode,
            ConfChangeType::UpdateNode,
        ] {
            for refused in [None, Some(MemberError::IdExists)] {
                all.push(EventKind::ConfChangeApplied {
                    node: 1,
                    index: 9,
                    change: change(t, 1),
                    refused,
                });
            }
        }
        let single = ConfChangeSingle {
            change_type: ConfChangeType::AddNode,
            node_id: 4,
        };
        for c in [
            joint(vec![single]),
            joint(vec![single, single]),
            joint(Vec::new()),
        ] {
            for refused in [None, Some(MemberError::MemberNotFound)] {
                all.push(EventKind::JointChangeApplied {
                    node: 1,
                    index: 9,
                    change: c.clone(),
                    refused,
                });
            }
        }
        for reason in [
            DropReason::LinkCut,
            DropReason::NodeDown,
            DropReason::NoRoute,
            DropReason::SenderRemoved,
            DropReason::Lost,
        ] {
            all.push(EventKind::MessageDropped {
                from: 1,
                to: 2,
                kind: MessageType::App,
                reason,
            });
        }
        let mut decisions = vec![
            ModeDecision::Promote {
                learner: 4,
                matched: 9,
                last: 9,
                percent: 90,
            },
            ModeDecision::FailoverCountdown {
                voter: 2,
                silent_ms: 1000,
                left_ms: 500,
            },
            ModeDecision::FailoverCancelled { voter: 2 },
            ModeDecision::FailoverRemove {
                voter: 2,
                standby: 4,
                silent_ms: 2000,
            },
            ModeDecision::FailoverPromote {
                standby: 4,
                voter: 2,
                grow: false,
            },
            ModeDecision::FailoverPromote {
                standby: 4,
                voter: 2,
                grow: true,
            },
        ];
        for reason in not_yets() {
            decisions.push(ModeDecision::NotYet {
                learner: 4,
                reason: reason.clone(),
            });
            decisions.push(ModeDecision::FailoverBlocked {
                voter: 2,
                standby: Some(4),
                reason: reason.clone(),
            });
            decisions.push(ModeDecision::FailoverBlocked {
                voter: 2,
                standby: None,
                reason,
            });
        }
        all.extend(decisions.into_iter().map(|decision| EventKind::Mode {
            leader: 1,
            decision,
        }));
        all
    }

    /// A new kind of event must be added to `every_event` (this match has
    /// no catch-all, so it stops compiling until it is).
    #[allow(dead_code)]
    fn every_event_is_listed(k: &EventKind) {
        match k {
            EventKind::Raft { .. }
            | EventKind::PutApplied { .. }
            | EventKind::PublishApplied { .. }
            | EventKind::ConfChangeApplied { .. }
            | EventKind::JointChangeApplied { .. }
            | EventKind::ReadServed { .. }
            | EventKind::DeleteApplied { .. }
            | EventKind::CompactionApplied { .. }
            | EventKind::Compacted { .. }
            | EventKind::MessageDropped { .. }
            | EventKind::Crashed { .. }
            | EventKind::Started { .. }
            | EventKind::StoppedRemoved { .. }
            | EventKind::LinkCut { .. }
            | EventKind::LinkHealed { .. }
            | EventKind::WatchEvents { .. }
            | EventKind::WatchCanceled { .. }
            | EventKind::Mirror(_)
            | EventKind::Mode { .. } => {}
        }
    }

    #[test]
    fn a_stopped_run_is_said_in_japanese() {
        let stop = Stop {
            reason: "memory",
            line: Some(3),
            command: Some("wait 3600s".into()),
            reached_ms: 2_688_000,
            time_ms: 20_000,
            commands_left: 2,
            budget_bytes: Some(512 << 20),
            counted_bytes: Some(519 << 20),
            max_wall_ms: None,
            message: String::new(),
        };
        let ja = Japanese.stopped(&stop);
        assert!(japanese(&ja), "{ja}");
        assert!(ja.contains("3 行目") && ja.contains("メモリ予算"), "{ja}");
    }

    #[test]
    fn every_event_sentence_is_in_japanese() {
        let events = every_event();
        let codes: std::collections::BTreeSet<&str> = events
            .iter()
            .map(super::super::narrate::event_code)
            .collect();
        // Every code of `event_code` but the raft events built per reason below.
        assert!(codes.len() >= 30, "{codes:?}");
        for kind in events {
            let e = Event { time_ms: 5, kind };
            let ja = Japanese.event(&e);
            assert!(japanese(&ja), "not Japanese: {ja} ({:?})", e.kind);
            assert_ne!(ja, English.event(&e));
        }
    }

    /// Every reason a Raft node gives in src/raft is in the table of
    /// `reason` (found by reading the source: a new reason fails here).
    #[test]
    fn every_raft_reason_has_a_translation() {
        let files = [
            include_str!("../raft/node/step.rs"),
            include_str!("../raft/node/leader.rs"),
            include_str!("../raft/node/mod.rs"),
            include_str!("../raft/node/conf_change.rs"),
            include_str!("../raft/events.rs"),
            include_str!("../raft/confchange/mod.rs"),
        ];
        let mut found = Vec::new();
        for text in files {
            let mut in_reason_fn = false;
            let mut in_let_reason = false;
            for line in text.lines() {
                let t = line.trim();
                if t.starts_with("pub fn reason(") {
                    in_reason_fn = true;
                }
                if t.starts_with("let reason = if") {
                    in_let_reason = true;
                }
                let quoted = |s: &str| s.split('"').nth(1).map(str::to_string);
                if let Some(rest) = t.split("reason: \"").nth(1) {
                    found.extend(quoted(&format!("\"{rest}")));
                } else if let Some(rest) = t.split("ignored(\"").nth(1) {
                    found.extend(quoted(&format!("\"{rest}")));
                } else if in_reason_fn && t.contains("=> \"") {
                    found.extend(quoted(t.split("=> ").nth(1).unwrap_or("")));
                } else if (in_reason_fn || in_let_reason) && t.starts_with('"') {
                    found.extend(quoted(t));
                }
                if in_reason_fn && t == "}" && line.starts_with("    }") {
                    in_reason_fn = false;
                }
                if in_let_reason && t == "};" {
                    in_let_reason = false;
                }
            }
        }
        assert!(found.len() >= 15, "{found:?}");
        for r in found {
            if r == "configuration invariant broken" {
                continue; // shown with its own detail, never as a reason
            }
            assert!(japanese(&reason(&r)), "no Japanese for the reason {r:?}");
        }
    }

    #[test]
    fn every_parse_error_kind_is_said_in_japanese_and_differs_from_english() {
        use crate::scenario::parse_error::MissingWhat;
        let samples = ParseErrorKind::samples();
        assert!(samples.len() >= 110, "{}", samples.len());
        for kind in samples {
            let ja = parse_error(&kind);
            assert!(japanese(&ja), "no Japanese for {kind:?}: {ja}");
            assert_ne!(ja, kind.english());
            // Only what is quoted from the input or the language (commands,
            // options, forms, lists of names) stays as typed.
            let kept = [CONDITION_FORMS, &COMMAND_NAMES.joined(", ")];
            assert_eq!(english_phrase(&ja, &kept), None, "{kind:?}: {ja}");
        }
        for what in MissingWhat::ALL {
            assert!(japanese(&missing_ja(what)), "no Japanese word for {what:?}");
        }
        // Every parse error the parser gives for these lines is one of the
        // kinds said in Japanese (there is no English-only kind left).
        for line in [
            "",
            "pt a b",
            "\"put\" a b",
            "cluster voters=1",
            "put",
            "put a=b c",
            "crash 1 2",
            "crash x",
            "crash 16",
            "get a vai=1",
            "get a via=1 via=2",
            "get a serializable=1",
            "get a via",
            "get a \"x\"",
            "wait 5",
            "wait -1s",
            "wait 0.1ms",
            "wait 2h",
            "wait x",
            "expect leeder",
            "expect",
            "expect role",
            "expect queued>=x",
            "expect queued>=5",
            "expect msgs-out 1=x",
            "say \"a\" b",
            "put \"a",
            "put a\"b",
            "put \"a\\x\"",
            "put \"a\"b",
            "net loss=x",
            "net loss=101%",
            "member",
            "member add",
            "say \"{lader}\"",
            "say \"a {\"",
            "say \"a }\"",
            "say-ja \"x\"",
            "load",
            "load size=1KB",
            "load rate=0/s",
            "load rate=99999999/s",
            "load rate=x",
            "net",
            "net latency=30ms..10ms",
            "net latency=x",
            "net bandwidth=0B/s",
            "net bandwidth=x",
            "member add 4 --learner --voter",
            "member add 4 --voter --standby",
            "member add 4 --standby --read-only=weak",
            "member add 4 --read-only=x",
            "member frob",
            "member change",
            "member change add=4 remove=4",
            "member change add=4 leave=x",
            "cut 1->",
            "cut 1->1",
            "partition",
            "partition \"1\"",
            "partition 1 2",
            "partition 1,1 | 2",
            "partition 1 | 1",
            "partition , | 2",
            "partition | 2",
            "partition 1 |",
            "partition 1,",
            "partition 1,2",
            "expect value=",
            "expect msgs-out x",
            "expect queued x",
            "expect watch-events x",
            "expect watch-events 1=",
            "expect watch-events 0=1",
            "expect watch-canceled x",
            "expect role x",
            "expect role 2=",
            "expect role 2=boss",
            "expect progress x",
            "expect progress 2=fast",
            "expect error=nope",
            "expect voters=",
            "expect voters=1,1",
        ] {
            let e = crate::scenario::parse_command(line).unwrap_err();
            assert_eq!(e.message, e.kind.english(), "{line:?}");
            let said = Japanese.unparsed(line, &e);
            assert!(japanese(&said), "{line:?}");
            let kept = [CONDITION_FORMS, line];
            assert_eq!(english_phrase(&said, &kept), None, "{line:?}: {said}");
        }
        for script in [
            "",
            "put a b",
            "cluster voters=1\ncluster voters=2",
            "cluster voters=1\nsay-ja \"x\"",
            "cluster voters=1\nsay \"a\"\nsay-ja \"b\"\nsay-ja \"c\"",
            "cluster seed=1",
            "cluster voters=1 heartbeat=0ms",
            "cluster voters=1 heartbeat=100ms election-timeout=100ms",
            "cluster voters=1 election-timeout=999s",
            "cluster voters=1 failover-after=10ms",
            "cluster voters=1 snapshot-count=0",
            "cluster voters=1 etcd=3.3",
            "cluster voters=1 etcd=3.5 max-learners=2",
            "cluster voters=1 transport=x",
            "cluster voters=1 new-members=x",
            "cluster voters=1 failover=x",
            "cluster voters=1 auto-promote=0%",
            "cluster voters=1 auto-promote=x",
            "cluster voters=1 prevote=x",
        ] {
            let e = crate::scenario::parse_script(script).unwrap_err();
            assert!(japanese(&parse_error(&e.kind)), "{script:?}");
        }
    }

    #[test]
    fn every_result_refusal_and_panel_sentence_is_in_japanese() {
        let mut r = CommandResult::new(1, "member promote 4".into());
        let mut texts = vec![Japanese.result_summary(&r)];
        r.index = Some(3);
        texts.push(Japanese.result_details(&r).unwrap());
        r.value = Some(Some("v".into()));
        texts.push(Japanese.result_summary(&r));
        r.value = Some(None);
        texts.push(Japanese.result_summary(&r));
        r.pending = true;
        texts.push(Japanese.result_summary(&r));
        for code in ErrorCode::ALL {
            let mut failed = CommandResult::new(1, "x".into());
            failed.ok = false;
            failed.error = Some(code.as_str());
            texts.push(Japanese.result_summary(&failed));
            texts.push(Japanese.logged_result(0, &failed, true, true));
            texts.push(Japanese.surprises(&[failed.clone()]));
        }
        texts.push(Japanese.unparsed("x", &ParseError::new(1, 1, ParseErrorKind::Unterminated)));
        texts.push(Japanese.folded(0, 5, "z", 2));
        texts.push(Japanese.branch_started(0, 2, 1));
        texts.push(Japanese.branch_resumed(1, 0));
        for why in [
            Refusal::NoFreeId { max: 15 },
            Refusal::NoLeaderToIsolate,
            Refusal::TooFewToPartition,
            Refusal::NoBranch(9),
            Refusal::LessonHasNoBranches,
            Refusal::RunInProgress,
            Refusal::ClockOverBudget {
                budget: 512 << 20,
                counted: 600 << 20,
            },
            Refusal::ModeChoice {
                option: "failover",
                found: "x".into(),
                choices: &["replace", "grow"],
            },
            Refusal::Modes(ParseError::new(1, 1, ParseErrorKind::Unterminated)),
            Refusal::AutoPromoteRange,
            Refusal::FailoverAfterRange {
                min_ms: 1000,
                max_ms: 600_000,
            },
            Refusal::MaxLearnersRange { max: 15 },
        ] {
            texts.push(Japanese.refusal(&why));
        }
        texts.push(Japanese.nothing_happens());
        texts.push(Japanese.at_the_beginning());
        texts.push(Japanese.seek_cancelled(1500));
        for e in [
            EtcdctlError::Etcdctl("x".into()),
            EtcdctlError::Server {
                code: ErrorCode::MemberNotFound,
                member_id: 1,
            },
            EtcdctlError::Unmodelled {
                command: "del".into(),
            },
            EtcdctlError::UnmodelledFlag {
                command: "get".into(),
                flag: "--prefix".into(),
            },
            EtcdctlError::BadName { name: "a".into() },
            EtcdctlError::SeveralUrls,
        ] {
            let ja = Japanese.etcdctl_refusal(&e);
            // etcdctl's own refusal is quoted as etcdctl prints it.
            if !matches!(e, EtcdctlError::Etcdctl(_)) {
                texts.push(ja);
            }
        }
        texts.push(Japanese.etcdctl_recorded("x"));
        // The panels, from real clusters: with and without a leader, a
        // learner, a quorum lost.
        let mut s = Session::from_script(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember add 4 --learner\n",
        )
        .unwrap();
        for _ in 0..3 {
            let q = QuorumView::of(s.cluster());
            texts.push(Japanese.quorum_verdict(&q));
            texts.push(Japanese.quorum_sentence(&q));
            s.command("isolate 1").unwrap();
            s.command("wait 3s").unwrap();
        }
        for state in [
            NodeState::Leader,
            NodeState::Follower,
            NodeState::Candidate,
            NodeState::PreCandidate,
            NodeState::Down,
            NodeState::NotStarted,
            NodeState::Removed,
        ] {
            texts.push(Japanese.node_head(None, state));
            texts.push(Japanese.node_head(Some(LearnerKind::Plain), state));
        }
        texts.push(Japanese.unreachable_url("http://x"));
        texts.push(Japanese.send_queue(2048));
        texts.push(Japanese.log_title());
        texts.push(Japanese.log_row(1, true));
        texts.push(Japanese.no_log());
        for mark in LogMark::ALL {
            texts.push(Japanese.log_mark(mark));
        }
        let v = ViolationView {
            time_ms: 1,
            property: "election safety".into(),
            nodes: vec![1, 2],
            text: String::new(),
        };
        texts.push(Japanese.safety_headline(&[]));
        texts.push(Japanese.safety_headline(&[v.clone(), v.clone()]));
        texts.push(Japanese.violation(&v));
        texts.push(Japanese.safety_list_head(0));
        texts.push(Japanese.safety_list_head(2));
        texts.push(Japanese.safety_tip(true));
        texts.push(Japanese.safety_tip(false));
        for t in texts {
            assert!(japanese(&t), "not Japanese: {t}");
        }
        // Progress states are Raft's own words, as in etcd's tracker.
        let p = ProgressView {
            matched: 1,
            next: 2,
            state: ProgressState::Replicate,
        };
        assert_eq!(Japanese.progress(&p, false), English.progress(&p, false));
    }

    #[test]
    fn every_safety_property_has_a_translation() {
        let src = include_str!("../sim/invariants.rs");
        let mut n = 0;
        for line in src.lines() {
            for p in line.split('"').skip(1).step_by(2) {
                if [
                    "election safety",
                    "log matching",
                    "leader completeness",
                    "state machine safety",
                    "leader append-only",
                    "term monotonicity",
                    "commit monotonicity",
                    "learners never campaign",
                ]
                .contains(&p)
                {
                    n += 1;
                    assert!(japanese(&property(p)), "{p}");
                }
            }
        }
        assert!(n >= 8);
    }

    #[test]
    fn every_server_refusal_is_said_in_japanese_from_its_facts() {
        // The check itself: a phrase is caught, a list or a kept text not.
        assert_eq!(
            english_phrase("ノード 2 は (is not running)", &[]),
            Some("is not running".to_string())
        );
        assert_eq!(
            english_phrase("使えるのは: add, promote, remove", &[]),
            None
        );
        assert_eq!(
            english_phrase("拒否: etcdserver: no leader", &["etcdserver: no leader"]),
            None
        );
        let samples = crate::server::ServerError::samples();
        assert!(samples.len() >= 30, "{}", samples.len());
        for e in samples {
            let en = crate::scenario::text_en::server_detail(&e);
            let ja = server_detail(&e);
            assert!(japanese(&ja), "no Japanese for {:?}: {ja}", e.why);
            assert_ne!(ja, en, "{:?}", e.why);
            let kept = kept_texts(&e);
            assert_eq!(english_phrase(&ja, &kept), None, "{:?}: {ja}", e.why);
            // The English sentence is the report's detail, as before.
            assert_eq!(crate::scenario::text_en::server_detail(&e), en);
            // A result that failed with it reads in Japanese on the page.
            let mut r = CommandResult::new(1, "member promote 4".into());
            r.fail(e.clone());
            assert_eq!(r.detail.as_deref(), Some(en.as_str()));
            let summary = Japanese.result_summary(&r);
            assert!(summary.contains(&ja), "{summary}");
            assert_eq!(english_phrase(&summary, &kept), None, "{summary}");
            let logged = Japanese.logged_result(0, &r, true, false);
            assert_eq!(english_phrase(&logged, &kept), None, "{logged}");
        }
        // The one sentence English cannot finish by itself: a detail with
        // facts of its own beyond etcd's text is never etcd's text alone.
        let not_ready = crate::server::reconfig::check_learner_ready(4, 3, 12).unwrap_err();
        assert_eq!(
            server_detail(&not_ready),
            "学習者メンバー 4 の match 3 はリーダーの match 12 の 90% に届かない"
        );
    }

    #[test]
    fn every_failed_expectation_is_said_in_japanese_from_its_facts() {
        use crate::scenario::ast::Condition;
        use crate::scenario::cond::Unmet;
        for u in Unmet::samples() {
            let en = crate::scenario::text_en::unmet(&u);
            let ja = unmet(&u);
            assert!(japanese(&ja), "no Japanese for {u:?}: {ja}");
            assert_ne!(ja, en, "{u:?}");
            assert_eq!(english_phrase(&ja, &[]), None, "{u:?}: {ja}");
            for f in [
                Failure::Expect {
                    cond: Condition::Leader,
                    unmet: u.clone(),
                },
                Failure::WaitUntil {
                    cond: Condition::CaughtUp(4),
                    within_ms: 2000,
                    unmet: u.clone(),
                },
            ] {
                let mut r = CommandResult::new(3, "expect leader".into());
                r.fail(f.clone());
                let en_detail = crate::scenario::text_en::failure_detail(&f);
                assert_eq!(r.detail.as_deref(), Some(en_detail.as_str()));
                let said = Japanese.result_summary(&r);
                assert!(said.contains(&ja), "{said}");
                assert_eq!(english_phrase(&said, &[]), None, "{said}");
                assert!(!said.contains(&en_detail), "{said}");
            }
        }
        // The English sentences stay the report's, word for word.
        let f = Failure::Expect {
            cond: Condition::LeaderIs(2),
            unmet: Unmet::LeaderIs(3),
        };
        assert_eq!(
            crate::scenario::text_en::failure_detail(&f),
            "expected leader=2, but the leader is 3"
        );
        assert_eq!(failure_detail(&f), "leader=2 を期待したが、リーダーは 3");
    }

    /// Refused commands in a real run: the page's Japanese line says each
    /// refusal in Japanese, while the report keeps the English detail.
    #[test]
    fn refused_promotions_read_in_japanese_and_report_in_english() {
        let script = "cluster voters=1,2,3\nwait-until leader within=5s\nmember promote 2\n\
                      wait 1s\nmember promote 2\n";
        let session = Session::run(&crate::scenario::parse_script(script).unwrap());
        let early = &session.results()[1];
        assert_eq!(early.error, Some("learner-not-ready"));
        let en = early.detail.clone().unwrap();
        assert!(
            en.starts_with("learner 2 match 0 < 90% of leader match"),
            "{en}"
        );
        let ja = Japanese.result_summary(early);
        assert!(
            ja.starts_with(
                "エラー learner-not-ready（学習者メンバーがまだリーダーに追いついていない）: \
                 学習者メンバー 2 の match 0 はリーダーの match"
            ),
            "{ja}"
        );
        assert_eq!(english_phrase(&ja, &[]), None, "{ja}");
        let late = &session.results()[3];
        assert_eq!(late.error, Some("member-not-learner"));
        let en = late.detail.clone().unwrap();
        assert_eq!(en, MemberError::MemberNotLearner.etcd_text());
        let ja = Japanese.result_summary(late);
        assert!(
            ja.starts_with("エラー member-not-learner（学習者メンバーではない）"),
            "{ja}"
        );
        assert_eq!(english_phrase(&ja, &[&en]), None, "{ja}");
        assert_ne!(ja.replace(&en, ""), ja, "etcd's text is quoted: {ja}");
    }

    #[test]
    fn every_link_and_file_refusal_is_said_in_japanese_from_its_facts() {
        let samples = ShareProblem::samples();
        assert_eq!(samples.len(), 13);
        for p in samples {
            let e = crate::scenario::share::ShareError {
                kind: p.kind(),
                message: p.english(),
                parse: None,
                problem: Box::new(p.clone()),
            };
            let ja = Japanese.share_refusal(&e);
            assert!(japanese(&ja), "no Japanese for {p:?}: {ja}");
            assert_ne!(ja, English.share_refusal(&e), "{p:?}");
            assert_eq!(English.share_refusal(&e), p.english());
            assert_eq!(english_phrase(&ja, &[]), None, "{p:?}: {ja}");
        }
        // A real link and file: the words of the error each carries.
        let bad = crate::scenario::share::decode_link("#v1.ab$").unwrap_err();
        assert_eq!(
            Japanese.share_refusal(&bad),
            "リンクのペイロードが base64url ではない: 3 文字目に '$'（「#v1.」の後に使えるのは英字、数字、「-」、「_」だけ）"
        );
        let bad = crate::scenario::share::import_scenario("cluster voters=1\nput \"a").unwrap_err();
        let ja = Japanese.share_refusal(&bad);
        assert!(
            ja.starts_with("ファイルのスクリプトを解釈できない: 2 行目"),
            "{ja}"
        );
        assert!(bad
            .message
            .starts_with("the file holds a script that does not parse"));
        assert_eq!(Japanese.no_lesson("x"), "レッスン \"x\" はない");
        assert_eq!(English.no_lesson("x"), "there is no lesson \"x\"");
    }

    /// Every Japanese sentence this module makes for a broad corpus: each
    /// event, result, refusal, parse error, server error, unmet condition
    /// and link problem the samples build, each panel word, and every
    /// lesson played step by step on a Japanese page. With
    /// `RAFTLAB_JA_GOLDEN=FILE` the corpus is written to FILE when it does
    /// not exist, else compared with it line by line (a check kept for
    /// changes to how the sentences are made: the words must not move).
    fn golden_corpus() -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for kind in every_event() {
            out.push(Japanese.event(&Event { time_ms: 5, kind }));
        }
        for r in [
            "lease",
            "already voted",
            "leader known",
            "log not up to date",
            "learner",
            "no leader",
            "already leader",
            "pending configuration changes to apply",
            "not a follower",
            "unknown member",
            "transfer already in progress",
            "leadership transfer in progress",
            "leader not in the configuration",
            "must transition out of joint config first",
            "config is already joint",
            "can't make a zero-voter config joint",
            "can't leave a non-joint config",
            "can't apply simple config change in joint config",
            "more than one voter changed without entering joint config",
            "removed all voters",
            "something else",
        ] {
            out.push(reason(r));
            use RaftEvent::*;
            for event in [
                VoteRejected {
                    candidate: 2,
                    term: 3,
                    pre_vote: true,
                    reason: r.into(),
                },
                ProposalDropped { reason: r.into() },
                TransferIgnored {
                    to: 2,
                    reason: r.into(),
                },
                IgnoredTimeoutNow { reason: r.into() },
                CampaignIgnored { reason: r.into() },
            ] {
                out.push(raft_sentence(1, &event));
            }
        }
        for kind in ParseErrorKind::samples() {
            out.push(parse_error(&kind));
            out.push(Japanese.unparsed("x y", &ParseError::new(2, 3, kind.clone())));
            out.push(Japanese.refusal(&Refusal::Modes(ParseError::new(1, 4, kind))));
        }
        for w in [
            "node id",
            "quoted text",
            "duration",
            "a key",
            "a value",
            "a condition",
            "a number",
            "a revision",
            "an error code",
            "a size",
            "state",
            "a member subcommand (add, promote, remove, list, change or leave-joint)",
            "N=K",
        ] {
            out.push(missing_ja(w));
        }
        for e in crate::server::ServerError::samples() {
            out.push(server_detail(&e));
            let mut r = CommandResult::new(1, "member promote 4".into());
            r.fail(e.clone());
            out.push(Japanese.result_summary(&r));
            out.push(Japanese.logged_result(1234, &r, true, false));
            out.push(Japanese.logged_result(1234, &r, false, true));
            out.push(Japanese.surprises(&[r]));
        }
        for u in Unmet::samples() {
            out.push(unmet(&u));
            for f in [
                Failure::Expect {
                    cond: crate::scenario::ast::Condition::Leader,
                    unmet: u.clone(),
                },
                Failure::WaitUntil {
                    cond: crate::scenario::ast::Condition::CaughtUp(4),
                    within_ms: 2000,
                    unmet: u.clone(),
                },
            ] {
                let mut r = CommandResult::new(3, "expect leader".into());
                r.fail(f.clone());
                out.push(failure_detail(&f));
                out.push(Japanese.result_summary(&r));
            }
        }
        for p in ShareProblem::samples() {
            out.push(share_problem(&p));
        }
        for code in ErrorCode::ALL {
            out.push(error_meaning(code).to_string());
            out.push(code_text(code.as_str()));
            let mut failed = CommandResult::new(1, "x".into());
            failed.ok = false;
            failed.error = Some(code.as_str());
            out.push(Japanese.result_summary(&failed));
            failed.detail = Some("d".into());
            out.push(Japanese.result_summary(&failed));
        }
        out.push(code_text("not-a-code"));
        let mut r = CommandResult::new(1, "member list".into());
        out.push(Japanese.result_summary(&r));
        r.detail = Some("done".into());
        out.push(Japanese.result_summary(&r));
        r.index = Some(3);
        r.deleted = Some(0);
        out.extend(Japanese.result_details(&r));
        r.deleted = Some(2);
        r.revision = Some(7);
        r.watch = Some(1);
        r.events = Some(vec![]);
        out.extend(Japanese.result_details(&r));
        r.revision = None;
        out.extend(Japanese.result_details(&r));
        r.value = Some(Some("v\"q".into()));
        out.push(Japanese.result_summary(&r));
        r.value = Some(None);
        out.push(Japanese.result_summary(&r));
        r.pending = true;
        out.push(Japanese.result_summary(&r));
        for stop in [
            Stop {
                reason: "memory",
                line: Some(3),
                command: Some("wait 3600s".into()),
                reached_ms: 2_688_000,
                time_ms: 20_000,
                commands_left: 2,
                budget_bytes: Some(512 << 20),
                counted_bytes: Some(519 << 20),
                max_wall_ms: None,
                message: String::new(),
            },
            Stop {
                reason: "max-wall",
                line: None,
                command: None,
                reached_ms: 1_000,
                time_ms: 500,
                commands_left: 0,
                budget_bytes: None,
                counted_bytes: None,
                max_wall_ms: Some(30_000),
                message: String::new(),
            },
            Stop {
                reason: "cancelled",
                line: Some(1),
                command: Some("x".into()),
                reached_ms: 1_000,
                time_ms: 500,
                commands_left: 0,
                budget_bytes: None,
                counted_bytes: None,
                max_wall_ms: None,
                message: String::new(),
            },
        ] {
            out.push(Japanese.stopped(&stop));
            out.push(failure_detail(&Failure::Stopped(Box::new(stop))));
        }
        out.push(Japanese.time(12345));
        out.push(Japanese.time_span(10, 20990));
        out.push(Japanese.echo("put a b"));
        out.push(Japanese.folded(0, 5, "z", 2));
        out.push(Japanese.folded(7, 7, "z", 3));
        for (first, last, pre, granted, refused) in [
            (0, 0, true, vec![], vec![]),
            (1000, 2500, false, vec![2, 3], vec![("lease", vec![4, 5])]),
            (1000, 2500, true, vec![], vec![("odd", vec![4])]),
        ] {
            out.push(Japanese.campaign_folded(&CampaignFold {
                node: 3,
                pre_vote: pre,
                first_ms: first,
                last_ms: last,
                campaigns: 14,
                term: 9,
                granted,
                refused,
            }));
        }
        out.push(Japanese.branch_started(1230, 2, 1));
        out.push(Japanese.branch_resumed(1, 4560));
        for why in [
            Refusal::NoFreeId { max: 15 },
            Refusal::NoLeaderToIsolate,
            Refusal::TooFewToPartition,
            Refusal::NoBranch(9),
            Refusal::LessonHasNoBranches,
            Refusal::RunInProgress,
            Refusal::ClockOverBudget {
                budget: 512 << 20,
                counted: 600 << 20,
            },
            Refusal::ModeChoice {
                option: "failover",
                found: "x".into(),
                choices: &["replace", "grow"],
            },
            Refusal::AutoPromoteRange,
            Refusal::FailoverAfterRange {
                min_ms: 1000,
                max_ms: 600_000,
            },
            Refusal::MaxLearnersRange { max: 15 },
        ] {
            out.push(Japanese.refusal(&why));
        }
        out.push(Japanese.nothing_happens());
        out.push(Japanese.at_the_beginning());
        out.push(Japanese.seek_cancelled(1500));
        for e in [
            EtcdctlError::Etcdctl("x".into()),
            EtcdctlError::Server {
                code: ErrorCode::MemberNotFound,
                member_id: 0xabc,
            },
            EtcdctlError::Unmodelled {
                command: "del".into(),
            },
            EtcdctlError::UnmodelledFlag {
                command: "get".into(),
                flag: "--prefix".into(),
            },
            EtcdctlError::BadName { name: "a".into() },
            EtcdctlError::SeveralUrls,
        ] {
            out.push(Japanese.etcdctl_refusal(&e));
        }
        out.push(Japanese.etcdctl_recorded("x"));
        out.push(Japanese.no_lesson("x"));
        for state in [
            NodeState::Leader,
            NodeState::Follower,
            NodeState::Candidate,
            NodeState::PreCandidate,
            NodeState::Down,
            NodeState::NotStarted,
            NodeState::Removed,
        ] {
            out.push(state_name(state).to_string());
            for kind in [
                None,
                Some(LearnerKind::Plain),
                Some(LearnerKind::Standby),
                Some(LearnerKind::ReadOnly(crate::server::ReadMode::Weak)),
                Some(LearnerKind::ReadOnly(crate::server::ReadMode::Strong)),
            ] {
                out.push(Japanese.node_head(kind, state));
            }
        }
        out.push(Japanese.auto_promote_at(90));
        for left_ms in [0, 2500] {
            out.push(Japanese.failover_countdown(&FailoverView {
                silent_ms: 1000,
                after_ms: 3000,
                left_ms,
            }));
        }
        for compact in [true, false] {
            out.push(Japanese.message_counts(3, 4, compact));
            let p = ProgressView {
                matched: 1,
                next: 2,
                state: ProgressState::Replicate,
            };
            out.push(Japanese.progress(&p, compact));
        }
        for client in [
            crate::server::history::SCRIPT_CLIENT,
            crate::server::history::LOAD_CLIENT,
            7,
        ] {
            out.push(Japanese.history_lane("k y", client));
        }
        for kind in [OpName::Write, OpName::Read, OpName::Delete] {
            out.push(Japanese.history_op(kind, Some("v")));
            out.push(Japanese.history_op(kind, None));
        }
        out.push(Japanese.history_tick(12345));
        for v in [
            HistoryVerdict::Empty,
            HistoryVerdict::Linearizable {
                operations: 5,
                keys: 2,
            },
            HistoryVerdict::StaleRead {
                key: "k".into(),
                read_value: Some("a".into()),
                read_ms: 1200,
                missed_value: None,
                missed_done_ms: 900,
            },
            HistoryVerdict::NotLinearizable {
                key: "k".into(),
                operations: 3,
            },
        ] {
            out.push(Japanese.history_verdict(&v));
        }
        out.push(Japanese.history_note(0, 2000, 3, 9, 0));
        out.push(Japanese.history_note(0, 2000, 3, 9, 2));
        out.push(Japanese.unreachable_url("http://x"));
        for bytes in [12, 2048, 3 << 20] {
            out.push(Japanese.send_queue(bytes));
        }
        out.push(Japanese.log_title());
        out.push(Japanese.log_row(1, true));
        out.push(Japanese.log_row(2, false));
        out.push(Japanese.no_log());
        out.push(Japanese.ring_caption(Some((1, 2)), 5));
        out.push(Japanese.ring_caption(None, 5));
        for mark in LogMark::ALL {
            out.push(Japanese.log_mark(mark));
        }
        for p in [
            "election safety",
            "log matching",
            "leader completeness",
            "state machine safety",
            "leader append-only",
            "term monotonicity",
            "commit monotonicity",
            "learners never campaign",
            "other",
        ] {
            let v = ViolationView {
                time_ms: 1,
                property: p.into(),
                nodes: vec![1, 2],
                text: String::new(),
            };
            let w = ViolationView {
                time_ms: 1,
                property: p.into(),
                nodes: vec![],
                text: "said".into(),
            };
            out.push(Japanese.safety_headline(&[v.clone()]));
            out.push(Japanese.safety_headline(&[v.clone(), w.clone(), v.clone()]));
            out.push(Japanese.violation(&v));
            out.push(Japanese.violation(&w));
        }
        out.push(Japanese.safety_headline(&[]));
        out.push(Japanese.safety_list_head(0));
        out.push(Japanese.safety_list_head(2));
        out.push(Japanese.safety_tip(true));
        out.push(Japanese.safety_tip(false));
        out.push(seconds(1234));
        // Every lesson played on a Japanese page, step by step, with its
        // panels; and each lesson's run narrated as `raftlab run` says it.
        for lesson in crate::scenario::lessons::lessons().unwrap() {
            let mut e = crate::app::engine::Engine::from_script("cluster voters=1\n").unwrap();
            e.set_language(crate::scenario::lang::Language::Japanese);
            e.open_lesson(&lesson.id).unwrap();
            for _ in 0..200 {
                let step = e
                    .lesson_step(crate::app::engine::LessonMove::Next)
                    .unwrap();
                out.extend(step.lines.iter().map(|l| format!("{l:?}")));
                out.extend(step.surprise.clone());
                out.push(format!("{:?}", e.quorum()));
                out.push(format!("{:?}", e.lesson()));
                out.push(format!("{:?}", e.history_scene()));
                let q = QuorumView::of(e.cluster());
                out.push(Japanese.quorum_sentence(&q));
                if step.finished {
                    break;
                }
            }
            let mut s = lesson.run();
            for line in s.take_narration() {
                out.push(Japanese.trace(&line));
            }
            for r in s.results() {
                out.push(Japanese.logged_result(0, r, true, false));
                out.extend(Japanese.result_details(r));
            }
        }
        // Random runs, for the sentences no lesson reaches.
        for seed in 0..40 {
            let (_, mut s) = crate::scenario::fuzz::generate(seed, 20_000);
            for line in s.take_narration() {
                out.push(Japanese.trace(&line));
            }
            for r in s.results() {
                out.push(Japanese.logged_result(0, r, true, false));
                out.extend(Japanese.result_details(r));
            }
        }
        out
    }

    #[test]
    fn japanese_golden_corpus() {
        let corpus = golden_corpus();
        assert!(corpus.len() > 5000, "{}", corpus.len());
        let Ok(path) = std::env::var("RAFTLAB_JA_GOLDEN") else {
            return;
        };
        let text = corpus
            .iter()
            .map(|l| l.replace('\\', "\\\\").replace('\n', "\\n"))
            .collect::<Vec<_>>()
            .join("\n");
        match std::fs::read_to_string(&path) {
            Err(_) => std::fs::write(&path, text).unwrap(),
            Ok(old) => {
                for (k, (a, b)) in old.lines().zip(text.lines()).enumerate() {
                    assert_eq!(a, b, "line {}", k + 1);
                }
                assert_eq!(old.lines().count(), text.lines().count());
            }
        }
    }
}
