// The page's own words in English and 日本語: labels, tooltips, help and
// the messages app.js writes. Every sentence about the run (events, results,
// panels' verdicts, the canvas) is made in Rust by the language's Renderer;
// this table holds only what the page itself says. The vocabulary follows
// the design document (docs/glossary-ja.md).
//
// `PAGE` binds index.html's elements to keys: [selector, what, key], where
// `what` is "text", "html" (trusted: from this table), "lead" (the first
// text of the element, before its children), or an attribute name.
// tests/e2e/i18n.test.mjs fails when a key lacks a language, a selector
// matches nothing, or English is left on the Japanese page.

export const LANGS = { en: "English", ja: "日本語" };

export const STRINGS = {
  en: {
    "doc.title": "raftlab: Raft with learners",
    "aria.time": "Time", "aria.runs": "Lessons and runs", "aria.reset": "Reset", "aria.tools": "Cluster actions",
    "aria.add": "Add a member", "aria.network": "Network", "aria.clients": "Clients", "aria.cluster": "The cluster",
    "aria.legend": "Legend", "aria.timeline": "Timeline of the run", "aria.lessonStrip": "Lesson progress",
    "aria.details": "Details", "aria.data": "Data", "aria.safety": "Raft safety", "aria.close": "Close",
    "aria.lang": "Language", "aria.canvas": "The cluster drawn live: nodes, links, messages and logs. Click a node for its actions, a link to cut or heal it.",
    "aria.scrub": "Moment of the run: drag, or use the arrow keys, Page Up and Down, Home and End",
    "aria.shareLink": "The link to this run", "aria.key": "key", "aria.value": "value",
    "play": "Play", "pause": "Pause", "play.tip": "Play or pause (space)",
    "play.tipLesson": "Play or pause (space). In a lesson, letting the clock run leaves the lesson's path",
    "step": "Step ▸", "step.tip": "Run to the next event (right arrow)", "speed": "speed",
    "lessons": "Lessons", "lessons.tip": "Guided lessons: the learner design, figure by figure",
    "share": "Share", "share.tip": "Copy a link that opens this run at this moment",
    "export": "Export", "export.tip": "Download this run as a .scenario file",
    "import": "Import", "import.tip": "Open a .scenario file (or drop one on the page)",
    "seed": "seed ", "reset": "Reset", "reset.tip": "Start again from a fresh cluster with this seed (leaves a lesson)",
    "aside.tip": "Hide or show the side panel", "help.tip": "Help and keyboard shortcuts (?)",
    "group.add": "add member", "group.network": "network", "group.client": "client",
    "voter": "voter", "voter.tip": "member add N: a new voter (its process is not started yet)",
    "learner": "learner", "learner.tip": "member add N --learner",
    "bad": "misconfigured", "bad.tip": "member add N with a peer URL that reaches nobody",
    "isolate": "isolate leader", "isolate.tip": "isolate the leader",
    "split31": "split 3+1", "split31.tip": "partition: the leader with two others | the rest",
    "split22": "split 2+2", "split22.tip": "partition into two halves",
    "heal": "heal all", "heal.tip": "heal every link",
    "put": "put", "put.tip": "put a key through the leader",
    "load": "load", "load.tip": "start or stop a steady write load",
    "legend.leader": "leader", "legend.follower": "follower", "legend.precandidate": "pre-candidate",
    "legend.candidate": "candidate", "legend.down": "down", "legend.learner": "learner",
    "legend.timer": "election timer", "legend.append": "append", "legend.heartbeat": "heartbeat",
    "legend.prevote": "pre-vote", "legend.vote": "vote", "legend.snapshot": "snapshot",
    "legend.readindex": "read index", "legend.transfer": "transfer", "legend.note": "replies lighter · size ∝ log(bytes)",
    "legend.cut": "cut link",
    "popup.node": "node", "act.start": "start", "act.crash": "crash", "act.campaign": "campaign",
    "act.transfer": "transfer leadership here", "act.promote": "promote", "act.remove": "remove", "act.get": "get",
    "back": "◂ back", "back.tip": "Step back to the previous event (←)",
    "live": "live »", "live.tip": "Back to the live edge of the run", "branch": "branch",
    "branch.help": "Acting in the past starts a new branch; the run you left is kept here.",
    "strip.lesson": "lesson", "leave": "leave lesson", "leave.tip": "Leave the lesson and return to your sandbox run",
    "off": "You left the lesson's path (a command of your own, or the clock ran): what follows may not go as the lesson says.",
    "rejoin": "↩ return to the lesson", "lback": "◂ Back", "lback.tip": "Back one step (←)",
    "restart": "⟲ Restart", "restart.tip": "From the start", "next": "Next ▸", "next.tip": "Play the step to the next pause (→); press again to skip to it",
    "skip": "Skip ▸▸", "skip.tip": "Run the rest of the step at once, to its pause (→)",
    "begin": "Begin ▸", "nextLesson": "Next lesson ▸",
    "quorum": "quorum", "tab.events": "events", "tab.keys": "keys", "tab.script": "script",
    "clear": "clear", "clear.tip": "Clear the events", "copy": "copy",
    "console.placeholder": "a scenario command: put k v · crash 1 · member add 4 --learner · etcdctl member list · wait 2s   (↑↓ history)",
    "run": "run", "drop": "Drop a <b>.scenario</b> file to open it",
    "lessons.intro": "Each lesson tells one story of the learner design, figure by figure, on the live cluster. <b>Next</b> plays the step up to its pause, the clock running as you watch (the speed control sets the pace; press Next again to skip to the pause); the clock stands still between steps. You may still click and type: that leaves the lesson's path, and <b>return to the lesson</b> puts it back. Your sandbox run waits until you leave the lesson.",
    "share.h": "Share this run", "share.why": "The clipboard is not available here: copy the link below (it is selected).",
    "help.p1": "An etcd Raft cluster with learners, simulated deterministically and stepped live. Every button runs a command of the scenario language; the <b>script</b> tab holds everything you did, replayable as it is. The console also takes etcdctl's own commands (<code>etcdctl member list</code>).",
    "help.shapes": "Shapes",
    "help.p2": "A solid disc is a voter; a hollow dashed hexagon is a learner. The colour is the role. The ring around a follower fills as its election timer runs; when it is full the node campaigns. Next to each peer, the leader's view: <i>match</i>, <i>next</i> and the progress state (probe, replicate, snapshot). A learner's bar shows its catch-up, with etcd's 90% promotion line.",
    "help.travel": "Time travel",
    "help.p3": "The timeline under the cluster holds the whole run: drag it to any moment (ticks mark your commands, triangles the elections), step back an event at a time, and press Play to run on from there. Acting in the past starts a new branch; the run you left stays in the branch list.",
    "help.share": "Share",
    "help.p4": "<b>Share</b> copies a link that opens this run at this moment, for anyone; <b>Export</b> downloads it as a <code>.scenario</code> script, which <b>Import</b> (or dropping the file on the page) opens again.",
    "help.mouse": "Mouse",
    "help.p5": "Click a node for its actions. Click a link to cut or heal it; shift-click to cut one direction only, from the nearer node.",
    "help.keys": "Keys",
    "help.dl": "<dt>space</dt><dd>play / pause</dd><dt>→</dt><dd>step to the next event (in a lesson: Next)</dd><dt>←</dt><dd>step back to the previous event (in a lesson: Back)</dd><dt>/</dt><dd>focus the console</dd><dt>↑ ↓</dt><dd>console history</dd><dt>?</dt><dd>this help</dd><dt>esc</dt><dd>close</dd>",
    "close": "close",
    // Messages app.js writes.
    "error": "error: {msg}",
    "none": "none", "row.leader": "leader", "row.voters": "voters", "row.learners": "learners",
    "row.learnersOf": "({n} of max {max})", "row.quorum": "quorum", "row.quorumOf": "{q} of {n} voters",
    "row.reachable": "reachable", "row.noLeader": "no leader", "row.acked": "acked commit {commit}",
    "status": "{voters} voters, {learners} learners, leader {leader}",
    "past.tip": "in the past of the run: the timeline's live button returns to its end",
    "keys.node": "node {id}", "keys.learner": "learner", "keys.applied": "applied {n}", "keys.none": "no keys", "keys.down": "not running",
    "role.leader": "leader", "role.follower": "follower", "role.candidate": "candidate", "role.pre-candidate": "pre-candidate",
    "role.down": "down", "role.not started": "not started", "role.removed": "removed",
    "popup.title": "node {id} · {kind}", "popup.voter": "voter", "popup.learner": "learner",
    "popup.term": "term {n}", "popup.commit": "commit {n}", "popup.applied": "applied {n}",
    "popup.badUrl": "this URL reaches no host: the process cannot join",
    "clockRuns": "The clock runs: this leaves the lesson's path (the lesson's next step may not go as it says). “Return to the lesson” puts it back.",
    "scrub.value": "t = {now} of {end}", "scrub.live": ", the live edge", "scrub.past": ", in the past",
    "scrub.timeLive": "{now} · live", "scrub.timeOf": "{now} of {end}",
    "branch.first": "the first run", "branch.from": "from {t}", "branch.here": " (here)",
    "tip.leads": "node {id} leads (term {term})",
    "fig": "fig.", "figure": "figure", "figures": "figures", "proposal": "proposal",
    "proposal.learner-by-default": "learner by default", "proposal.auto-promotion": "automatic promotion",
    "proposal.failover": "standby for failover", "proposal.read-only": "read-only learner", "steps": "({n} steps)",
    "lesson.start": "Lesson {number}: {title}. Press Next (or →) to begin; the clock stands still between steps.",
    "lesson.atStart": "The lesson's start: press Next to begin.",
    "lesson.over": "The lesson is over: Restart it, pick another, or leave it.",
    "lesson.back": "↩ Back on the lesson's path.",
    "lesson.left": "You left the lesson: this is your sandbox run, as you left it.",
    "lesson.kicker": "Lesson {number} · {figures}", "lesson.pressNext": "Press Next to begin.",
    "lesson.end": "The end of the lesson.", "lesson.stepOf": "step {k} of {n}", "lesson.finished": "finished",
    "lesson.nextTitle": "Lesson {number}: {title}", "dot.start": "the lesson's start", "dot.after": "after step {k}",
    "dot.gotoStart": "go to the lesson's start", "dot.goto": "go to step {k} of {n}",
    "arith.voters": "voters", "arith.quorum": "quorum", "arith.reachable": "reachable",
    "share.copied": "Link copied: it opens this run at t = {t}.",
    "share.logged": "A link to this run at t = {t} is on the clipboard.",
    "share.noClipboard": "The clipboard is not available here: copy the link below (it is selected). It opens this run at t = {t}.",
    "share.shown": "A link to this run at t = {t} is shown to copy.",
    "open.refused": "{what} was refused: {error}", "open.link": "The link", "open.file": "The file {name}", "open.theFile": "The file",
    "open.done": "{what} opened: the same run, at t = {t}{of}. Press Play to run on from here.", "open.of": " of {end}",
    "file.tooBig": "{name} is {size} bytes, more than the 1 MB a .scenario file may have", "file.none": "no file",
    "exported": "↓ raftlab-run.scenario: this run, at t = {t}.",
    "link.refused": "✗ The link in this page's address was refused: {error}. Here is a fresh cluster instead.",
    "link.opened": "A shared run, opened at t = {t}. Press Play to run on from here, or drag the timeline.",
    "welcome": "Welcome. The three voters are waiting for their election timers (the rings). Click a node or a link, or type a command below. Press ? for help, or open the Lessons.",
    "lang.switched": "Language: English. Lines already in the log keep their words.",
    "sec": "{s} s",
  },
  ja: {
    "doc.title": "raftlab: 学習者メンバーのいる Raft",
    "aria.time": "時間", "aria.runs": "レッスンと実行", "aria.reset": "リセット", "aria.tools": "クラスターの操作",
    "aria.add": "メンバー追加", "aria.network": "ネットワーク", "aria.clients": "クライアント", "aria.cluster": "クラスター",
    "aria.legend": "凡例", "aria.timeline": "実行のタイムライン", "aria.lessonStrip": "レッスンの進み具合",
    "aria.details": "詳細", "aria.data": "データ", "aria.safety": "Raft の安全性", "aria.close": "閉じる",
    "aria.lang": "言語", "aria.canvas": "クラスターの実況図: ノード、リンク、メッセージ、ログ。ノードをクリックすると操作、リンクをクリックすると切断・復旧。",
    "aria.scrub": "実行の時点: ドラッグ、または矢印キー、Page Up / Down、Home、End",
    "aria.shareLink": "この実行へのリンク", "aria.key": "キー", "aria.value": "値",
    "play": "再生", "pause": "一時停止", "play.tip": "再生 / 一時停止（スペース）",
    "play.tipLesson": "再生 / 一時停止（スペース）。レッスン中に時計を進めるとレッスンの筋書きから外れる",
    "step": "ステップ ▸", "step.tip": "次のイベントまで進める（→）", "speed": "速度",
    "lessons": "レッスン", "lessons.tip": "ガイド付きレッスン: 学習者メンバーの設計を図ごとに",
    "share": "共有", "share.tip": "この実行をこの時点で開くリンクをコピー",
    "export": "書き出し", "export.tip": "この実行を .scenario ファイルとしてダウンロード",
    "import": "読み込み", "import.tip": ".scenario ファイルを開く（ページにドロップしてもよい）",
    "seed": "シード ", "reset": "リセット", "reset.tip": "このシードの新しいクラスターでやり直す（レッスンを離れる）",
    "aside.tip": "サイドパネルの表示 / 非表示", "help.tip": "ヘルプとキーボードショートカット（?）",
    "group.add": "メンバー追加", "group.network": "ネットワーク", "group.client": "クライアント",
    "voter": "投票メンバー", "voter.tip": "member add N: 新しい投票メンバー（プロセスはまだ起動しない）",
    "learner": "学習者", "learner.tip": "member add N --learner",
    "bad": "設定ミス", "bad.tip": "どこにも届かないピアURLで member add N",
    "isolate": "リーダーを孤立", "isolate.tip": "リーダーを孤立させる",
    "split31": "3+1 に分断", "split31.tip": "ネットワーク分断: リーダーと他の2つ | 残り",
    "split22": "2+2 に分断", "split22.tip": "半分ずつに分断",
    "heal": "すべて復旧", "heal.tip": "すべてのリンクを復旧",
    "put": "put", "put.tip": "リーダー経由でキーを書き込む",
    "load": "負荷", "load.tip": "一定の書き込み負荷を開始 / 停止",
    "legend.leader": "リーダー", "legend.follower": "フォロワー", "legend.precandidate": "事前候補者",
    "legend.candidate": "候補者", "legend.down": "停止", "legend.learner": "学習者",
    "legend.timer": "選挙タイマー", "legend.append": "追記", "legend.heartbeat": "ハートビート",
    "legend.prevote": "事前投票", "legend.vote": "投票", "legend.snapshot": "スナップショット",
    "legend.readindex": "read index", "legend.transfer": "移譲", "legend.note": "応答は淡色 · 大きさ ∝ log(バイト数)",
    "legend.cut": "切断されたリンク",
    "popup.node": "ノード", "act.start": "起動", "act.crash": "クラッシュ", "act.campaign": "立候補",
    "act.transfer": "リーダーシップをここへ移譲", "act.promote": "昇格", "act.remove": "削除", "act.get": "get",
    "back": "◂ 戻る", "back.tip": "前のイベントへ戻る（←）",
    "live": "ライブ »", "live.tip": "実行の最新時点へ戻る", "branch": "分岐",
    "branch.help": "過去で操作すると新しい分岐が始まる。元の実行はここに残る。",
    "strip.lesson": "レッスン", "leave": "レッスンを離れる", "leave.tip": "レッスンを離れ、自分のサンドボックスの実行へ戻る",
    "off": "レッスンの筋書きから外れた（自分のコマンド、または時計が進んだ）: この先はレッスンの説明どおりにならないかもしれない。",
    "rejoin": "↩ レッスンに戻る", "lback": "◂ 戻る", "lback.tip": "1ステップ戻る（←）",
    "restart": "⟲ 最初から", "restart.tip": "最初から", "next": "次へ ▸", "next.tip": "次の区切りまでステップを再生する（→）。もう一度押すと区切りまで飛ばす",
    "skip": "飛ばす ▸▸", "skip.tip": "ステップの残りを一度に実行して区切りまで進める（→）",
    "begin": "始める ▸", "nextLesson": "次のレッスン ▸",
    "quorum": "クォーラム", "tab.events": "イベント", "tab.keys": "キー", "tab.script": "スクリプト",
    "clear": "消去", "clear.tip": "イベントを消去", "copy": "コピー",
    "console.placeholder": "シナリオのコマンド: put k v · crash 1 · member add 4 --learner · etcdctl member list · wait 2s（↑↓ 履歴）",
    "run": "実行", "drop": "<b>.scenario</b> ファイルをドロップして開く",
    "lessons.intro": "各レッスンは学習者メンバーの設計を、図ごとに、動いているクラスターの上で語ります。<b>次へ</b>でステップが区切りまで再生され、時計が進むのを見られます（速さは速度の調整で変わります。もう一度押すと区切りまで飛ばします）。ステップの間は時計が止まります。クリックや入力もできますが、レッスンの筋書きから外れます。<b>レッスンに戻る</b>で元に戻せます。レッスンを離れるまで、サンドボックスの実行はそのまま待っています。",
    "share.h": "この実行を共有", "share.why": "ここではクリップボードが使えない: 下のリンクをコピーしてください（選択済み）。",
    "help.p1": "学習者メンバーのいる etcd の Raft クラスターを、決定的にシミュレートし、その場で動かします。どのボタンもシナリオ言語のコマンドを実行します。<b>スクリプト</b>タブには操作がすべて残り、そのまま再生できます。コンソールは etcdctl のコマンドも受け付けます（<code>etcdctl member list</code>）。",
    "help.shapes": "形",
    "help.p2": "塗りつぶした円は投票メンバー、中空の破線の六角形は学習者メンバーです。色は役割を表します。フォロワーを囲む輪は選挙タイマーの経過で満ち、満ちるとそのノードは立候補します。各ピアの横にはリーダーから見た進捗: <i>match</i>、<i>next</i> と進捗の状態（probe、replicate、snapshot）。学習者メンバーのバーは追いつき具合と、etcd の昇格ライン 90% を示します。",
    "help.travel": "タイムトラベル",
    "help.p3": "クラスターの下のタイムラインに実行全体が入っています。好きな時点へドラッグし（目盛りはコマンド、三角は選挙）、イベントを1つずつ戻り、再生でそこから続けられます。過去で操作すると新しい分岐が始まり、元の実行は分岐リストに残ります。",
    "help.share": "共有",
    "help.p4": "<b>共有</b>はこの実行をこの時点で開くリンクをコピーします。<b>書き出し</b>は <code>.scenario</code> スクリプトとしてダウンロードし、<b>読み込み</b>（またはページへのドロップ）で再び開けます。",
    "help.mouse": "マウス",
    "help.p5": "ノードをクリックすると操作メニュー。リンクをクリックすると切断・復旧。Shift+クリックで近い側のノードから一方向だけ切断します。",
    "help.keys": "キー",
    "help.dl": "<dt>スペース</dt><dd>再生 / 一時停止</dd><dt>→</dt><dd>次のイベントへ（レッスン中: 次へ）</dd><dt>←</dt><dd>前のイベントへ（レッスン中: 戻る）</dd><dt>/</dt><dd>コンソールへ</dd><dt>↑ ↓</dt><dd>コンソールの履歴</dd><dt>?</dt><dd>このヘルプ</dd><dt>esc</dt><dd>閉じる</dd>",
    "close": "閉じる",
    "error": "エラー: {msg}",
    "none": "なし", "row.leader": "リーダー", "row.voters": "投票メンバー", "row.learners": "学習者",
    "row.learnersOf": "（最大 {max} のうち {n}）", "row.quorum": "クォーラム", "row.quorumOf": "投票メンバー {n} のうち {q}",
    "row.reachable": "到達可能", "row.noLeader": "リーダーなし", "row.acked": "コミット {commit} の確認",
    "status": "投票メンバー {voters}、学習者メンバー {learners}、リーダー {leader}",
    "past.tip": "実行の過去を表示中: タイムラインのライブボタンで最新へ戻る",
    "keys.node": "ノード {id}", "keys.learner": "学習者", "keys.applied": "適用済み {n}", "keys.none": "キーなし", "keys.down": "停止中",
    "role.leader": "リーダー", "role.follower": "フォロワー", "role.candidate": "候補者", "role.pre-candidate": "事前候補者",
    "role.down": "停止", "role.not started": "未起動", "role.removed": "削除済み",
    "popup.title": "ノード {id} · {kind}", "popup.voter": "投票メンバー", "popup.learner": "学習者メンバー",
    "popup.term": "任期 {n}", "popup.commit": "コミット {n}", "popup.applied": "適用済み {n}",
    "popup.badUrl": "このURLはどのホストにも届かない: プロセスは参加できない",
    "clockRuns": "時計が動く: レッスンの筋書きから外れる（次のステップは説明どおりにならないかもしれない）。「レッスンに戻る」で元に戻せる。",
    "scrub.value": "t = {now}（全体 {end}）", "scrub.live": "、最新", "scrub.past": "、過去",
    "scrub.timeLive": "{now} · ライブ", "scrub.timeOf": "{now} / {end}",
    "branch.first": "最初の実行", "branch.from": "{t} から", "branch.here": "（現在）",
    "tip.leads": "ノード {id} がリーダー（任期 {term}）",
    "fig": "図", "figure": "図", "figures": "図", "proposal": "機能案",
    "proposal.learner-by-default": "学習者をデフォルトに", "proposal.auto-promotion": "昇格の自動化",
    "proposal.failover": "フェイルオーバー用の待機ノード", "proposal.read-only": "読み取り専用の学習者", "steps": "（{n} ステップ）",
    "lesson.start": "レッスン {number}: {title}。次へ（または →）で始まります。ステップの間は時計が止まります。",
    "lesson.atStart": "レッスンの最初: 次へで始めます。",
    "lesson.over": "レッスンは終わりです: 最初からやり直すか、別のレッスンを選ぶか、離れてください。",
    "lesson.back": "↩ レッスンの筋書きに戻った。",
    "lesson.left": "レッスンを離れた: 離れたときのままのサンドボックスの実行です。",
    "lesson.kicker": "レッスン {number} · {figures}", "lesson.pressNext": "次へで始めます。",
    "lesson.end": "レッスンの終わり。", "lesson.stepOf": "{n} ステップ中 {k}", "lesson.finished": "終了",
    "lesson.nextTitle": "レッスン {number}: {title}", "dot.start": "レッスンの最初", "dot.after": "ステップ {k} の後",
    "dot.gotoStart": "レッスンの最初へ", "dot.goto": "{n} ステップ中 {k} へ",
    "arith.voters": "投票メンバー", "arith.quorum": "クォーラム", "arith.reachable": "到達可能",
    "share.copied": "リンクをコピーした: この実行を t = {t} で開く。",
    "share.logged": "この実行の t = {t} へのリンクをクリップボードに入れた。",
    "share.noClipboard": "ここではクリップボードが使えない: 下のリンクをコピーしてください（選択済み）。この実行を t = {t} で開きます。",
    "share.shown": "この実行の t = {t} へのリンクを表示した。",
    "open.refused": "{what}は拒否された: {error}", "open.link": "リンク", "open.file": "ファイル {name}", "open.theFile": "ファイル",
    "open.done": "{what}を開いた: 同じ実行の t = {t}{of}。再生でここから続けられる。", "open.of": "（全体 {end}）",
    "file.tooBig": "{name} は {size} バイトで、.scenario ファイルの上限 1 MB を超える", "file.none": "ファイルがない",
    "exported": "↓ raftlab-run.scenario: この実行の t = {t}。",
    "link.refused": "✗ このページのアドレスのリンクは拒否された: {error}。代わりに新しいクラスターを用意した。",
    "link.opened": "共有された実行を t = {t} で開いた。再生でここから続けるか、タイムラインをドラッグしてください。",
    "welcome": "ようこそ。3つの投票メンバーが選挙タイマー（輪）を待っています。ノードやリンクをクリックするか、下にコマンドを入力してください。? でヘルプ、またはレッスンを開いてください。",
    "lang.switched": "言語: 日本語。ログにすでにある行はそのままです。",
    "sec": "{s} 秒",
  },
};

