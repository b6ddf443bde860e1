//! Shared by the real-client tests (tests/protocol_pydraughts.rs,
//! tests/dxp_pydraughts.rs): the python of the `.ci/run` virtual
//! environment, and a script run with a deadline, so that a client that
//! stops answering fails the test with its log instead of hanging CI.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The python with pydraughts 0.6.7 (`SALTO_PYDRAUGHTS_PYTHON`). Without
/// it the test is skipped, except under CI (`CI=true`), where it fails:
/// `.ci/run` must make the virtual environment and export the variable.
pub fn python() -> Option<String> {
    match std::env::var("SALTO_PYDRAUGHTS_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but SALTO_PYDRAUGHTS_PYTHON is not set: .ci/run must create the \
                 pydraughts virtual environment and export it"
            );
            eprintln!(
                "skipped: set SALTO_PYDRAUGHTS_PYTHON to a python with pydraughts==0.6.7 (see .ci/run)"
            );
            None
        }
    }
}

fn drain(mut r: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        buf
    })
}

/// Runs `cmd` to its end. Past `limit` it is killed and the test fails,
/// showing what the script wrote on stdout and stderr.
pub fn run_within(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python");
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let deadline = Instant::now() + limit;
    let (status, late) = loop {
        if let Some(s) = child.try_wait().expect("wait for python") {
            break (s, false);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break (child.wait().expect("wait for python"), true);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    assert!(
        !late,
        "the pydraughts script did not end within {} s and was killed.\nstdout:\n{}\nstderr:\n{}",
        limit.as_secs(),
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    Output {
        status,
        stdout,
        stderr,
    }
}
