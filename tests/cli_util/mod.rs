//! Running the salto binary from tests, for the tests of its subcommands.

#![allow(dead_code)]

use std::process::Command;

/// Runs salto with `args`: (success, stdout, stderr).
pub fn salto(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(args)
        .output()
        .expect("run salto");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