/** [selector, what, key]: the page's static words. */
export const PAGE = [
  ["#play", "title", "play.tip"], ["#step", "text", "step"], ["#step", "title", "step.tip"],
  [".speed > span", "text", "speed"],
  ["#lessons-button", "text", "lessons"], ["#lessons-button", "title", "lessons.tip"],
  ["#share", "text", "share"], ["#share", "title", "share.tip"],
  ["#export", "text", "export"], ["#export", "title", "export.tip"],
  ["#import", "text", "import"], ["#import", "title", "import.tip"],
  ["label:has(> #seed)", "lead", "seed"], ["#reset", "text", "reset"], ["#reset", "title", "reset.tip"],
  ["#toggle-aside", "title", "aside.tip"], ["#help-button", "title", "help.tip"],
  ["#lang", "aria-label", "aria.lang"],
  ["header .group:has(#play)", "aria-label", "aria.time"], ["header .group:has(#share)", "aria-label", "aria.runs"],
  ["header .group:has(#reset)", "aria-label", "aria.reset"], ["nav.tools", "aria-label", "aria.tools"],
  [".group:has(#add-voter)", "aria-label", "aria.add"], [".group:has(#add-voter) > .group-label", "text", "group.add"],
  [".group:has(#heal-all)", "aria-label", "aria.network"], [".group:has(#heal-all) > .group-label", "text", "group.network"],
  [".group:has(#put-one)", "aria-label", "aria.clients"], [".group:has(#put-one) > .group-label", "text", "group.client"],
  ["#add-voter", "text", "voter"], ["#add-voter", "title", "voter.tip"],
  ["#add-learner", "text", "learner"], ["#add-learner", "title", "learner.tip"],
  ["#add-bad", "text", "bad"], ["#add-bad", "title", "bad.tip"],
  ["#isolate-leader", "text", "isolate"], ["#isolate-leader", "title", "isolate.tip"],
  ["#split-31", "text", "split31"], ["#split-31", "title", "split31.tip"],
  ["#split-22", "text", "split22"], ["#split-22", "title", "split22.tip"],
  ["#heal-all", "text", "heal"], ["#heal-all", "title", "heal.tip"],
  ["#put-one", "text", "put"], ["#put-one", "title", "put.tip"],
  ["#load", "text", "load"], ["#load", "title", "load.tip"],
  ["section.stage", "aria-label", "aria.cluster"], ["#cluster", "aria-label", "aria.canvas"], ["#legend", "aria-label", "aria.legend"],
  ...["leader", "follower", "precandidate", "candidate", "down", "learner", "timer", "append", "heartbeat", "prevote", "vote", "snapshot", "readindex", "transfer"]
    .map((k, i) => [`#legend > li:nth-child(${i + 1})`, "tail", `legend.${k}`]),
  ["#legend > li.note", "text", "legend.note"], ["#legend > li:last-child", "tail", "legend.cut"],
  ["#popup-close", "aria-label", "aria.close"],
  ...["start", "crash", "campaign", "transfer", "promote", "remove"].map((a) => [`#popup button[data-act="${a}"]`, "text", `act.${a}`]),
  ["#popup-put input[name=key]", "placeholder", "aria.key"], ["#popup-put input[name=key]", "aria-label", "aria.key"],
  ["#popup-put input[name=value]", "placeholder", "aria.value"], ["#popup-put input[name=value]", "aria-label", "aria.value"],
  ["#popup-put button[type=submit]", "text", "put"], ['#popup-put button[data-act="get"]', "text", "act.get"],
  ["#timeline", "aria-label", "aria.timeline"], ["#back", "text", "back"], ["#back", "title", "back.tip"],
  ["#scrub", "aria-label", "aria.scrub"], ["#live", "text", "live"], ["#live", "title", "live.tip"],
  ["#branch-box .word", "text", "branch"], ["#branch-help", "text", "branch.help"],
  ["#lesson-strip", "aria-label", "aria.lessonStrip"], ["#lesson-strip .strip-label", "text", "strip.lesson"],
  ["#lesson-leave", "text", "leave"], ["#lesson-leave", "title", "leave.tip"],
  ["#details", "aria-label", "aria.details"], ["#lesson-off p", "text", "off"], ["#lesson-rejoin", "text", "rejoin"],
  ["#lesson-back", "text", "lback"], ["#lesson-back", "title", "lback.tip"],
  ["#lesson-restart", "text", "restart"], ["#lesson-restart", "title", "restart.tip"],
  ["#lesson-next", "text", "next"], ["#lesson-next", "title", "next.tip"],
  ["#quorum-h", "text", "quorum"], ['[role="tablist"]', "aria-label", "aria.data"],
  ["#tab-log", "text", "tab.events"], ["#tab-keys", "text", "tab.keys"], ["#tab-script", "text", "tab.script"],
  ["#clear-log", "text", "clear"], ["#clear-log", "title", "clear.tip"], ["#copy-script", "text", "copy"],
  ["#console", "placeholder", "console.placeholder"], ["#console-form button[type=submit]", "text", "run"],
  ["#safety", "aria-label", "aria.safety"], ["#drop p", "html", "drop"],
  ["#lessons-h", "text", "lessons"], ["#lessons-close", "aria-label", "aria.close"], [".lessons-intro", "html", "lessons.intro"],
  ["#share-h", "text", "share.h"], ["#share-close", "aria-label", "aria.close"], ["#share-link", "aria-label", "aria.shareLink"],
  ["#help .help-card > p:nth-of-type(1)", "html", "help.p1"], ["#help .help-card > h3:nth-of-type(1)", "text", "help.shapes"],
  ["#help .help-card > p:nth-of-type(2)", "html", "help.p2"], ["#help .help-card > h3:nth-of-type(2)", "text", "help.travel"],
  ["#help .help-card > p:nth-of-type(3)", "html", "help.p3"], ["#help .help-card > h3:nth-of-type(3)", "text", "help.share"],
  ["#help .help-card > p:nth-of-type(4)", "html", "help.p4"], ["#help .help-card > h3:nth-of-type(4)", "text", "help.mouse"],
  ["#help .help-card > p:nth-of-type(5)", "html", "help.p5"], ["#help .help-card > h3:nth-of-type(5)", "text", "help.keys"],
  ["#help dl", "html", "help.dl"], ["#help-close", "text", "close"],
];

