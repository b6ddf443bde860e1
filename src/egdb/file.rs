//! Slice files: a fixed header, then the values, 2 bits a position (four
//! to a byte, lowest bits first), White to move then Black to move. The
//! distance-to-conversion companions (`<material>.dtc`) have the same
//! header with the magic `SALTODTC` and one byte a position (plies to
//! leaving the slice, saturating at [`DTC_UNKNOWN`]; 0 for draws).
//!
//! Header (little-endian), 64 bytes:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | magic `SALTOEDB` (`SALTODTC`) |
//! | 8..12 | format version ([`VERSION`]) |
//! | 12..16 | material: white men, white kings, black men, black kings |
//! | 16..40 | rule set key (`international`, `turkish-immediate`, ...), zero-padded |
//! | 40..48 | positions per side to move (the index's count) |
//! | 48..56 | stored payload length in bytes (after the header) |
//! | 56..64 | FNV-1a 64 checksum of the stored payload |
//!
//! Version 2 (written since 2026-12-05) stores the payload compressed, in
//! blocks of [`BLOCK`] bytes of values, each compressed on its own
//! (deflate, raw): a table (`u32` block size, `u32` block count, then one
//! `u32` compressed length a block), then the blocks one after the other.
//! Version 1 stored the values as they are; it is still read.
//!
//! A file is trusted only when every field matches what the reader
//! expects, the checksum is right and every block gives back exactly its
//! length of values.

use super::index::{Board, Indexer};
use super::{Material, Slice};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"SALTOEDB";
pub const DTC_MAGIC: &[u8; 8] = b"SALTODTC";
/// A stored distance of 255 means "255 plies or more": not usable.
pub const DTC_UNKNOWN: u8 = 255;
/// The version written; [`VERSION_PLAIN`] is still read.
pub const VERSION: u32 = 2;
/// The version of the files without compression (before 2026-12-05).
pub const VERSION_PLAIN: u32 = 1;
/// Bytes of values a compressed block holds (the last one fewer).
pub const BLOCK: usize = 1 << 16;
pub const HEADER: usize = 64;
const KEY_LEN: usize = 24;

/// FNV-1a, 64 bits.
pub fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The bytes a slice of `count` positions a side needs.
pub fn payload_len(count: u64) -> usize {
    (2 * count).div_ceil(4) as usize
}

/// The bytes a distance file of `count` positions a side needs.
pub fn dtc_len(count: u64) -> usize {
    2 * count as usize
}

fn header(magic: &[u8; 8], key: &str, m: Material, count: u64, payload: &[u8]) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[0..8].copy_from_slice(magic);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&[m.wm, m.wk, m.bm, m.bk]);
    let k = key.as_bytes();
    let n = k.len().min(KEY_LEN);
    h[16..16 + n].copy_from_slice(&k[..n]);
    h[40..48].copy_from_slice(&count.to_le_bytes());
    h[48..56].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    h[56..64].copy_from_slice(&checksum(payload).to_le_bytes());
    h
}

/// Writes a slice: to a temporary file first, renamed into place when
/// complete, so an interrupted write never leaves a file that looks
/// finished.
pub fn write(path: &Path, key: &str, slice: &Slice) -> std::io::Result<()> {
    write_raw(path, MAGIC, key, &slice.indexer, &slice.data)
}

/// Writes the distances of a slice (one byte a position, White to move
/// first), the same way.
pub fn write_dtc(path: &Path, key: &str, indexer: &Indexer, dtc: &[u8]) -> std::io::Result<()> {
    write_raw(path, DTC_MAGIC, key, indexer, dtc)
}

fn write_raw(
    path: &Path,
    magic: &[u8; 8],
    key: &str,
    indexer: &Indexer,
    payload: &[u8],
) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let stored = compress(payload);
    let tmp = temp_path(path);
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&header(
            magic,
            key,
            indexer.material,
            indexer.count,
            &stored,
        ))?;
        f.write_all(&stored)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written?;
    // The rename reaches the disk with its directory.
    if let Some(dir) = path.parent()
        && let Ok(d) = fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The stored form of `values` (version 2): the block table, then the
