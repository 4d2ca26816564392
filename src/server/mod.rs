//! Layer 3: the etcd server over the simulated world. What an operator or a
//! client does to etcd (MemberAdd, MemberPromote, MemberRemove, MemberList,
//! MoveLeader, Put, Range), with etcd's checks and etcd's errors.
//!
//! The world simulates the etcd processes (Raft plus the applier, which runs
//! etcd's apply-time membership checks); this layer is the API in front of
//! them: where a request goes, the checks etcd makes before proposing, and
//! waiting for the answer or timing out.

pub mod client;
pub mod cluster;
pub mod error;
pub mod facts;
pub mod fleet;
pub mod history;
pub mod join;
pub mod join_state;
pub mod joint;
pub mod load;
pub mod member_info;
pub mod members;
pub mod mirror;
pub mod mode_settings;
pub mod mode_state;
pub mod modes;
pub mod process;
pub mod reconfig;
pub mod release;
pub mod request;
pub mod watch;

pub use cluster::{Cluster, ServerConfig};
pub use error::{ErrorCode, ErrorDetail, ServerError, UrlProblem, Waited};
pub use facts::{CatchUp, SelfView};
pub use fleet::Fleet;
pub use member_info::MemberStatus;
pub use mirror::{Mirror, MirrorState};
pub use mode_settings::{Failover, FailoverWatch, MemberKind, ModesConfig, NewMembers, ReadMode};
pub use release::Release;
pub use request::{Call, Outcome, RequestId, CLIENT_TIMEOUT_MS, DEADLINE_EXCEEDED};
