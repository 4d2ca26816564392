//! How fast a lesson step plays: the page's Next shows the step happen, its
//! `wait`s and `wait-until`s running a slice of simulated time per animation
//! frame, and stops at the step's `pause`.
//!
//! The pace: at the page's default speed a wait of up to
//! [`REAL_TIME_UP_TO_MS`] runs in real time; a longer one is compressed, its
//! wall time growing with the logarithm of its length (a 20 s wait plays in
//! about 7 s, a minute in about 9 s). A `wait-until` plays at the pace of a
//! `wait` as long as its `within=`, since how long it will take is not known
//! before it ends. The page's speed control scales all of it. Commands that
//! take no slice (writes, membership changes, checks, `say`) run at once,
//! in the frame that reaches them.
//!
//! Which command runs, and how it is cut into slices, is the
//! [`LessonPlayer`]'s; slices never change the run: a step played at any
//! pace ends bit for bit where running it at once ends.

use crate::app::trig::clamp;
use crate::lang::ast::Command;
use crate::lessons::player::Played;
use crate::lessons::LessonPlayer;

/// The page's default speed (simulated ms per real ms in the sandbox): at
/// this speed a lesson plays at its own pace.
pub const DEFAULT_SPEED: f64 = 0.2;

/// Waits up to this long play in real time at the default speed.
pub const REAL_TIME_UP_TO_MS: f64 = 1500.0;

/// Real milliseconds one frame may account for at most (a tab hidden for a
/// while does not jump ahead).
pub const MAX_FRAME_MS: f64 = 250.0;

/// Wall milliseconds a wait of `sim_ms` takes at the default speed.
pub fn wall_ms(sim_ms: u64) -> f64 {
    let d = sim_ms as f64;
    if d <= REAL_TIME_UP_TO_MS {
        d
    } else {
        REAL_TIME_UP_TO_MS * (1.0 + (d / REAL_TIME_UP_TO_MS).log2())
    }
}

/// Simulated ms per wall ms for a command at the default speed; `None` for
/// a command that runs at once.
pub fn rate(cmd: &Command) -> Option<f64> {
    let span = match cmd {
        Command::Wait(ms) => *ms,
        Command::WaitUntil { within_ms, .. } => *within_ms,
        _ => return None,
    };
    Some(if span == 0 {
        1.0
    } else {
        span as f64 / wall_ms(span)
    })
}

/// The pace of one playing step: what a frame's wall time buys.
#[derive(Debug, Clone, Default)]
pub struct Pacer {
    /// Simulated milliseconds owed (below one).
    carry: f64,
}

impl Pacer {
    /// Simulated ms owed to the clock, for drawing between whole ms.
    pub fn carry(&self) -> f64 {
        self.carry
    }

