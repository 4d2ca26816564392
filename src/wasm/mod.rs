//! Layer 5, browser: the one type the page talks to, and the canvas drawing.
//! Only this module knows about wasm-bindgen and web-sys.
//!
//! - `draw`: the canvas (its colours and layout are `app::palette` and
//!   `app::layout`);
//! - `history`: the history view's canvas (its decisions are
//!   `app::history`);
//! - `safety`: the safety indicator, rendered into the page's DOM.

mod draw;
mod history;
pub mod safety;

/// The module's allocator: talc, which in WebAssembly is faster than the
/// standard library's dlmalloc (the engine allocates for every message
/// and event) and smaller.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use crate::app::trig::clamp;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, Element};

use crate::app::dots;
use crate::app::engine::{Engine, LessonMove};
use crate::app::hand;
use crate::app::layout::{Board, Hit};
use crate::app::presets::{self, Preset};
use crate::app::safety::SafetyStatus;
use crate::session::view;

#[wasm_bindgen]
extern "C" {
    /// The page's clock, in milliseconds.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Units of work from the page: a whole number, at least one (anything
/// else, NaN included, is one).
fn work_units(work: f64) -> u64 {
    if work.is_finite() && work >= 1.0 {
        work as u64
    } else {
        1
    }
}

/// Wall-clock time one chunk of a run's work aims at, in milliseconds: a
/// step that suddenly costs much more (a load starting) overshoots a
/// slice by a small multiple of it only.
const CHUNK_MS: f64 = 0.25;

#[wasm_bindgen(start)]
pub fn start() {
    // Turn a Rust panic into a readable console error instead of "unreachable".
    console_error_panic_hook::set_once();
}

/// Real milliseconds one animation frame may advance at most, so a tab
/// that was hidden for a while does not jump ahead by minutes.
const MAX_FRAME_MS: f64 = 250.0;

/// A typed value as a plain JavaScript object (maps as objects, 64-bit
/// integers as numbers).
fn to_js<T: Serialize + ?Sized>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

// ---- objects made of two ------------------------------------------------------------
//
// The page's objects that carry another's fields (a panel's view and its
// sentence, a node's view and its keys...) are `#[serde(flatten)]` for the
// native JSON. Here they are put together in the browser instead: `flatten`
// serializes through a map, which would compile a second serializer of
// every flattened type and of each of their fields into the module (2.7 KB
// gzipped). The objects are the same, field for field and in order.

/// `first`'s fields, then `then`'s (`Object.assign`); `first` as it is
/// when either is not an object.
fn merged(first: JsValue, then: JsValue) -> JsValue {
    if let (Some(a), Some(b)) = (first.dyn_ref::<js_sys::Object>(), then.dyn_ref()) {
        js_sys::Object::assign(a, b);
    }
    first
}

/// `o` with `key` set to `value` after its fields.
fn with(o: JsValue, key: &str, value: JsValue) -> JsValue {
    // Setting a property on an object the serializer just made cannot fail.
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str(key), &value);
    o
}

/// A console command's answer (the `etcdctl` one as its result with
/// etcdctl's lines after it).
fn reply_js(r: &crate::app::engine::Reply) -> JsValue {
    use crate::app::engine::Reply;
    match r {
        Reply::Ran(r) => to_js(r),
        Reply::Unparsed(u) => to_js(u),
        Reply::Etcdctl(e) => with(to_js(&e.result), "etcdctl", to_js(&e.etcdctl)),
        Reply::Running(r) => to_js(r),
    }
}

/// A node with its keys (`view::NodeDetails`).
fn node_details_js(d: &view::NodeDetails) -> JsValue {
    with(to_js(&d.node), "kv", to_js(&d.kv))
}

/// Every cluster and mirror process (`view::FleetView`): each view's own
/// fields, and the ones it flattens natively (serialized apart here).
fn fleet_js(f: &view::FleetView) -> JsValue {
    let clusters: js_sys::Array = f
        .clusters
        .iter()
        .map(|c| merged(to_js(c), to_js(&c.view)))
        .collect();
    let mirrors: js_sys::Array = f
        .mirrors
        .iter()
        .map(|m| merged(to_js(&m.report), to_js(m)))
        .collect();
    let o = with(js_sys::Object::new().into(), "clusters", clusters.into());
    with(o, "mirrors", mirrors.into())
}

/// The answer of an action that either works or is refused with a reason:
/// `{ok: true}` (with `at_ms` where it lands somewhere), or `{ok: false,
/// error}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct Answer {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Answer {
    fn done() -> JsValue {
        Answer::at(None)
    }
    fn at(at_ms: Option<u64>) -> JsValue {
        to_js(&Answer {
            ok: true,
            at_ms,
            error: None,
        })
    }
    fn refused(message: &str) -> JsValue {
        to_js(&Answer {
            ok: false,
            at_ms: None,
            error: Some(message.to_string()),
        })
    }
}

/// What lies under a point of the canvas, as the page reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum HitView {
    Node { id: u64 },
    Link { a: u64, b: u64, near: u64 },
    Mirror { id: u64 },
    Message { id: u64, from: u64, to: u64 },
}

/// The script of the cluster a page opens with, on `seed` (the Reset
/// button's).
#[wasm_bindgen(js_name = defaultScript)]
pub fn default_script(seed: f64) -> String {
    let seed = if seed.is_finite() && seed >= 0.0 {
        seed.floor() as u64
    } else {
        0
    };
    presets::default_script(seed)
}

