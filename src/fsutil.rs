//! File helpers shared by the tools that write files: a write that
//! replaces a file whole or not at all.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary name [`write_atomic`] writes to before the rename: in the
/// same folder (a rename across file systems is not atomic), hidden, and
/// unique to the process.
fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// synced and then renamed over `path`: a crash or a kill at any moment
/// leaves either the old file or the new one under the name, never part of
/// the new one. The temporary file is removed when a step fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_name(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("salto-fsutil-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
        d
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temporary_file() {
        let d = dir("replace");
        let p = d.join("out.bin");
        std::fs::write(&p, b"old contents, longer than the new").unwrap_or_else(|e| panic!("{e}"));
        write_atomic(&p, b"new").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read(&p).ok(), Some(b"new".to_vec()));
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("{e}"))
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.bin")]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let d = dir("fail");
        // The target is a folder: the rename fails, the folder stays, and
        // the temporary file is gone.
        let p = d.join("taken");
        std::fs::create_dir_all(p.join("inside")).unwrap_or_else(|e| panic!("{e}"));
        assert!(write_atomic(&p, b"data").is_err());
        assert!(p.join("inside").is_dir());
        assert!(!temp_name(&p).exists());
        let _ = std::fs::remove_dir_all(&d);
    }
}
