//! `raftlab bench`: the engine's speed on the standard workload, a 5-voter
//! plus 1-learner cluster under a steady client load for 10 simulated
//! minutes. The criterion benchmark in benches/ runs the same workload.

use std::time::Instant;

use crate::session::exec::Session;

/// The standard workload, as a scenario script.
pub fn workload(simulated_s: u64, rate_per_s: u64) -> String {
    // One command waits at most an hour: longer runs wait in hour steps.
    let mut waits = String::new();
    let mut left = simulated_s;
    while left > 0 {
        let step = left.min(3600);
        waits.push_str(&format!("wait {step}s\n"));
        left -= step;
    }
    format!(
        "cluster voters=1,2,3,4,5 seed=1\n\
         wait-until leader\n\
         wait 6s\n\
         member add 6 --learner\n\
         start 6\n\
         load rate={rate_per_s}/s size=256B\n\
         {waits}\
         load stop\n"
    )
}

/// What one run of the workload measured.
#[derive(Debug, Clone)]
pub struct Figures {
    pub simulated_ms: u64,
    pub deliveries: u64,
    pub wall_s: f64,
    pub writes: usize,
}

/// The longest run `--seconds` asks for: a simulated day (its script holds
/// one `wait` line an hour).
pub const MAX_SECONDS: u64 = 86_400;

/// `--seconds`: 1 to [`MAX_SECONDS`].
pub fn parse_seconds(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if (1..=MAX_SECONDS).contains(&n) => Ok(n),
        Ok(_) => Err(format!("from 1 to {MAX_SECONDS} simulated seconds (a day)")),
        Err(_) => Err("expected a whole number of simulated seconds, like 600".to_string()),
    }
}

/// `--rate`: a load rate the scenario language takes (`load rate=N/s`).
pub fn parse_rate(s: &str) -> Result<u64, String> {
    use crate::lang::ast::MAX_LOAD_RATE_PER_S as MAX;
    match s.parse::<u64>() {
        Ok(n) if (1..=MAX).contains(&n) => Ok(n),
        Ok(_) => Err(format!(
            "from 1 to {MAX} writes a second, as `load rate=` takes"
        )),
        Err(_) => Err("expected a whole number of writes a second, like 100".to_string()),
    }
}

pub fn measure(simulated_s: u64, rate_per_s: u64) -> Figures {
    let script = workload(simulated_s, rate_per_s);
    let start = Instant::now();
    let session = Session::from_script(&script).expect("the workload script parses");
    let wall_s = start.elapsed().as_secs_f64();
    Figures {
        simulated_ms: session.now(),
        deliveries: session.cluster().world().deliveries(),
        wall_s,
        writes: session
            .cluster()
            .world()
            .raft(session.cluster().leader().unwrap_or(1))
            .map_or(0, |r| r.commit() as usize),
    }
}

pub fn run(simulated_s: u64, rate_per_s: u64) -> i32 {
    let f = measure(simulated_s, rate_per_s);
    println!(
        "5 voters + 1 learner, {rate_per_s} writes/s, {:.0} simulated seconds: {} message deliveries in {:.3} s wall time = {:.0} deliveries/s, {:.0}x real time (commit index {})",
        f.simulated_ms as f64 / 1000.0,
        f.deliveries,
        f.wall_s,
        f.deliveries as f64 / f.wall_s,
        f.simulated_ms as f64 / 1000.0 / f.wall_s,
        f.writes
    );
    0
}
