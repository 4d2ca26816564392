// RaftScope's engine, headless, on a workload like `raftlab bench`'s: the
// yardstick `make bench` holds raftlab's engine to (docs/performance.md).
//
// RaftScope (ongardie/raftscope, ISC licence) is not part of raftlab and
// none of its code is here: this script loads its `util.js` and `raft.js`
// from the directory RAFTSCOPE_DIR names (a checkout of it) and runs them as
// its page does, without the page: 5 servers, a client request to the leader
// every 10 simulated ms, and `raft.update(model)` called at each moment
// something is due (the next message's arrival, the next election alarm,
// heartbeat or retry, the next client request), so that it makes no idle
// step and delivers every message at its own time. Its random numbers come
// from a seeded generator, so every run is the same run. It counts the
// messages `raft.update` delivers and the wall time of the run, and prints
// one line:
//   raftscope: 5 servers, a request every 10 ms, 607 simulated seconds:
//   N message deliveries in W s wall time = D deliveries/s (...)
//
// Usage: RAFTSCOPE_DIR=dir node tools/raftscope-bench.mjs [--seconds S]
// (S simulated seconds, 607 by default: `raftlab bench`'s run).
import { readFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const at = args.indexOf("--seconds");
const SECONDS = at >= 0 ? Number(args[at + 1]) : 607;
const dir = process.env.RAFTSCOPE_DIR;
if (!dir) {
  console.error("raftscope-bench: set RAFTSCOPE_DIR to a checkout of ongardie/raftscope (docs/performance.md)");
  process.exit(2);
}
if (!(SECONDS > 0)) {
  console.error("raftscope-bench: --seconds takes a number of simulated seconds");
  process.exit(2);
}

// RaftScope's util.js needs one jQuery function, `$.map` over an object's
// values (util.mapValues); the rest of jQuery is for its page.
const $ = { map: (object, f) => Object.keys(object).map((k) => f(object[k], k)) };

// Its two files as one function's body: their top-level names (raft, util,
// NUM_SERVERS...) are that function's variables, as quick to reach as the
// globals of its page. (Run in a `vm` context instead, every global lookup
// goes through the context and the same run takes about four times as long.)
const load = () => new Function("$", "jQuery",
  `${readFileSync(join(dir, "util.js"), "utf8")}\n${readFileSync(join(dir, "raft.js"), "utf8")}\n` +
  "return { raft: raft, servers: NUM_SERVERS };")($, $);

// A seeded Math.random (xorshift32).
let x = 1;
Math.random = () => {
  x ^= x << 13; x >>>= 0;
  x ^= x >>> 17;
  x ^= x << 5; x >>>= 0;
  return x / 4294967296;
};

const { raft, servers: n } = load();
const model = { servers: [], messages: [], time: 0 };
for (let i = 1; i <= n; i += 1) {
  const peers = [];
  for (let j = 1; j <= n; j += 1) if (j !== i) peers.push(j);
  model.servers.push(raft.server(i, peers));
}
const end = SECONDS * 1e6; // RaftScope's time is in microseconds.
const EVERY = 10000;
let nextRequest = EVERY;
let deliveries = 0;
let requests = 0;

// The next moment raft.update acts, and how many messages arrive then (one
// pass over the messages in flight, as raft.update's own).
let due = 0;
const next = () => {
  let t = nextRequest;
  for (const s of model.servers) {
    // raft.update's rules (rules.*), each at the moment its condition
    // holds; a vote won or a reply taken makes its rule due at once.
    if (s.state === "follower" || s.state === "candidate") {
      if (s.electionAlarm < t) t = s.electionAlarm;
    }
    if (s.state === "candidate") {
      let votes = 1;
      for (const p of s.peers) {
        if (s.voteGranted[p]) votes += 1;
        if (s.rpcDue[p] < t) t = s.rpcDue[p];
      }
      if (votes > Math.floor(n / 2)) t = model.time;
    } else if (s.state === "leader") {
      for (const p of s.peers) {
        if (s.heartbeatDue[p] < t) t = s.heartbeatDue[p];
        if (s.nextIndex[p] <= s.log.length && s.rpcDue[p] < t) t = s.rpcDue[p];
      }
    }
  }
  if (t < model.time) t = model.time;
  due = 0;
  for (const m of model.messages) {
    if (m.recvTime < t) {
      t = m.recvTime;
      due = 1;
    } else if (m.recvTime === t) {
      due += 1;
    }
  }
  return t;
};

const start = process.hrtime.bigint();
for (;;) {
  const t = next();
  if (t > end) break;
  model.time = t;
  deliveries += due;
  raft.update(model);
  if (t >= nextRequest) {
    // The page's request button: to the leader of the highest term.
    let leader = null;
    for (const s of model.servers) {
      if (s.state === "leader" && (leader === null || s.term > leader.term)) leader = s;
    }
    if (leader !== null) {
      raft.clientRequest(model, leader);
      requests += 1;
    }
    nextRequest += EVERY;
  }
}
const wallS = Number(process.hrtime.bigint() - start) / 1e9;
let commit = 0;
for (const s of model.servers) if (s.commitIndex > commit) commit = s.commitIndex;
console.log(`raftscope: ${n} servers, a request every 10 ms, ${SECONDS} simulated seconds: ${deliveries} message deliveries in ${wallS.toFixed(3)} s wall time = ${(deliveries / wallS).toFixed(0)} deliveries/s (${requests} requests, commit index ${commit})`);