    /// Plays `real_ms` of wall time at `speed` (the page's speed control;
    /// [`DEFAULT_SPEED`] is the lesson's own pace). True when the step's
    /// commands have all run (the player's `end_step` closes it).
    pub fn frame(&mut self, player: &mut LessonPlayer, real_ms: f64, speed: f64) -> bool {
        if !player.playing() {
            self.carry = 0.0;
            return true;
        }
        let scale = if speed.is_finite() && speed > 0.0 {
            speed / DEFAULT_SPEED
        } else {
            1.0
        };
        let real_ms = if real_ms.is_finite() {
            clamp(real_ms, 0.0, MAX_FRAME_MS)
        } else {
            0.0
        };
        // Wall time left in this frame, at the lesson's own pace.
        let mut wall = real_ms * scale;
        loop {
            let Some(rate) = player.current().map(rate) else {
                self.carry = 0.0;
                return true;
            };
            let Some(rate) = rate else {
                // Runs at once.
                if player.play(player.session().now()) == Played::Step {
                    self.carry = 0.0;
                    return true;
                }
                continue;
            };
            let now = player.session().now();
            let budget = wall * rate + self.carry;
            let whole = budget.floor();
            match player.play(now.saturating_add(whole as u64)) {
                Played::Running => {
                    self.carry = budget - whole;
                    return false;
                }
                Played::Command => {
                    // The wall time the command used; the rest goes on.
                    let used = player.session().now().saturating_sub(now) as f64 / rate;
                    wall = (wall - used).max(0.0);
                    self.carry = 0.0;
                }
                Played::Step => {
                    self.carry = 0.0;
                    return true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::{self, Lesson, LessonPlayer};

    /// Plays a whole lesson at `frame` ms per frame (varied by `jitter`),
    /// and returns the player and how many frames each step took.
    fn play_all(lesson: Lesson, frame: f64, jitter: u64) -> (LessonPlayer, Vec<usize>) {
        let mut player = LessonPlayer::new(lesson);
        let mut pacer = Pacer::default();
        let mut frames = Vec::new();
        let mut k = 0u64;
        while player.begin_step() {
            let mut n = 0;
            loop {
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let ms = frame + ((k >> 33) % (jitter + 1)) as f64;
                n += 1;
                if pacer.frame(&mut player, ms, DEFAULT_SPEED) {
                    break;
                }
                assert!(n < 100_000, "a step that never ends");
            }
            player.end_step();
            frames.push(n);
        }
        (player, frames)
    }

    fn fingerprint(p: &LessonPlayer) -> (String, Vec<String>, u64) {
        let s = p.session();
        (s.report_json().to_string(), s.history(), s.now())
    }

    #[test]
    fn a_step_played_frame_by_frame_ends_where_running_it_at_once_ends() {
        for lesson in lessons::lessons().unwrap() {
            for seed in [1, 7] {
                let lesson = lesson.with_seed(seed);
                let mut at_once = LessonPlayer::new(lesson.clone());
                let mut whole = Vec::new();
                while !at_once.finished() {
                    whole.push(at_once.next());
                }
                for (frame, jitter) in [(16.0, 0), (7.0, 40), (250.0, 0)] {
                    let (played, _) = play_all(lesson.clone(), frame, jitter);
                    assert_eq!(
                        fingerprint(&played),
                        fingerprint(&at_once),
                        "{} seed {seed} at {frame} ms frames",
                        lesson.id
                    );
                    assert_eq!(played.failed_checks(), at_once.failed_checks());
                }
                // Each step's state at its pause is the state `goto`
                // rebuilds there.
                let mut rebuilt = LessonPlayer::new(lesson.clone());
                rebuilt.goto(whole.len());
                assert_eq!(
                    fingerprint(&rebuilt),
                    fingerprint(&at_once),
                    "{}",
                    lesson.id
                );
            }
        }
    }

    #[test]
    fn played_lines_are_the_lines_next_shows_in_the_same_order() {
        let lesson = lessons::find("05-four-voters-split-2-2").unwrap();
        let mut at_once = LessonPlayer::new(lesson.clone());
        let mut player = LessonPlayer::new(lesson);
        let mut pacer = Pacer::default();
        while player.begin_step() {
            let mut lines = Vec::new();
            while !pacer.frame(&mut player, 16.0, DEFAULT_SPEED) {
                lines.extend(player.take_lines());
            }
            let step = player.end_step();
            lines.extend(step.lines.iter().cloned());
            let whole = at_once.next();
            assert_eq!(lines, whole.lines);
            assert_eq!(step.says, whole.says);
            assert_eq!(step.results, whole.results);
            assert_eq!(step.position, whole.position);
        }
    }

    #[test]
    fn the_clock_moves_in_many_frames_and_long_waits_play_longer_but_compressed() {
        // A 20 s wait at 60 frames a second: several seconds of frames.
        let lesson = Lesson::parse(
            "t.scenario",
            "# title: t\n# figure: 1\n# summary: s\ncluster voters=1,2,3 seed=1\n\
             campaign 1\nwait-until leader=1 within=2s\npause\nwait 20s\npause\nwait 1s\n",
        )
        .unwrap();
        let (_, frames) = play_all(lesson, 1000.0 / 60.0, 0);
        assert_eq!(frames.len(), 3);
        let seconds = |n: usize| n as f64 / 60.0;
        assert!((0.01..2.5).contains(&seconds(frames[0])), "{frames:?}");
        assert!((5.0..9.0).contains(&seconds(frames[1])), "{frames:?}");
        assert!((0.9..1.2).contains(&seconds(frames[2])), "{frames:?}");
        assert!(wall_ms(60_000) < 10_000.0 && wall_ms(60_000) > wall_ms(20_000));
    }

    #[test]
    fn the_speed_control_scales_the_pace_and_bad_input_moves_nothing() {
        let lesson = lessons::find("01-new-member-overloads-leader").unwrap();
        let mut player = LessonPlayer::new(lesson);
        let mut pacer = Pacer::default();
        player.next();
        assert!(player.begin_step());
        // Step 2 begins with a `say` and a `load`, then a 20 s wait.
        pacer.frame(&mut player, 100.0, DEFAULT_SPEED);
        let t0 = player.session().now();
        pacer.frame(&mut player, 100.0, DEFAULT_SPEED);
        let slow = player.session().now() - t0;
        pacer.frame(&mut player, 100.0, DEFAULT_SPEED * 4.0);
        let fast = player.session().now() - t0 - slow;
        assert!(slow > 100 && fast >= 4 * slow - 4, "{slow} {fast}");
        let t1 = player.session().now();
        for bad in [f64::NAN, -5.0, 0.0, f64::NEG_INFINITY] {
            assert!(!pacer.frame(&mut player, bad, DEFAULT_SPEED));
        }
        assert_eq!(player.session().now(), t1);
        // A frame after a long pause in the tab counts as one short frame.
        pacer.frame(&mut player, 1e9, DEFAULT_SPEED);
        assert!(player.session().now() - t1 < 2000);
        assert!(player.playing());
    }
}