/// The script of a fresh default cluster on `seed` with the modes of the
/// page's modes control (the fields of `App.modes()`: `new_members`
/// "learner" or "voter", `auto_promote` in percent or undefined for off,
/// `failover_after_ms`, `failover` "replace" or "grow", `max_learners`):
/// `{ok: true, script}` (one canonical `cluster` line carrying the options),
/// or `{ok: false, error}` saying what is wrong with the form, in `lang`
/// ("en" or "ja"; English when absent or unknown).
#[wasm_bindgen(js_name = freshScript)]
pub fn fresh_script(
    seed: f64,
    new_members: &str,
    auto_promote: Option<f64>,
    failover_after_ms: f64,
    failover: &str,
    max_learners: f64,
    lang: Option<String>,
) -> JsValue {
    #[derive(Serialize)]
    struct Fresh {
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        script: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    }
    let seed = if seed.is_finite() && seed >= 0.0 {
        seed.floor() as u64
    } else {
        0
    };
    let form = presets::ModesForm {
        new_members: new_members.to_string(),
        auto_promote,
        failover_after_ms,
        failover: failover.to_string(),
        max_learners,
    };
    let fresh = match presets::fresh_script(seed, &form) {
        Ok(script) => Fresh {
            ok: true,
            script: Some(script),
            error: None,
        },
        Err(why) => Fresh {
            ok: false,
            script: None,
            error: Some(
                lang.as_deref()
                    .and_then(crate::words::language::Language::from_code)
                    .filter(|l| l.speakable())
                    .unwrap_or_default()
                    .renderer()
                    .refusal(&why),
            ),
        },
    };
    to_js(&fresh)
}

/// A key, value or URL written as the scenario language reads it back:
/// bare when that is unambiguous, else double-quoted with `\"` and `\\`
/// escaped.
#[wasm_bindgen(js_name = quoteWord)]
pub fn quote_word(s: &str) -> String {
    crate::lang::ast::format_text(s)
}

/// The lessons, in reading order: `[{id, title, figures, summary, steps}]`,
/// titles and summaries in `lang` (`"ja"`, `"en"`; English when absent).
#[wasm_bindgen]
pub fn lessons(lang: Option<String>) -> JsValue {
    let lang = lang
        .as_deref()
        .and_then(crate::words::language::Language::from_code)
        .unwrap_or_default();
    to_js(&crate::lessons::infos_in(lang))
}

/// Gives the module the lessons' bundle (`pkg/lessons.txt`): the page's
/// module is built without them and the page fetches them the first time a
/// lesson or the list is asked for. Returns how many lessons it holds; a
/// bundle that is not one is an error and changes nothing.
#[wasm_bindgen(js_name = loadLessons)]
pub fn load_lessons(bundle: &str) -> Result<u32, JsError> {
    crate::lessons::load(bundle)
        .map(|n| n as u32)
        .map_err(|e| JsError::new(&e))
}

/// Gives the module the Japanese narration's sentences
/// (`pkg/narration-ja.txt`, written by `tools/build-pkg.sh`): the module is
/// built without them and the page fetches them the first time it speaks
/// Japanese, before `App.setLanguage("ja")`. `lang` is the catalog's
/// language ("ja"). Returns how many sentences it holds; a catalog that is
/// not this build's (cut short, edited out of shape, another version's) is
/// an error and changes nothing.
#[wasm_bindgen(js_name = loadNarration)]
pub fn load_narration(lang: &str, text: &str) -> Result<u32, JsError> {
    if crate::words::language::Language::from_code(lang)
        != Some(crate::words::language::Language::Japanese)
    {
        return Err(JsError::new(&format!(
            "there is a narration catalog for \"ja\" only, not for {lang:?}"
        )));
    }
    crate::words::catalog_ja::load(text)
        .map(|n| n as u32)
        .map_err(|e| JsError::new(&format!("narration-ja.txt: {e}")))
}

/// The app the page drives: one simulated cluster, its drawing, and the
/// commands that change it.
#[wasm_bindgen]
pub struct App {
    engine: Engine,
    board: Board,
    dashes: draw::Dashes,
    /// What the canvas paints again only when it changes.
    pictures: draw::Pictures,
    /// Simulated milliseconds owed to the clock (below one).
    carry: f64,
    hover: Option<Hit>,
    /// Work per chunk of `runFor`, adapted to `CHUNK_MS`.
    chunk: u64,
    /// The longest `runFor` chunk so far, in milliseconds.
    slowest_chunk_ms: f64,
    /// The point of the layout (CSS pixels) drawn at the canvas's top left:
    /// the page's zoom shows a part of the cluster.
    view: (f64, f64),
    /// Messages drawn still, each at its link's middle (the reader asked
    /// for less motion).
    still: bool,
}

#[wasm_bindgen]
impl App {
    /// An app running `script` (scenario language; empty: the default
    /// cluster). A script that does not parse is an error with its line and
    /// column.
    #[wasm_bindgen(constructor)]
    pub fn new(script: &str) -> Result<App, JsError> {
        let engine = if script.trim().is_empty() {
            Engine::from_script(&presets::default_script(1))
        } else {
            Engine::from_script(script)
        }
        .map_err(|e| JsError::new(&e))?;
        Ok(App::with(engine))
    }

    /// An app opening a share link (`#v1.…`, or a whole URL ending in one).
    /// A malformed or tampered link is an error saying what is wrong.
    #[wasm_bindgen(js_name = fromLink)]
    pub fn from_link(link: &str) -> Result<App, JsError> {
        let engine = Engine::from_link(link).map_err(|e| JsError::new(&e.message))?;
        Ok(App::with(engine))
    }

