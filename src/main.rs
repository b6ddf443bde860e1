use std::process::ExitCode;

fn main() -> ExitCode {
    salto::cli::main_with_args(std::env::args().collect())
}
