// raftlab's engine against RaftScope's, in one sitting: `raftlab bench`
// (release/raftlab in cargo's target directory) and tools/raftscope-bench.mjs, each in a process
// of its own, alternating, ROUNDS times each; prints each run, the medians,
// and one `figure:` line with the ratio of deliveries per wall second and
// its goal (docs/performance.md). Without RAFTSCOPE_DIR it measures raftlab
// alone and says in one line that the ratio was skipped and how to run it.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.ENGINE_ROUNDS ?? 3);
const GOAL = 50;
const dir = process.env.RAFTSCOPE_DIR;

const target = process.env.RAFTLAB_TARGET_DIR ?? `${root}target`;

const raftlab = () => {
  const out = execFileSync(`${target}/release/raftlab`, ["bench"], { encoding: "utf8" });
  process.stdout.write(out);
  // "... 607 simulated seconds: 1331623 message deliveries in 0.700 s wall time = ..."
  const m = out.match(/, (\d+) simulated seconds: (\d+) message deliveries in ([0-9.]+) s wall time/);
  if (!m) throw new Error(`raftlab bench printed something unexpected: ${out}`);
  return { seconds: Number(m[1]), deliveries: Number(m[2]), wallS: Number(m[3]) };
};

const raftscope = (seconds) => {
  const out = execFileSync("node", [`${root}tools/raftscope-bench.mjs`, "--seconds", String(seconds)],
    { encoding: "utf8", env: process.env });
  process.stdout.write(out);
  const m = out.match(/: (\d+) message deliveries in ([0-9.]+) s wall time/);
  if (!m) throw new Error(`raftscope-bench printed something unexpected: ${out}`);
  return { deliveries: Number(m[1]), wallS: Number(m[2]) };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const perS = (r) => r.deliveries / r.wallS;
const n = (x) => Math.round(x).toLocaleString("en-US");

const ours = [], theirs = [];
for (let i = 0; i < ROUNDS; i++) {
  const r = raftlab();
  ours.push(r);
  if (dir) theirs.push(raftscope(r.seconds));
}
const o = median(ours.map(perS));
if (!dir) {
  console.log(`figure: engine (raftlab bench, median of ${ROUNDS}): ${n(o)} deliveries/s; against RaftScope: skipped (set RAFTSCOPE_DIR to a checkout of ongardie/raftscope, or let make bench fetch it, to measure its raft.js beside it, ${GOAL}x wanted: docs/performance.md)`);
} else {
  const t = median(theirs.map(perS));
  console.log(`figure: engine (raftlab bench, median of ${ROUNDS}): ${n(o)} deliveries/s = ${(o / t).toFixed(1)}x RaftScope's ${n(t)} in the same sitting (${GOAL}x wanted)`);
}
