//! Merging the reports of a campaign's shards into the report of the whole,
//! the same, byte for byte, as one run of the whole campaign prints.

use super::report::Report;
use super::shard::Shard;

/// The report of the whole campaign from the reports of its shards, each
/// once, in any order. Refuses parts of different campaigns, a missing or
/// repeated shard, and a shard that did not run all of its seeds.
pub fn merge(parts: &[Report]) -> Result<Report, String> {
    let first = parts.first().ok_or("no summaries to merge")?;
    let campaign = first.campaign;
    let mut shards: Vec<(Shard, &Report)> = Vec::new();
    for p in parts {
        if p.campaign != campaign {
            return Err(format!(
                "the summaries are of different campaigns: {:?} and {:?}",
                campaign, p.campaign
            ));
        }
        let Some(s) = p.shard else {
            return Err("a summary of a whole campaign is not a shard's (no --shard)".into());
        };
        let len = campaign.seeds_of(Some(s));
        if p.summary.seeds != len.end - len.start {
            return Err(format!(
                "shard {s} ran {} seeds of its {}",
                p.summary.seeds,
                len.end - len.start
            ));
        }
        shards.push((s, p));
    }
    shards.sort_by_key(|(s, _)| *s);
    let of = shards[0].0.of;
    for (i, (s, _)) in shards.iter().enumerate() {
        if s.of != of {
            return Err(format!("shard {s} is not one of {of} parts"));
        }
        if s.index != i as u64 + 1 {
            // Sorted: a shard below its place came in twice; one above it
            // means the shard of this place is missing.
            return Err(if s.index <= i as u64 {
                format!("shard {s} was given twice")
            } else {
                format!("shard {}/{of} is missing", i + 1)
            });
        }
    }
    if shards.len() as u64 != of {
        return Err(format!("shard {}/{of} is missing", shards.len() + 1));
    }
    let mut whole = Report {
        campaign,
        shard: None,
        summary: Default::default(),
        reproducer: None,
    };
    for (_, p) in &shards {
        whole.summary.merge(&p.summary);
        // The parts are in seed order: the first failing part's is the
        // lowest failing seed's.
        if whole.reproducer.is_none() {
            whole.reproducer = p.reproducer.clone();
        }
    }
    Ok(whole)
}