    /// An app with `script` queued and none of it run: the page runs it
    /// with `runFor`, drawing and answering between slices. A script
    /// that does not parse is an error.
    pub fn queued(script: &str) -> Result<App, JsError> {
        let engine = Engine::queued_script(script).map_err(|e| JsError::new(&e))?;
        Ok(App::with(engine))
    }

    /// An app with a share link's run queued (see `queued`).
    #[wasm_bindgen(js_name = queuedLink)]
    pub fn queued_link(link: &str) -> Result<App, JsError> {
        let engine = Engine::queued_link(link).map_err(|e| JsError::new(&e.message))?;
        Ok(App::with(engine))
    }

    /// What a script would run, before it runs: `{ok: true, plan: {voters,
    /// nodes, commands, wait_ms, bound_ms, load_rate_per_s, load_size,
    /// estimate_ms, confirm}}` (`confirm`: the page asks first), or `{ok:
    /// false, error}`. `kind` is `"script"`, `"link"` or `"file"`.
    pub fn plan(kind: &str, text: &str) -> JsValue {
        #[derive(Serialize)]
        struct Planned {
            ok: bool,
            #[serde(skip_serializing_if = "Option::is_none")]
            plan: Option<crate::app::plan::Plan>,
            #[serde(skip_serializing_if = "Option::is_none")]
            error: Option<String>,
        }
        let plan = match kind {
            "link" => Engine::plan_run(text, true).map_err(|e| e.message),
            "file" => Engine::plan_run(text, false).map_err(|e| e.message),
            _ => Engine::plan(text),
        };
        to_js(&match plan {
            Ok(p) => Planned {
                ok: true,
                plan: Some(p),
                error: None,
            },
            Err(e) => Planned {
                ok: false,
                plan: None,
                error: Some(e),
            },
        })
    }

