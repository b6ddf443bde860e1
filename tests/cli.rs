//! The command line from the outside. The subcommands write to a reader
//! that has gone (`salto analyse | head -1`) without panicking: a closed
//! stdout ends them quietly with status 0, a closed stderr does not stop the
//! work. A global option before a subcommand still runs that subcommand.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs salto with `args`, its stdout (or stderr) a pipe whose reading end
/// is closed before salto starts, so that its first line already fails.
fn run_into_closed_pipe(args: &[&str], close_stderr: bool) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_salto"));
    cmd.env("SALTO_EGDB", "off");
    cmd.args(args).stdin(Stdio::null());
    if close_stderr {
        cmd.stdout(Stdio::null()).stderr(writer);
    } else {
        cmd.stdout(writer).stderr(Stdio::piped());
    }
    cmd.output().expect("run salto")
}

fn assert_quiet_exit(args: &[&str]) {
    let out = run_into_closed_pipe(args, false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.is_empty(),
        "salto {}: {:?}, stderr: {err}",
        args.join(" "),
        out.status
    );
}

#[test]
fn analyse_ends_quietly_when_stdout_is_closed() {
    assert_quiet_exit(&["analyse", "--depth", "3"]);
    assert_quiet_exit(&["analyse", "--depth", "3", "--json"]);
}

#[test]
fn perft_bench_and_egdb_info_end_quietly_when_stdout_is_closed() {
    assert_quiet_exit(&["perft", "--depth", "2", "--divide"]);
    assert_quiet_exit(&["bench", "--variant", "english", "--depth", "2"]);
    let dir = std::env::temp_dir().join(format!("salto-cli-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let dir_arg = dir.to_string_lossy().into_owned();
    assert_quiet_exit(&["egdb", "info", "--dir", &dir_arg]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_finishes_its_file_when_stderr_is_closed() {
    let file = std::env::temp_dir().join(format!("salto-cli-output-{}.bin", std::process::id()));
    let file_arg = file.to_string_lossy().into_owned();
    let out = run_into_closed_pipe(
        &[
            "datagen",
            "--variant",
            "english",
            "--games",
            "1",
            "--nodes",
            "100",
            "--out",
            &file_arg,
        ],
        true,
    );
    let written = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success(), "{:?}", out.status);
    assert!(written > 0, "no positions written");
}

/// Runs salto with `args` and `input` on stdin: (stdout, stderr).
fn run_with_input(args: &[&str], input: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run salto");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("salto ends");
    assert!(out.status.success(), "{:?}", out.status);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn log_before_a_subcommand_runs_the_subcommand_and_alone_a_hub_session() {
    let log = std::env::temp_dir().join(format!("salto-cli-log-{}.log", std::process::id()));
    let log_arg = log.to_string_lossy().into_owned();
    // Before the fix this was a Hub session: it read the end of stdin and
    // printed nothing.
    let (out, err) = run_with_input(&["--log", &log_arg, "perft", "--depth", "1"], "");
    assert!(
        out.starts_with("depth  1 count              9"),
        "{out}{err}"
    );
    assert!(log.exists(), "no log file");
    // Options alone still mean a Hub session, ours and foreign ones alike.
    for args in [
        &["--log", &log_arg][..],
        &["--bot-name=x"],
        &["--log", &log_arg, "hub"],
    ] {
        let (out, err) = run_with_input(args, "hub\nquit\n");
        assert!(
            out.starts_with("id name=Salto") && out.ends_with("wait\n"),
            "{args:?}: {out}{err}"
        );
    }
    let _ = std::fs::remove_file(&log);
}
