//! Names made from text: the hex SHA-256 that keys workspaces, sessions and saved outputs on
//! disk, as the TypeScript plugin's stores are keyed.

use sha2::{Digest, Sha256};

/// The lowercase hex SHA-256 of `text`.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