    /// What the run being opened runs (as `plan` gives it: `{ok: true,
    /// plan}`), or null when none is being opened.
    pub fn planned(&self) -> JsValue {
        #[derive(Serialize)]
        struct Planned<'a> {
            ok: bool,
            plan: &'a crate::app::plan::Plan,
        }
        match self.engine.planned() {
            Some(plan) => to_js(&Planned { ok: true, plan }),
            None => JsValue::NULL,
        }
    }

    /// Runs the queued run for about `budget_ms` of wall-clock time (at
    /// most a second), in chunks of work sized to a fraction of a
    /// millisecond, and returns its progress: `{running, done_ms, total_ms,
    /// commands_done, commands_total, seeking}`. The page calls it in
    /// back-to-back tasks.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, budget_ms: f64) -> JsValue {
        let budget = if budget_ms.is_finite() {
            clamp(budget_ms, 0.0, 1000.0)
        } else {
            0.0
        };
        self.carry = 0.0;
        // One reading of the clock a chunk: a chunk ends when the next
        // begins (each reading is a call out of the module).
        let t0 = performance_now();
        let mut s = t0;
        loop {
            let p = self.engine.run_slice(self.chunk);
            let end = performance_now();
            let dt = end - s;
            s = end;
            self.slowest_chunk_ms = self.slowest_chunk_ms.max(dt);
            self.chunk = if dt < CHUNK_MS / 2.0 {
                (self.chunk * 2).min(1 << 20)
            } else if dt > CHUNK_MS * 2.0 {
                ((self.chunk as f64 * CHUNK_MS / dt) as u64).max(1)
            } else {
                self.chunk
            };
            if !p.running || end - t0 >= budget {
                return to_js(&p);
            }
        }
    }

    /// `{chunk, slowest_chunk_ms}`: the work per chunk of `runFor` now, and
    /// its longest chunk so far (for the tests).
    #[wasm_bindgen(js_name = runStats)]
    pub fn run_stats(&self) -> JsValue {
        #[derive(Serialize)]
        struct Stats {
            chunk: u64,
            slowest_chunk_ms: f64,
        }
        to_js(&Stats {
            chunk: self.chunk,
            slowest_chunk_ms: self.slowest_chunk_ms,
        })
    }

    /// How far the queued run is (as `runFor` returns it).
    pub fn progress(&self) -> JsValue {
        to_js(&self.engine.progress())
    }

    /// Whether a run goes on in slices.
    #[wasm_bindgen(js_name = isRunning)]
    pub fn is_running(&self) -> bool {
        self.engine.is_running()
    }

    /// Cancels the run going on: it ends with the last command that
    /// finished, as if its script had ended there (the log says so). False
    /// if nothing was running.
    pub fn cancel(&mut self) -> bool {
        self.engine.cancel()
    }

    /// A console command run in slices: like `command`, but after a first
    /// slice of `work` a command not over comes back as `{command, ok: true,
    /// running: true}`; it goes on with `runFor` and its result object is
    /// then `takeReply()`'s. While a run goes on, a command is refused with
    /// `error: "running"` (the log says so).
    #[wasm_bindgen(js_name = commandIn)]
    pub fn command_in(&mut self, text: &str, work: f64) -> JsValue {
        let work = work_units(work);
        reply_js(&self.engine.command_in(text, work))
    }

    /// The result object of the console command that ended in slices, once
    /// (null before it ends, and after it was taken).
    #[wasm_bindgen(js_name = takeReply)]
    pub fn take_reply(&mut self) -> JsValue {
        match self.engine.take_reply() {
            Some(r) => reply_js(&r),
            None => JsValue::NULL,
        }
    }

    /// `{counted_bytes, budget_bytes}`: what the run holds, counted (a
    /// walk of it: for the console, not for a frame), and its budget
    /// (null: none).
    pub fn memory(&self) -> JsValue {
        #[derive(Serialize)]
        struct Memory {
            counted_bytes: u64,
            budget_bytes: Option<u64>,
        }
        let (counted_bytes, budget_bytes) = self.engine.memory();
        to_js(&Memory {
            counted_bytes,
            budget_bytes,
        })
    }

    /// Sets the run's memory budget in bytes (null or not a positive
    /// number: no limit).
    #[wasm_bindgen(js_name = setMemoryBudget)]
    pub fn set_memory_budget(&mut self, bytes: Option<f64>) {
        let budget = bytes
            .filter(|b| b.is_finite() && *b >= 1.0)
            .map(|b| b as u64);
        self.engine.set_memory_budget(budget);
    }

    /// Lets `real_ms` of wall-clock time pass at `speed` (simulated ms per
    /// real ms). Returns the simulated milliseconds that passed.
    pub fn advance(&mut self, real_ms: f64, speed: f64) -> f64 {
        if !(real_ms.is_finite() && speed.is_finite()) || real_ms <= 0.0 || speed <= 0.0 {
            return 0.0;
        }
        self.carry += real_ms.min(MAX_FRAME_MS) * speed;
        let whole = self.carry.floor();
        self.carry -= whole;
        if whole >= 1.0 {
            self.engine.advance(whole as u64);
        }
        whole
    }

    /// Speaks `code` (`en`, `ja`, or a regional tag of either) from now on:
    /// new log lines, the panels, the canvas. False (nothing changes) for a
    /// language raftlab does not speak, and for Japanese before its
    /// sentences are loaded (`loadNarration`). The run is untouched.
    #[wasm_bindgen(js_name = setLanguage)]
    pub fn set_language(&mut self, code: &str) -> bool {
        match crate::words::language::Language::from_code(code).filter(|l| l.speakable()) {
            Some(lang) => {
                self.engine.set_language(lang);
                true
            }
            None => false,
        }
    }

    /// Runs one scenario command (what every button does). Returns its
    /// result object `{line, command, ok, error, detail, ...}`; a command
    /// that does not parse comes back with `ok: false` and changes nothing.
    /// The log gets the command, what happened and the result.
    pub fn command(&mut self, text: &str) -> JsValue {
        let result = self.engine.command(text);
        reply_js(&result)
    }

    /// The command the page button `name` stands for now (`add-voter`,
    /// `add-learner`, `add-bad`, `add-standby`, `add-read-weak`,
    /// `add-read-strong`, `isolate-leader`, `split-31`, `split-22`,
    /// `heal-all`, `load`), or undefined when it cannot apply (the log says
    /// why) or there is no such button.
    pub fn preset(&mut self, name: &str) -> Option<String> {
        self.engine.preset(Preset::named(name)?)
    }

    /// The runner's report object (without `results`).
    pub fn status(&self) -> JsValue {
        let s = self.engine.status();
        with(to_js(&s.status), "load", to_js(&s.load))
    }

    /// Runs to the next narrated event. False when nothing happens within a
    /// minute (the log says so).
    #[wasm_bindgen(js_name = stepEvent)]
    pub fn step_event(&mut self) -> bool {
        self.carry = 0.0;
        self.engine.step_event()
    }

    /// Simulated time in milliseconds.
    #[wasm_bindgen(js_name = timeMs)]
    pub fn time_ms(&self) -> f64 {
        self.engine.now() as f64
    }

    /// The log's lines since the last call: `[{id, time_ms, kind, tone,
    /// event, command, text, fold}]` (events, commands and their results,
    /// errors with etcd's error names, notices). A line with `fold` updates
    /// the line `fold.into` instead of standing on its own.
    pub fn narration(&mut self) -> JsValue {
        to_js(&self.engine.take_narration())
    }

    /// Drops all but the last `keep` lines not yet taken (a run under a
    /// heavy load says thousands a second, and the page shows the newest);
    /// how many went.
    #[wasm_bindgen(js_name = skipNarration)]
    pub fn skip_narration(&mut self, keep: u32) -> u32 {
        self.engine.skip_narration(keep as usize) as u32
    }

    /// The page cleared its log: lines not yet taken are dropped, and no
    /// later line folds into one it no longer shows.
    #[wasm_bindgen(js_name = clearLog)]
    pub fn clear_log(&mut self) {
        self.engine.clear_log();
    }

    /// The report's `linearizability`: whether the run's client operations
    /// so far are linearizable, and if not a smallest anomaly.
    pub fn linearizability(&self) -> JsValue {
        to_js(&self.engine.linearizability())
    }

    /// The script of everything done so far: replaying it gives this state.
    pub fn history(&self) -> String {
        let mut s = self.engine.history().join("\n");
        s.push('\n');
        s
    }

    /// The quorum panel: voters, learners (and the maximum), quorum size,
    /// which voters acknowledged the latest commit, whether the leader can
    /// reach a quorum now.
    pub fn quorum(&self) -> JsValue {
        let q = self.engine.quorum();
        with(to_js(&q.quorum), "summary", to_js(&q.summary))
    }

    /// Every node of every cluster (the first's first): role, learner,
    /// running, indexes, peer URL, keys.
    pub fn nodes(&self) -> JsValue {
        let clusters = self.engine.fleet().clusters();
        let all: js_sys::Array = clusters
            .iter()
            .flat_map(view::node_details)
            .map(|d| node_details_js(&d))
            .collect();
        all.into()
    }

    /// Every cluster (the first, `main`, first: name, revision, and the
    /// quorum, nodes, load and modes a lone cluster's view has) and the
    /// mirror processes (the report's entry, the clusters they join, their
    /// links).
    pub fn clusters(&self) -> JsValue {
        fleet_js(&view::FleetView::of(self.engine.fleet()))
    }

    /// `key`'s history in every cluster: the versions its store still holds.
    #[wasm_bindgen(js_name = keyHistory)]
    pub fn key_history(&self, key: &str) -> JsValue {
        to_js(&view::key_history(self.engine.fleet(), key))
    }

    /// The run's modes, as its `cluster` line set them: `{new_members,
    /// auto_promote, failover_after_ms, failover}`.
    pub fn modes(&self) -> JsValue {
        to_js(&view::ModesView::of(self.engine.cluster()))
    }

    /// Draws the cluster onto a 2D context whose canvas is `width` x
    /// `height` CSS pixels with a backing store `dpr` times larger.
    pub fn draw(&mut self, ctx: &CanvasRenderingContext2d, width: f64, height: f64, dpr: f64) {
        if !(width.is_finite() && height.is_finite() && width >= 1.0 && height >= 1.0) {
            return;
        }
        let dpr = if dpr.is_finite() && dpr > 0.0 {
            dpr
        } else {
            1.0
        };
        let (vx, vy) = self.view;
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, -vx * dpr, -vy * dpr);
        let fleet = self.engine.fleet();
        let drawn: Vec<Vec<draw::Drawn>> = fleet.clusters().iter().map(draw::drawn).collect();
        let ids: Vec<Vec<(u64, bool)>> = drawn
            .iter()
            .map(|n| n.iter().map(|d| (d.view.id, !d.view.removed)).collect())
            .collect();
        let mirrors: Vec<_> = fleet
            .mirrors()
            .iter()
            .map(|m| (m.id, m.from, m.to))
            .collect();
        let words = self.engine.renderer();
        // Each column's caption, on two lines when the widest does not fit
        // its column on one (long words, a phone's canvas).
        let captions: Vec<String> = if fleet.len() > 1 {
            fleet
                .clusters()
                .iter()
                .zip(&drawn)
                .map(|(cluster, nodes)| {
                    let leader = cluster.leader().and_then(|id| {
                        let n = nodes.iter().find(|d| d.view.id == id)?;
                        Some((id, n.view.shown_term?))
                    });
                    let revision = crate::session::report::cluster_revision(cluster);
                    words.ring_caption(leader, revision)
                })
                .collect()
        } else {
            Vec::new()
        };
        let column = width / fleet.len().max(1) as f64;
        let widest = draw::caption_width(ctx, &captions);
        self.board.caption_lines = if widest > column - 8.0 { 2 } else { 1 };
        self.board.compute(width, height, &ids, &mirrors);
        let ctx = draw::Ctx::new(ctx);
        for (i, (cluster, nodes)) in fleet.clusters().iter().zip(&drawn).enumerate() {
            let layout = &self.board.parts[i];
            let f = draw::Frame {
                ctx: &ctx,
                layout,
                cluster,
                nodes,
                words,
                t: cluster.now() as f64 + self.carry,
                hover: self.hover,
                dashes: &self.dashes,
                dpr,
                still: self.still,
            };
            draw::frame(&f, i, &mut self.pictures);
            if let Some(caption) = captions.get(i) {
                draw::ring_name(&ctx, layout, fleet.name(i), caption);
            }
        }
        if !mirrors.is_empty() {
            let views = view::MirrorView::all(fleet);
            draw::mirrors(
                &ctx,
                &self.board,
                fleet,
                &views,
                self.hover,
                &self.dashes,
                words,
            );
        }
        self.pictures.sweep();
    }

    /// Draws the history view (the run's client operations on a time axis,
    /// the checker's anomaly in red) onto a 2D context whose canvas is
    /// `width` x `height` CSS pixels, and returns its words: `{ok, empty,
    /// verdict, note}`. The checker runs here, so the page calls this only
    /// while the view is open.
    #[wasm_bindgen(js_name = drawHistory)]
    pub fn draw_history(
        &self,
        ctx: &CanvasRenderingContext2d,
        width: f64,
        height: f64,
        dpr: f64,
    ) -> JsValue {
        #[derive(Serialize)]
        struct HistoryPanel {
            ok: bool,
            empty: bool,
            verdict: String,
            note: String,
        }
        let scene = self.engine.history_scene();
        let words = self.engine.renderer();
        if width.is_finite() && height.is_finite() && width >= 1.0 && height >= 1.0 {
            let dpr = if dpr.is_finite() && dpr > 0.0 {
                dpr
            } else {
                1.0
            };
            let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
            history::paint(
                &draw::Ctx::new(ctx),
                &self.dashes,
                &scene,
                words,
                width,
                height,
            );
        }
        to_js(&HistoryPanel {
            ok: scene.ok,
            empty: scene.total == 0,
            verdict: words.history_verdict(&scene.verdict()),
            note: words.history_note(
                scene.from_ms,
                scene.to_ms,
                scene.shown,
                scene.total,
                scene.hidden_lanes,
            ),
        })
    }

    /// Draws the layout's point (`x`, `y`) (CSS pixels of the canvas as
    /// laid out) at the canvas's top left: with a `dpr` larger than the
    /// screen's, `draw` then shows a part of the cluster, larger (the
    /// page's zoom). Not finite: (0, 0).
    #[wasm_bindgen(js_name = setView)]
    pub fn set_view(&mut self, x: f64, y: f64) {
        let at = |v: f64| if v.is_finite() { v } else { 0.0 };
        self.view = (at(x), at(y));
    }

    /// Draws each message still, at its link's middle, for as long as it is
    /// on the wire (`true`: the reader asked for less motion), or moving
    /// from its sender to its receiver (`false`, the default).
    #[wasm_bindgen(js_name = setStillMessages)]
    pub fn set_still_messages(&mut self, still: bool) {
        self.still = still;
    }

    /// Keeps the top `px` CSS pixels of the canvas free (the page's legend
    /// sits there).
    #[wasm_bindgen(js_name = setTopInset)]
    pub fn set_top_inset(&mut self, px: f64) {
        if px.is_finite() {
            self.board.top_inset = px.max(0.0);
        }
    }

    /// A button stands over the canvas's top-left corner, to `right` and
    /// `bottom` CSS pixels (the legend's on a phone; 0, 0: none): no label
    /// goes under it.
    #[wasm_bindgen(js_name = setCorner)]
    pub fn set_corner(&mut self, right: f64, bottom: f64) {
        if right.is_finite() && bottom.is_finite() {
            self.board.corner = [right.max(0.0), bottom.max(0.0)];
        }
    }

    /// What lies under a point (CSS pixels, as last drawn): `null`,
    /// `{kind: "node", id}`, `{kind: "mirror", id}` or `{kind: "link", a, b,
    /// near}` (`near`: the end closer to the point; on a mirror's link, `a`
    /// is the mirror).
    #[wasm_bindgen(js_name = hitTest)]
    pub fn hit_test(&self, x: f64, y: f64) -> JsValue {
        let v = self.hit_at(x, y).map(|hit| match hit {
            Hit::Node(id) => HitView::Node { id },
            Hit::Mirror(id) => HitView::Mirror { id },
            Hit::Link { a, b, near } => HitView::Link { a, b, near },
            Hit::Message { id, from, to } => HitView::Message { id, from, to },
        });
        to_js(&v)
    }

    /// A message dot's popup (`app::hand::DotHand`: `{message, etcd_kind,
    /// drop, hold}`), for message `id` of node `from`'s cluster; null once
    /// it is no longer on its way.
    #[wasm_bindgen(js_name = messageHand)]
    pub fn message_hand(&self, from: u32, id: f64) -> JsValue {
        if !(id.is_finite() && id >= 0.0) {
            return JsValue::NULL;
        }
        to_js(&hand::dot_hand(
            self.engine.fleet(),
            u64::from(from),
            id as u64,
        ))
    }

    /// A link's popup (`app::hand::LinkHand`: `{a, b, directions: [{from,
    /// to, held, waiting, flying}], hold, release_one, release_all}`); null
    /// when no link of one cluster joins them.
    #[wasm_bindgen(js_name = linkHand)]
    pub fn link_hand(&self, a: u32, b: u32) -> JsValue {
        to_js(&hand::link_hand(
            self.engine.fleet(),
            u64::from(a),
            u64::from(b),
        ))
    }

    /// Every message dot as last drawn (CSS pixels of the layout): `[{id,
    /// from, to, x, y, held}]`, for the arrow keys that pick one.
    #[wasm_bindgen(js_name = messageDots)]
    pub fn message_dots(&self) -> JsValue {
        #[derive(Serialize)]
        struct DotView {
            id: u64,
            from: u64,
            to: u64,
            x: f64,
            y: f64,
            held: bool,
        }
        let fleet = self.engine.fleet();
        let all: Vec<DotView> = fleet
            .clusters()
            .iter()
            .zip(&self.board.parts)
            .flat_map(|(c, l)| dots::dots(l, c, c.now() as f64 + self.carry, self.still))
            .map(|d| DotView {
                id: d.id,
                from: d.from,
                to: d.to,
                x: d.x,
                y: d.y,
                held: d.held,
            })
            .collect();
        to_js(&all)
    }

    /// Whether a message is on its way, not held, for `deliver-next`.
    #[wasm_bindgen(js_name = canDeliverNext)]
    pub fn can_deliver_next(&self) -> bool {
        hand::can_deliver_next(self.engine.fleet())
    }

    /// Highlights what is under the pointer; returns whether that changed
    /// (the page redraws only then while paused).
    pub fn hover(&mut self, x: f64, y: f64) -> bool {
        let hit = self.hit_at(x, y);
        let changed = hit != self.hover;
        self.hover = hit;
        changed
    }

    /// Messages on the network now (queued at a sender or on the wire).
    #[wasm_bindgen(js_name = inFlight)]
    pub fn in_flight(&self) -> u32 {
        let clusters = self.engine.fleet().clusters();
        clusters.iter().map(|c| c.in_flight().count() as u32).sum()
    }

    /// Whether messages from `from` to `to` are cut off (on a mirror's link
    /// too).
    #[wasm_bindgen(js_name = isCut)]
    pub fn is_cut(&self, from: u32, to: u32) -> bool {
        self.engine.fleet().is_cut(u64::from(from), u64::from(to))
    }

    /// Where a node or a mirror process sits (CSS pixels, as last drawn):
    /// `[x, y, radius]` (a mirror's: half its square's side).
    #[wasm_bindgen(js_name = nodePosition)]
    pub fn node_position(&self, id: u32) -> Option<Vec<f64>> {
        let id = u64::from(id);
        match self.board.spot(id) {
            Some((s, i)) => Some(vec![s.x, s.y, self.board.parts[i].node_r]),
            None => self
                .board
                .mirrors
                .iter()
                .find(|m| m.id == id)
                .map(|m| vec![m.x, m.y, crate::app::layout::MIRROR_R]),
        }
    }
}

