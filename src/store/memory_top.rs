//! `workspace-memory.top.json`: the entries a workspace block shows, beside the memory they
//! come from, so that a session's first render does not parse a memory of thousands of
//! entries. It is derived data: it names the exact memory file it was made from (its length
//! and a 64-bit hash of its bytes), and a render uses it only when the memory file on disk is
//! still that file; any other writer (the TypeScript plugin, an editor) makes it stale, and the
//! render then reads the memory in full and writes it afresh.
//!
//! Because it certifies itself, it needs no lock: a late writer can at worst replace a current
//! copy by a stale one, which costs the next render a full read. It is written like a store
//! (temp file, rename), without fsync, and a failure to write it is ignored.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{read_contents, write_atomically, Contents};
use crate::domain::memory::workspace::{block_memory, MemoryEntry, WorkspaceMemory};
use crate::domain::shell::verified::VerifiedCommands;

/// The format of the file; another one is ignored. 2 added `verifiedCommands`: a file of
/// version 1 says nothing about them, even for a memory file that has some.
const TOP_VERSION: u64 = 2;

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TopFile {
    version: u64,
    /// `fingerprint` of the memory file's bytes.
    memory: String,
    entries: Vec<MemoryEntry>,
    #[serde(default, skip_serializing_if = "VerifiedCommands::is_empty")]
    verified_commands: VerifiedCommands,
}

/// `<memory>.top.json` beside the memory file (`workspace-memory.top.json`).
pub fn top_path(memory_path: &Path) -> PathBuf {
    memory_path.with_extension("top.json")
}

/// Length and a 64-bit hash of a memory file's bytes. The hash is not cryptographic: it only
/// has to tell another version of the file, and whoever can craft one can as well write this
/// file. Each step is a bijection of the word read, so a change to one word always shows.
pub fn fingerprint(bytes: &[u8]) -> String {
    let mut hash = Fingerprint::default();
    hash.add(bytes);
    hash.finish()
}

/// `fingerprint` of what `reader` holds, read a piece at a time; `None` when it cannot be read.
fn fingerprint_of(mut reader: impl Read) -> Option<String> {
    let mut hash = Fingerprint::default();
    // A multiple of 8, so every piece but the last is whole words.
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let mut filled = 0;
        while filled < buffer.len() {
            match reader.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        hash.add(&buffer[..filled]);
        if filled < buffer.len() {
            return Some(hash.finish());
        }
    }
}

#[derive(Default)]
struct Fingerprint {
    len: u64,
    hash: u64,
}

impl Fingerprint {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;

    /// Adds bytes; only the last piece may have a length that is not a multiple of 8.
    fn add(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            self.hash = (self.hash ^ word).wrapping_mul(Self::K).rotate_left(29);
        }
        for &b in words.remainder() {
            self.hash = (self.hash ^ u64::from(b))
                .wrapping_mul(Self::K)
                .rotate_left(29);
        }
    }

    fn finish(&self) -> String {
        // Spreads the last words' bits over the whole hash.
        let mut hash = self.hash ^ self.len;
        hash ^= hash >> 32;
        hash = hash.wrapping_mul(Self::K);
        format!("{}:{:016x}", self.len, hash ^ (hash >> 29))
    }
}

/// Writes the top entries of `memory`, whose file holds `bytes`, beside it.
pub fn write_top(memory_path: &Path, bytes: &[u8], memory: &WorkspaceMemory) {
    let block = block_memory(memory);
    let top = TopFile {
        version: TOP_VERSION,
        memory: fingerprint(bytes),
        entries: block.entries,
        verified_commands: block.verified_commands,
    };
    if let Ok(mut text) = serde_json::to_string(&top) {
        text.push('\n');
        // Derived data: on failure the copy on disk, if any, is stale and will be ignored.
        let _ = write_atomically(&top_path(memory_path), text.as_bytes(), false);
    }
}

/// The memory of the block, from the top file when it was made from what `memory` (the
/// memory file, open) holds.
pub fn read_top(memory_path: &Path, memory: impl Read) -> Option<WorkspaceMemory> {
    let Ok(Contents::Bytes(text)) = read_contents(&top_path(memory_path)) else {
        return None;
    };
    let top: TopFile = serde_json::from_slice(&text).ok()?;
    if top.version != TOP_VERSION || Some(top.memory) != fingerprint_of(memory) {
        return None;
    }
    let mut memory = WorkspaceMemory::new("", "");
    memory.entries = top.entries;
    memory.verified_commands = top.verified_commands;
    Some(memory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_to_any_byte_changes_the_fingerprint() {
        let bytes: Vec<u8> = (0..1003u32).map(|i| (i * 7 % 251) as u8).collect();
        let original = fingerprint(&bytes);
        assert_eq!(fingerprint(&bytes), original);
        for at in [0, 1, 7, 8, 500, 999, 1000, 1002] {
            for flip in [1u8, 0x80, 0xff] {
                let mut changed = bytes.clone();
                changed[at] ^= flip;
                assert_ne!(fingerprint(&changed), original, "byte {at} ^ {flip}");
            }
        }
        // Two words swapped, and one byte more or less.
        let mut swapped = bytes.clone();
        swapped.swap(3, 11);
        assert_ne!(fingerprint(&swapped), original);
        assert_ne!(fingerprint(&bytes[..1002]), original);
        assert_ne!(fingerprint(&[bytes.as_slice(), &[0]].concat()), original);
    }

    #[test]
    fn a_file_read_in_pieces_has_the_fingerprint_of_its_bytes() {
        for len in [0, 7, 8, 65_535, 65_536, 65_537, 200_003] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 % 253) as u8).collect();
            // A reader that returns a few bytes at a time, as a pipe may.
            struct Trickle<'a>(&'a [u8]);
            impl Read for Trickle<'_> {
                fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                    let n = self.0.len().min(buf.len()).min(1000);
                    buf[..n].copy_from_slice(&self.0[..n]);
                    self.0 = &self.0[n..];
                    Ok(n)
                }
            }
            assert_eq!(
                fingerprint_of(Trickle(&bytes)),
                Some(fingerprint(&bytes)),
                "{len} bytes"
            );
        }
    }
}
