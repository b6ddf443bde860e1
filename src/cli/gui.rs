//! `salto gui`: serves the local web page (see docs/gui.md).

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
}

pub fn run(args: GuiArgs) -> ExitCode {
    match crate::gui::start(&args.host, args.port) {
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