/// What the wasm tests ask of an app and the page never does: plain Rust,
/// not exported, so that neither the module nor its glue carries them.
impl App {
    /// Runs the queued run for at most `work` units of work (engine steps
    /// and commands) and returns its progress, as `runFor` does.
    pub fn run_slice(&mut self, work: f64) -> JsValue {
        let work = work_units(work);
        self.carry = 0.0;
        to_js(&self.engine.run_slice(work))
    }

    /// The lowest id a new member can take.
    pub fn next_id(&self) -> Option<u32> {
        view::next_id(self.engine.cluster()).map(|id| id as u32)
    }

    pub fn node_count(&self) -> u32 {
        self.engine.cluster().known_ids().len() as u32
    }
}

impl App {
    /// What lies under a point, as last drawn: a node or a mirror first,
    /// then a message dot, then a link.
    fn hit_at(&self, x: f64, y: f64) -> Option<Hit> {
        let hit = self.board.hit(x, y);
        if matches!(hit, Some(Hit::Node(_) | Hit::Mirror(_))) {
            return hit;
        }
        let fleet = self.engine.fleet();
        for (c, l) in fleet.clusters().iter().zip(&self.board.parts) {
            let all = dots::dots(l, c, c.now() as f64 + self.carry, self.still);
            if let Some(d) = dots::dot_at(&all, x, y) {
                return Some(Hit::Message {
                    id: d.id,
                    from: d.from,
                    to: d.to,
                });
            }
        }
        hit
    }

