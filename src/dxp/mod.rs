//! DamExchange (DXP), the protocol of engine matches in international
//! draughts (Kingsrow, Scan, Dam, pydraughts' client): `salto dxp`. See
//! docs/dxp.md.
//!
//! - [`message`]: the layer 2 messages (GAMEREQ, GAMEACC, MOVE, GAMEEND,
//!   CHAT, BACKREQ, BACKACC);
//! - [`conn`]: layer 1 over a socket (NUL-terminated messages);
//! - [`session`]: the games of one connection, refereed with Salto's
//!   rules, the moves from a Hub engine.

pub mod conn;
pub mod message;
pub mod session;

pub use message::{Color, Message};
pub use session::{GameReport, HubPlayer, Limits, Player, Result3, Session};