/// blocks, compressed in parallel.
pub fn compress(values: &[u8]) -> Vec<u8> {
    use flate2::{Compression, write::DeflateEncoder};
    use rayon::prelude::*;
    let blocks: Vec<Vec<u8>> = values
        .par_chunks(BLOCK)
        .map(|b| {
            let mut e =
                DeflateEncoder::new(Vec::with_capacity(b.len() / 4), Compression::default());
            // Writing into a Vec cannot fail.
            let _ = e.write_all(b);
            e.finish().unwrap_or_default()
        })
        .collect();
    let mut out =
        Vec::with_capacity(8 + 4 * blocks.len() + blocks.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out
}

/// The values of a stored payload of version 2 that must hold `len`
/// bytes of values: every block decompressed (in parallel) and checked
/// against its length.
pub fn decompress(stored: &[u8], len: usize) -> Result<Vec<u8>, String> {
    use flate2::read::DeflateDecoder;
    use rayon::prelude::*;
    let corrupt = |what: &str| format!("corrupt compressed payload: {what}");
    if stored.len() < 8 {
        return Err(corrupt("no block table"));
    }
    let u32_at = |at: usize| {
        u32::from_le_bytes([stored[at], stored[at + 1], stored[at + 2], stored[at + 3]]) as usize
    };
    let (block, n) = (u32_at(0), u32_at(4));
    if block == 0 || n != len.div_ceil(block) {
        return Err(corrupt(&format!(
            "{n} blocks of {block} bytes for {len} bytes of values"
        )));
    }
    let table_end = 8 + 4 * n;
    if stored.len() < table_end {
        return Err(corrupt("block table cut"));
    }
    let mut spans = Vec::with_capacity(n);
    let mut at = table_end;
    for k in 0..n {
        let c = u32_at(8 + 4 * k);
        if at + c > stored.len() {
            return Err(corrupt(&format!("block {k} runs past the end")));
        }
        spans.push(at..at + c);
        at += c;
    }
    if at != stored.len() {
        return Err(corrupt("bytes after the last block"));
    }
    let mut out = vec![0u8; len];
    out.par_chunks_mut(block)
        .zip(spans.into_par_iter())
        .enumerate()
        .try_for_each(|(k, (dst, span))| {
            let mut d = DeflateDecoder::new(&stored[span]);
            let mut extra = [0u8; 1];
            match (d.read_exact(dst), d.read(&mut extra)) {
                (Ok(()), Ok(0)) => Ok(()),
                _ => Err(corrupt(&format!(
                    "block {k} does not give back its {} bytes",
                    dst.len()
                ))),
            }
        })?;
    Ok(out)
}

/// The temporary name a file is written under before it is renamed into
/// place, `<name>.<pid>.tmp`: two processes building the same database
/// at once (two engines started together on a fresh machine) never write
/// into the same temporary file, and the last rename wins with a whole
/// file.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    PathBuf::from(tmp)
}

/// Removes the temporary files under `dir` left by processes that no
/// longer run (a build killed in the middle of a write). Another running
/// process's are kept; where the process table cannot be read (no
/// `/proc`), only this process's own and the unnamed ones are removed.
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let proc = Path::new("/proc");
    let me = std::process::id();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".tmp")) else {
            continue;
        };
        let stale = match stem.rsplit('.').next().and_then(|p| p.parse::<u32>().ok()) {
            Some(p) if p == me => true,
            Some(p) => proc.is_dir() && !proc.join(p.to_string()).exists(),
            None => true,
        };
        if stale {
            let _ = fs::remove_file(e.path());
        }
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Reads and checks the slice `m` of rule set `key`.
pub fn read(path: &Path, key: &str, board: &Board, m: Material) -> Result<Slice, String> {
    Ok(read_versioned(path, key, board, m)?.0)
}

/// [`read`], and the format version the file was stored in.
pub fn read_versioned(
    path: &Path,
    key: &str,
    board: &Board,
    m: Material,
) -> Result<(Slice, u32), String> {
    let (indexer, data, version) = read_raw(path, MAGIC, key, board, m, payload_len)?;
    Ok((Slice { indexer, data }, version))
}

/// Reads and checks the distances of slice `m` of rule set `key`: one
/// byte a position, White to move first.
pub fn read_dtc(path: &Path, key: &str, board: &Board, m: Material) -> Result<Vec<u8>, String> {
    Ok(read_dtc_versioned(path, key, board, m)?.0)
}

/// [`read_dtc`], and the format version the file was stored in.
pub fn read_dtc_versioned(
    path: &Path,
    key: &str,
    board: &Board,
    m: Material,
) -> Result<(Vec<u8>, u32), String> {
    let (_, data, version) = read_raw(path, DTC_MAGIC, key, board, m, dtc_len)?;
    Ok((data, version))
}

fn read_raw(
    path: &Path,
    magic: &[u8; 8],
    key: &str,
    board: &Board,
    m: Material,
    payload_len: fn(u64) -> usize,
) -> Result<(Indexer, Vec<u8>, u32), String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() < HEADER {
        return Err(format!(
            "truncated: {} bytes, no complete header",
            bytes.len()
        ));
    }
    let (h, payload) = bytes.split_at(HEADER);
    let (indexer, len, version) = check_header(h, magic, key, board, m, payload_len)?;
    if payload.len() as u64 != len {
        return Err(format!(
            "truncated or padded: {} payload bytes, expected {len}",
            payload.len()
        ));
    }
    if checksum(payload) != u64_at(h, 56) {
        return Err("checksum mismatch (corrupt file)".into());
    }
    if version == VERSION_PLAIN {
        let mut data = bytes;
        data.drain(..HEADER);
        return Ok((indexer, data, version));
    }
    let data = decompress(payload, payload_len(indexer.count))?;
    Ok((indexer, data, version))
}