const KEY = "raftlab.lang";

/** The language to speak: `?lang=` first, then the reader's last choice,
 * then the browser's language; English otherwise. */
export function pickLanguage() {
  const pick = (code) => {
    const primary = String(code ?? "").toLowerCase().split(/[-_]/)[0];
    return primary in STRINGS ? primary : null;
  };
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { /* storage off (file://, private mode) */ }
  return pick(new URLSearchParams(location.search).get("lang")) ?? pick(stored)
    ?? (navigator.languages ?? [navigator.language]).map(pick).find(Boolean) ?? "en";
}

export function rememberLanguage(lang) {
  try { localStorage.setItem(KEY, lang); } catch { /* storage off */ }
}

let current = "en";
export const language = () => current;

/** The page's word for `key` in the current language, `{name}`s filled. */
export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key];
  if (s === undefined) throw new Error(`no string ${key}`);
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Puts the page's static words into `lang`. */
export function applyLanguage(lang) {
  current = lang in STRINGS ? lang : "en";
  document.documentElement.lang = current;
  document.title = t("doc.title");
  for (const [selector, what, key] of PAGE) {
    for (const el of document.querySelectorAll(selector)) {
      const s = t(key);
      if (what === "text") el.textContent = s;
      else if (what === "html") el.innerHTML = s;
      else if (what === "lead" || what === "tail") {
        // The element's own text beside its children (a label's word, a
        // legend entry's name after its swatch).
        const nodes = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        const node = what === "lead" ? nodes[0] : nodes[nodes.length - 1];
        if (node) node.textContent = s;
        else if (what === "lead") el.prepend(s);
        else el.append(s);
      } else el.setAttribute(what, s);
    }
  }
}