    fn with(engine: Engine) -> App {
        App {
            engine,
            board: Board::default(),
            dashes: draw::Dashes::new(),
            pictures: draw::Pictures::default(),
            carry: 0.0,
            hover: None,
            chunk: 16,
            slowest_chunk_ms: 0.0,
            view: (0.0, 0.0),
            still: false,
        }
    }

    /// Swaps in a new run (an opened link or file), keeping the drawing's
    /// layout.
    fn replace(&mut self, mut engine: Engine) {
        engine.set_language(self.engine.language());
        self.engine = engine;
        self.carry = 0.0;
        self.hover = None;
    }

    fn lesson_move(&mut self, what: LessonMove) -> JsValue {
        self.carry = 0.0;
        match self.engine.lesson_step(what) {
            Some(step) => to_js(&step),
            None => JsValue::NULL,
        }
    }
}

/// Time travel, sharing, lessons and the safety indicator.
#[wasm_bindgen]
impl App {
    // ---- time travel (the sandbox) ----------------------------------------------------

    /// Goes to simulated moment `t_ms` of the run (clamped to its live
    /// edge) and returns where it landed: `t_ms`, unless a command that lets
    /// time pass spans it (then the command's end). Nothing is narrated. In a
    /// lesson, which has no timeline: NaN, nothing changes.
    pub fn seek(&mut self, t_ms: f64) -> f64 {
        if !t_ms.is_finite() {
            return f64::NAN;
        }
        self.carry = 0.0;
        let t = t_ms.max(0.0) as u64;
        self.engine.seek(t).map_or(f64::NAN, |x| x as f64)
    }

