//! One seed's script: a random cluster, then one command at a time picked
//! with the live cluster in view and run at once, until the run's simulated
//! time is up. The script is the commands it ran, so running the script
//! again gives the same run.

use std::sync::Arc;

use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::lang::ast::Command;
use crate::session::exec::Session;

use super::by_hand::{hand_fault, hand_stream};
use super::cluster::cluster_line;
use super::commands::{next_command, Pick};
use super::history_ops::{history_command, history_stream};
use super::joint::{joint_command, joint_stream};
use super::mirrored::{mirror_fault, mirror_setup, mirror_stream};
use super::modes::{learner_kind, modes_stream, random_modes};
use super::view::view;

/// Simulated time of one run when nothing else is asked.
pub const DEFAULT_DURATION_MS: u64 = 60_000;

/// Runs one command as the script's next line; its text.
pub fn run_line(session: &mut Session, line: usize, cmd: Command) -> String {
    let text = cmd.to_string();
    session.execute(line, &text, Arc::new(cmd));
    text
}

/// Builds and runs the random script of `seed` for `duration_ms` of simulated
/// time. Returns the script and the session that ran it.
pub fn generate(seed: u64, duration_ms: u64) -> (String, Session) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut spec = cluster_line(seed, &mut rng);
    let mut modes = modes_stream(seed);
    if let Some(m) = modes.as_mut() {
        random_modes(m, &mut spec);
    }
    let mut session = Session::new(&spec);
    let mut script = format!("{spec}\n");
    let mut line = 1;
    let mut push = |session: &mut Session, cmd: Command| {
        line += 1;
        script.push_str(&run_line(session, line, cmd));
        script.push('\n');
    };
    let mut mirror = mirror_stream(seed);
    let source = spec.voters[0];
    if mirror.is_some() {
        for cmd in mirror_setup(source) {
            push(&mut session, cmd);
        }
    }
    let mut history = history_stream(seed);
    let mut hand = hand_stream(seed);
    let mut joint = joint_stream(seed);
    let mut writes = 0u64;
    while session.now() < duration_ms {
        let view = view(&session);
        let mut pick = Pick {
            view: &view,
            spec: &spec,
            writes: &mut writes,
        };
        let mut cmd = next_command(&mut rng, &mut pick);
        if let Some(m) = modes.as_mut() {
            learner_kind(m, &mut cmd);
        }
        if let Some(fault) = mirror.as_mut().and_then(|m| mirror_fault(m, source)) {
            cmd = fault;
        }
        if let Some(h) = history
            .as_mut()
            .and_then(|h| history_command(h, &session, &view))
        {
            cmd = h;
        }
        if let Some(change) = joint.as_mut().and_then(|j| joint_command(j, &view)) {
            cmd = change;
        }
        if let Some(fault) = hand.as_mut().and_then(|h| hand_fault(h, &session)) {
            cmd = fault;
        }
        push(&mut session, cmd);
    }
    let _ = session.take_narration();
    (script, session)
}
