//! The other clusters and the mirror processes: a `cluster` line after
//! the first, `mirror start`, `mirror stop`.

use crate::server::Cluster;

use crate::lang::ast::Command;
use crate::session::exec::{cluster_seed, configs, Session};
use crate::session::failure::Failure;

impl Session {
    /// Adds a cluster, or starts or stops a mirror process, at once.
    pub(super) fn fleet_command(&mut self, cmd: &Command) -> Result<(), Failure> {
        match cmd {
            Command::AddCluster(spec) => {
                let index = self.fleet.len() as u64;
                let (mut world, server) = configs(spec);
                world.seed = cluster_seed(self.spec.seed, spec.seed, index);
                world.start_ms = self.now();
                let name = spec.name.clone().unwrap_or_default();
                for id in &spec.voters {
                    self.fleet.check_free(*id)?;
                }
                let cluster = Cluster::new(world, server, &spec.voters);
                self.fleet.add_cluster(&name, cluster)?;
            }
            Command::MirrorStart {
                id,
                from,
                to,
                prefix,
            } => self.fleet.mirror_start(*id, *from, *to, prefix.clone())?,
            Command::MirrorStop(id) => self.fleet.mirror_stop(*id)?,
            // `start` sends only the commands above here.
            _ => {}
        }
        Ok(())
    }
}