    /// Starts going to moment `t_ms` in slices (the scrubber): `runFor`
    /// goes on with it, the moment shown stays until it lands, `cancel`
    /// drops it. Returns where it will land; NaN in a lesson or while a run
    /// goes on (the log says so). A new target replaces the one sought.
    #[wasm_bindgen(js_name = beginSeek)]
    pub fn begin_seek(&mut self, t_ms: f64) -> f64 {
        if !t_ms.is_finite() {
            return f64::NAN;
        }
        self.carry = 0.0;
        let t = t_ms.max(0.0) as u64;
        self.engine.begin_seek(t).map_or(f64::NAN, |x| x as f64)
    }

    /// Steps back to the previous narrated moment; its time, or undefined
    /// at the very beginning (the log says so) and in a lesson.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&mut self) -> Option<f64> {
        self.carry = 0.0;
        self.engine.step_back().map(|x| x as f64)
    }

    /// Back to the live edge of the current branch; its time.
    #[wasm_bindgen(js_name = goLive)]
    pub fn go_live(&mut self) -> Option<f64> {
        self.carry = 0.0;
        self.engine.go_live().map(|x| x as f64)
    }

    /// Everything the scrubber draws: `{now_ms, end_ms, live, branch,
    /// entries: [{at_ms, end_ms, text}], leaders: [{at_ms, id, term}],
    /// branches: [{id, parent, fork_ms, end_ms, left_at_ms, commands, first,
    /// current}]}`; null in a lesson.
    pub fn timeline(&self) -> JsValue {
        to_js(&self.engine.timeline())
    }

    /// Makes branch `id` current, at the moment it was left: `{ok, at_ms}`
    /// or `{ok: false, error}`; the log says which.
    #[wasm_bindgen(js_name = switchBranch)]
    pub fn switch_branch(&mut self, id: u32) -> JsValue {
        self.carry = 0.0;
        match self.engine.switch_branch(id) {
            Ok(at) => Answer::at(Some(at)),
            Err(e) => Answer::refused(&e),
        }
    }

    // ---- share links and files --------------------------------------------------------

    /// The share-link fragment (`#v1.…`) of the run at the current moment.
    #[wasm_bindgen(js_name = shareLink)]
    pub fn share_link(&self) -> String {
        self.engine.share_link()
    }

    /// Opens a share link in place of the current run, its run queued (the
    /// page runs it with `runFor`): `{ok: true}`, or `{ok: false, error}`
    /// with the app exactly as it was.
    #[wasm_bindgen(js_name = openLink)]
    pub fn open_link(&mut self, link: &str) -> JsValue {
        match Engine::queued_link(link) {
            Ok(engine) => {
                self.replace(engine);
                Answer::done()
            }
            Err(e) => Answer::refused(&self.engine.share_refusal(&e)),
        }
    }

    /// The run as a `.scenario` file, at the current moment.
    #[wasm_bindgen(js_name = exportScenario)]
    pub fn export_scenario(&self) -> String {
        self.engine.export_scenario()
    }

    /// Opens a `.scenario` file in place of the current run, its run queued
    /// (see `openLink`): `{ok: true}`, or `{ok: false, error}` with the app
    /// exactly as it was.
    #[wasm_bindgen(js_name = importScenario)]
    pub fn import_scenario(&mut self, text: &str) -> JsValue {
        match Engine::queued_file(text) {
            Ok(engine) => {
                self.replace(engine);
                Answer::done()
            }
            Err(e) => Answer::refused(&self.engine.share_refusal(&e)),
        }
    }

    // ---- lessons --------------------------------------------------------------------------

    /// Opens a lesson (an id of `lessons()`) at its start; the sandbox waits
    /// aside. `{ok: true}` or `{ok: false, error}`.
    #[wasm_bindgen(js_name = openLesson)]
    pub fn open_lesson(&mut self, id: &str) -> JsValue {
        self.carry = 0.0;
        match self.engine.open_lesson(id) {
            Ok(()) => Answer::done(),
            Err(e) => Answer::refused(&e),
        }
    }

    /// Leaves the lesson for the sandbox as it was; false if none was open.
    #[wasm_bindgen(js_name = leaveLesson)]
    pub fn leave_lesson(&mut self) -> bool {
        self.carry = 0.0;
        self.engine.leave_lesson()
    }

    /// Runs the lesson to its next pause at once (while a step plays: the
    /// rest of it). The step: `{position, steps,
    /// finished, says, lines, results, surprises, surprise}` (`lines`: the
    /// log's lines, as `narration` gives them; `surprise`: what did not go
    /// as the lesson says, in words); null outside a lesson.
    #[wasm_bindgen(js_name = lessonNext)]
    pub fn lesson_next(&mut self) -> JsValue {
        self.lesson_move(LessonMove::Next)
    }

    /// Begins playing the lesson's next step, shown as it happens: each
    /// `lessonFrame` runs a slice of it. True when a step plays (also when
    /// one already did), false at the lesson's end; undefined outside a
    /// lesson.
    #[wasm_bindgen(js_name = lessonPlay)]
    pub fn lesson_play(&mut self) -> Option<bool> {
        self.carry = 0.0;
        self.engine.lesson_play()
    }

    /// Whether a lesson step is playing.
    #[wasm_bindgen(js_name = lessonPlaying)]
    pub fn lesson_playing(&self) -> bool {
        self.engine.lesson_playing()
    }

    /// One animation frame of the playing step: `real_ms` of wall time at
    /// `speed` (the page's speed control). What happened goes to
    /// `narration`; when the step reaches its pause, the step (as
    /// `lessonNext` returns it, with the lines not yet told); else null.
    #[wasm_bindgen(js_name = lessonFrame)]
    pub fn lesson_frame(&mut self, real_ms: f64, speed: f64) -> JsValue {
        match self.engine.lesson_frame(real_ms, speed) {
            Some(step) => to_js(&step),
            None => JsValue::NULL,
        }
    }

    /// Back one pause (the run rebuilt to it); the step shown there.
    #[wasm_bindgen(js_name = lessonBack)]
    pub fn lesson_back(&mut self) -> JsValue {
        self.lesson_move(LessonMove::Back)
    }

    /// Back to the lesson's start.
    #[wasm_bindgen(js_name = lessonRestart)]
    pub fn lesson_restart(&mut self) -> JsValue {
        self.lesson_move(LessonMove::Restart)
    }

    /// Back on the lesson's path at the current pause, forgetting the
    /// reader's own commands and the time they let pass.
    #[wasm_bindgen(js_name = lessonRejoin)]
    pub fn lesson_rejoin(&mut self) -> JsValue {
        self.lesson_move(LessonMove::Rejoin)
    }

    /// To pause `k` (0: the start), rebuilt from the start.
    #[wasm_bindgen(js_name = lessonGoto)]
    pub fn lesson_goto(&mut self, k: u32) -> JsValue {
        self.lesson_move(LessonMove::Goto(k as usize))
    }

    /// The lesson panel: `{id, title, figures, summary, position, steps,
    /// finished, on_path, says, quorum: {voters, learners, quorum, leader,
    /// from, reachable, has_quorum}, playing, failed_checks, sentence}`; null
    /// in the sandbox.
    pub fn lesson(&self) -> JsValue {
        match self.engine.lesson() {
            Some(l) => with(to_js(&l.lesson), "sentence", to_js(&l.sentence)),
            None => JsValue::NULL,
        }
    }

    // ---- safety ----------------------------------------------------------------------------

    /// Renders the safety indicator for the current status into `el`. A
    /// DOM call's exception is thrown on as the browser raised it (printing
    /// it with `{:?}` would bring `JsValue`'s debug printer into the glue).
    #[wasm_bindgen(js_name = renderSafety)]
    pub fn render_safety(&self, el: &Element) -> Result<(), JsValue> {
        let status = SafetyStatus::of(&self.engine.status().status);
        safety::render(el, &status, self.engine.renderer())
    }
}
