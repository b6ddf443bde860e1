//! `salto dxp`: international draughts over DamExchange, as the follower
//! (`--listen PORT`) or the initiator (`--connect HOST:PORT`), the moves
//! from a Hub engine (Salto's own `hub` by default). See docs/dxp.md.

use super::fail;
use crate::dxp::conn::{Conn, Trace};
use crate::dxp::{Color, HubPlayer, Limits, Session};
use crate::game::Game;
use crate::tournament::EngineSpec;
use crate::variant::{GameVisitor, Options, Variant, dispatch};
use clap::Args;
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct DxpArgs {
    /// Be the follower: wait for GAMEREQs on this port (0: any free port, printed on stderr).
    #[arg(
        long,
        value_name = "PORT",
        conflicts_with = "connect",
        required_unless_present = "connect"
    )]
    pub listen: Option<u16>,
    /// With --listen: the address to bind (default 127.0.0.1, this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Be the initiator: connect to a follower and ask for games.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// The engine that plays Salto's side (as in `salto match --engine`; default: this program's
    /// `hub`). Its own depth=/nodes=/movetime= replaces the game's time.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// Initiator: games to play, colours alternating; follower: stop after this many games
    /// (default: serve until killed).
    #[arg(long)]
    pub games: Option<usize>,
    /// Initiator: thinking time per player for the whole game, minutes (GAMEREQ).
    #[arg(long, default_value_t = 5)]
    pub time: u32,
    /// Initiator: moves for the whole game (0: no limit; GAMEREQ).
    #[arg(long, default_value_t = 0)]
    pub moves: u32,
    /// Initiator: Salto's colour in the first game (white or black).
    #[arg(long, default_value = "white")]
    pub color: String,
    /// The name Salto gives in GAMEREQ/GAMEACC.
    #[arg(long, default_value = "Salto")]
    pub name: String,
}

fn engine_spec(a: &DxpArgs) -> Result<EngineSpec, String> {
    match &a.engine {
        Some(s) => EngineSpec::parse(s),
        None => {
            let me = std::env::current_exe()
                .map_err(|e| format!("cannot find this program to run its hub: {e}"))?;
            let quoted = me
                .display()
                .to_string()
                .replace('\\', "\\\\")
                .replace('"', "\\\"");
            EngineSpec::parse(&format!("cmd=\"{quoted}\" args=hub name=salto"))
        }
    }
}

/// Prints one line per game on stdout.
fn print_reports(reports: &[crate::dxp::GameReport], from: usize) {
    for (i, r) in reports.iter().enumerate().skip(from) {
        outln!("game {}: {r}", i + 1);
    }
}

struct Run(DxpArgs);

impl GameVisitor for Run {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let a = self.0;
        let spec = engine_spec(&a)?;
        let trace = || -> Trace { Box::new(|dir, text| log::info!(target: "dxp", "{dir} {text}")) };
        if let Some(addr) = &a.connect {
            let color = match a.color.to_ascii_lowercase().as_str() {
                "white" | "w" => Color::White,
                "black" | "b" | "z" => Color::Black,
                other => return Err(format!("--color: expected white or black, got '{other}'")),
            };
            let stream =
                TcpStream::connect(addr).map_err(|e| format!("cannot connect to {addr}: {e}"))?;
            let mut s = Session::new(
                &game,
                Conn::new(stream, trace()),
                HubPlayer::new(spec),
                &a.name,
            );
            let r = s.initiate(
                a.games.unwrap_or(1).max(1),
                color,
                Limits {
                    minutes: a.time,
                    moves: a.moves,
                },
            );
            print_reports(&s.reports, 0);
            return r;
        }
        let port = a.listen.unwrap_or(27531);
        let listener = TcpListener::bind((a.host.as_str(), port))
            .map_err(|e| format!("cannot listen on {}:{port}: {e}", a.host))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        errln!("salto dxp: listening on {local}");
        let mut played = 0;
        // One connection at a time; the engine is kept between them.
        let mut player = HubPlayer::new(spec);
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let peer = stream
                .peer_addr()
                .map_or("?".to_string(), |p| p.to_string());
            errln!("salto dxp: connection from {peer}");
            let left = a.games.map(|g| g.saturating_sub(played));
            let mut s = Session::new(&game, Conn::new(stream, trace()), player, &a.name);
            if let Err(e) = s.serve(left) {
                errln!("salto dxp: {peer}: {e}");
            }
            print_reports(&s.reports, 0);
            played += s.reports.len();
            player = s.into_player();
            if a.games.is_some_and(|g| played >= g) {
                break;
            }
        }
        Ok(())
    }
}

pub fn run(a: DxpArgs) -> ExitCode {
    let opts = Options::new(Variant::International);
    match dispatch(&opts, Run(a)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => fail(e),
        Err(e) => fail(e),
    }
}