/// Checks a header against what the reader expects: the index, the
/// stored payload length it announces (for version 1, the expected one)
/// and the version, when it matches.
fn check_header(
    h: &[u8],
    magic: &[u8; 8],
    key: &str,
    board: &Board,
    m: Material,
    payload_len: fn(u64) -> usize,
) -> Result<(Indexer, u64, u32), String> {
    if &h[0..8] != magic {
        return Err(format!(
            "not a Salto endgame {} file (bad magic)",
            if magic == MAGIC {
                "database"
            } else {
                "distance"
            }
        ));
    }
    let version = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    if version != VERSION && version != VERSION_PLAIN {
        return Err(format!(
            "format version {version}, this build reads versions {VERSION_PLAIN} and {VERSION}"
        ));
    }
    if h[12..16] != [m.wm, m.wk, m.bm, m.bk] {
        return Err(format!(
            "holds material {}{}{}{}, expected {m}",
            h[12], h[13], h[14], h[15]
        ));
    }
    let file_key: Vec<u8> = h[16..40].iter().copied().take_while(|&b| b != 0).collect();
    if file_key != key.as_bytes() {
        return Err(format!(
            "built for '{}', expected '{key}'",
            String::from_utf8_lossy(&file_key)
        ));
    }
    let indexer = Indexer::new(board, m);
    let count = u64_at(h, 40);
    if count != indexer.count {
        return Err(format!(
            "{count} positions a side, the index has {}",
            indexer.count
        ));
    }
    let len = u64_at(h, 48);
    if version == VERSION_PLAIN && len != payload_len(count) as u64 {
        return Err(format!(
            "the header announces {len} payload bytes, expected {}",
            payload_len(count)
        ));
    }
    if version == VERSION && len < 8 {
        return Err(format!(
            "the header announces {len} payload bytes, no block table"
        ));
    }
    Ok((indexer, len, version))
}

/// What a quick look at a file (its header and length, not its checksum)
/// says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileState {
    Missing,
    /// The header matches and the file has the length it announces.
    Complete,
    /// Why the file cannot be used.
    Bad(String),
}

/// Checks the header and the length of a slice file (`dtc`: of its
/// distance file) without reading the payload: a file cut in the middle,
/// or one of another material, rule set or format version, is bad. The
/// checksum is checked when the file is loaded.
pub fn check(path: &Path, key: &str, board: &Board, m: Material, dtc: bool) -> FileState {
    let mut f = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return FileState::Missing,
        Err(e) => return FileState::Bad(format!("cannot read: {e}")),
    };
    let len = match f.metadata() {
        Ok(md) => md.len(),
        Err(e) => return FileState::Bad(format!("cannot read: {e}")),
    };
    let mut h = [0u8; HEADER];
    if f.read_exact(&mut h).is_err() {
        return FileState::Bad(format!("truncated: {len} bytes, no complete header"));
    }
    let (magic, plen): (&[u8; 8], fn(u64) -> usize) = if dtc {
        (DTC_MAGIC, dtc_len)
    } else {
        (MAGIC, payload_len)
    };
    match check_header(&h, magic, key, board, m, plen) {
        Ok((_, want, _)) if len == HEADER as u64 + want => FileState::Complete,
        Ok((_, want, _)) => FileState::Bad(format!(
            "truncated or padded: {} payload bytes, expected {want}",
            len.saturating_sub(HEADER as u64)
        )),
        Err(e) => FileState::Bad(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(len: usize) -> Vec<u8> {
        // Runs and noise, as the values of a slice have.
        (0..len)
            .map(|i| {
                if (i / 1000) % 3 == 0 {
                    0x55
                } else {
                    (i * 7919 % 251) as u8
                }
            })
            .collect()
    }

    #[test]
    fn compressed_blocks_give_back_the_values_at_every_length() {
        for len in [0, 1, 1000, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 17] {
            let v = values(len);
            let stored = compress(&v);
            assert_eq!(decompress(&stored, len).as_deref(), Ok(&v[..]), "{len}");
        }
        let runs = vec![0x55u8; 4 * BLOCK];
        assert!(compress(&runs).len() < runs.len() / 50);
    }

    #[test]
    fn a_damaged_compressed_payload_is_an_error_not_a_panic() {
        let v = values(2 * BLOCK + 5);
        let stored = compress(&v);
        // Another length of values, a cut table or block, bytes added.
        assert!(decompress(&stored, v.len() + BLOCK).is_err());
        assert!(decompress(&stored[..6], v.len()).is_err());
        assert!(decompress(&stored[..12], v.len()).is_err());
        assert!(decompress(&stored[..stored.len() - 1], v.len()).is_err());
        let mut longer = stored.clone();
        longer.push(0);
        assert!(decompress(&longer, v.len()).is_err());
        // A block that claims a length past the end.
        let mut bad = stored.clone();
        bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decompress(&bad, v.len()).is_err());
        // Bytes flipped anywhere: an error or other values, never a panic.
        for at in (0..stored.len()).step_by(97) {
            let mut b = stored.clone();
            b[at] ^= 0xa5;
            let _ = decompress(&b, v.len());
        }
    }
}
