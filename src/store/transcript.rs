//! Reading a host's own transcript of a session (Codex's rollout file), which holds what its
//! hook payloads lack. Read only, never locked: the host appends to it while ocmem reads.

use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context as _, Result};

/// How much of the end of a transcript is read: the lines a hook looks for were just written,
/// and a long session's file grows far beyond what is worth reading on every tool call.
pub const TAIL_BYTES: u64 = 8 << 20;

/// The whole lines of the last `TAIL_BYTES` of the file at `path`, as text (invalid UTF-8
/// replaced); `None` when there is no such file.
pub fn read_tail(path: &Path) -> Result<Option<String>> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let len = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let start = len.saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start))
        .and_then(|_| {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map(|_| bytes)
        })
        .map(|bytes| {
            let text = String::from_utf8_lossy(&bytes);
            // A tail that starts inside a line drops that line's end.
            let text = if start > 0 {
                text.split_once('\n').map_or("", |(_, rest)| rest)
            } else {
                &text
            };
            Some(text.to_string())
        })
        .with_context(|| format!("cannot read {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_none_and_a_small_one_is_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        assert_eq!(read_tail(&path).unwrap(), None);
        std::fs::write(&path, "{\"a\":1}\n{\"b\":2}\n").unwrap();
        assert_eq!(read_tail(&path).unwrap().unwrap(), "{\"a\":1}\n{\"b\":2}\n");
    }

    #[test]
    fn a_long_file_is_read_from_its_first_whole_line_in_the_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        let filler = "x".repeat(TAIL_BYTES as usize);
        std::fs::write(&path, format!("{{\"old\":\"{filler}\"}}\n{{\"last\":1}}\n")).unwrap();
        assert_eq!(read_tail(&path).unwrap().unwrap(), "{\"last\":1}\n");
    }
}
