//! `salto match`: engine-vs-engine matches between Hub engines, refereed
//! with Salto's own rules. See docs/match.md.
//!
//! - [`engine`]: the Hub client (a process, its pipes, a reader thread).
//! - [`play`]: the referee (one game: legality, clocks, draws, failures).
//! - [`openings`]: openings from a file or generated.
//! - [`runner`]: the schedule, the workers, the summary.
//! - [`stats`]: Elo, interval, LOS, SPRT (trinomial and pentanomial).
//! - [`pdn`]: the games as PDN.
//! - [`journal`]: the games written as they end, for `--resume`.
//! - [`time_control`]: how long each engine may think.

pub mod engine;
pub mod journal;
pub mod openings;
pub mod pdn;
pub mod play;
pub mod ranking;
pub mod runner;
pub mod stats;
pub mod time_control;

pub use engine::{EngineSpec, HubEngine};
pub use play::{Adjudication, GameRecord, Opening, RefereeConfig, TimeControl};
pub use runner::{MatchConfig, MatchSummary, OpeningChoice, Shard, Tournament, run_match};
pub use stats::{Penta, Sprt, SprtDecision, Wdl};
