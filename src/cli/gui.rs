//! `salto gui`: serves the local web page (see docs/gui.md).

use crate::tournament::engine::EngineSpec;
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug, Clone)]
pub struct GuiArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. The default serves this computer only;
    /// anything else lets others on the network play on your table.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// A clock for every game: BASE+INC in seconds (`60+1`, `0.5`), as
    /// `salto match --tc`; the page's New game may set another.
    #[arg(long)]
    pub tc: Option<String>,
    /// Another Hub engine a seat may be, repeatable: the spec of `salto
    /// match --engine` ("cmd=PROGRAM [args=\"A B\"] [name=NAME] [dir=DIR]
    /// [param.NAME=VALUE ...]").
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
}

pub fn run(args: GuiArgs) -> ExitCode {
    let clock = match args.tc.as_deref().map(crate::gui::Clock::parse) {
        None => None,
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => return super::fail(e),
    };
    let mut engines: Vec<EngineSpec> = Vec::new();
    for text in &args.engines {
        match EngineSpec::parse(text) {
            Ok(e) if engines.iter().any(|o| o.name == e.name) => {
                return super::fail(format!(
                    "two engines are named '{}': give one a name=",
                    e.name
                ));
            }
            Ok(e) => engines.push(e),
            Err(e) => return super::fail(format!("--engine: {e}")),
        }
    }
    match crate::gui::start_with(&args.host, args.port, clock, engines) {
        Ok(server) => {
            // Stdout is free here: this is not a Hub session.
            outln!(
                "salto gui: serving http://{}/ (open it in a browser; Ctrl-C stops)",
                server.addr
            );
            server.wait();
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}
