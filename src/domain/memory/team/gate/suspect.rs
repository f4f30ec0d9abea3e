//! What still looks secret after every rule of the scrubber ran. The scrubber is tuned for
//! personal memory, where a missed secret stays on one machine and a false alarm loses a
//! useful fact; the team file is pushed to every clone, so here a doubt is enough to refuse.
//! Each row of `SUSPECTS` is one shape, with the reason it gives.
//!
//! What passes on purpose: hex digests of any length (commit ids, sha256 sums), UUIDs (their
//! groups are short), paths, URLs without credentials, version strings, identifiers, and a
//! secret-like name whose value is a reference (`${DB_PASSWORD}`, `<token>`, `$TOKEN`,
//! `{{ secrets.X }}`, `%TOKEN%`, `***`).

use std::sync::LazyLock;

use regex::Regex;

/// A shape that looks secret: its reason, and how it is found.
struct Suspect {
    reason: &'static str,
    found: fn(&str) -> bool,
}

const SUSPECTS: [Suspect; 4] = [
    Suspect {
        reason: "private-key header",
        found: has_private_key_header,
    },
    Suspect {
        reason: "JWT-like token",
        found: has_jwt,
    },
    Suspect {
        reason: "value of a secret-like name",
        found: has_secret_assignment,
    },
    Suspect {
        reason: "long random-looking token",
        found: has_random_token,
    },
];

/// Characters a random token is made of (base64, base64url, and the `-`/`_` of most vendors).
const TOKEN_CHARS: &str = r"[A-Za-z0-9+/=_-]";
/// Shortest run of token characters that is judged by its randomness.
const RANDOM_MIN_LEN: usize = 24;
/// Bits of Shannon entropy per character from which a mixed run counts as random. Words and
/// identifiers of that length stay under it, base64 of random bytes is well over it.
const RANDOM_MIN_BITS: f64 = 4.0;
/// Share of neighbouring characters of different kinds from which a run counts as random.
const RANDOM_MIN_SWITCHES: f64 = 0.35;

/// Why `text` still looks secret, or None.
pub fn looks_secret(text: &str) -> Option<&'static str> {
    SUSPECTS
        .iter()
        .find(|suspect| (suspect.found)(text))
        .map(|suspect| suspect.reason)
}

fn has_private_key_header(text: &str) -> bool {
    static HEADER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----").unwrap());
    HEADER.is_match(text)
}

fn has_jwt(text: &str) -> bool {
    // A base64url JSON object (`{"` encodes as `eyJ`) followed by a second segment: the
    // header and payload of a token, signed or not.
    static JWT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}").unwrap());
    JWT.is_match(text)
}

fn has_secret_assignment(text: &str) -> bool {
    // A name ending in a secret-like word, then `=` or `:`, then the value's first word. The
    // name is matched whole, so `TOKEN_LIMIT` and `max_tokens` are not names of secrets.
    static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?i)(?:^|[^A-Za-z0-9])[A-Za-z0-9_.-]*(?:password|passwd|passphrase|pwd|secret|token|(?:api|access|private|secret|signing|encryption|master)[_-]?key|credentials?)["'`]?[ \t]*(=|:)[ \t]*["'`]?([^\s"'`,;]+)"#,
        )
        .unwrap()
    });
    ASSIGNMENT.captures_iter(text).any(|found| {
        let value = found[2].trim_end_matches(['.', ')', ']']);
        if is_reference(value) || NOT_SECRETS.iter().any(|w| value.eq_ignore_ascii_case(w)) {
            return false;
        }
        match &found[1] {
            // `NAME=value` assigns: any literal of some length is a value someone typed.
            "=" => value.chars().count() >= 4,
            // `Name: value` is also prose ("Token: see the wiki"): only a value that mixes
            // letters with digits or symbols counts.
            _ => value.chars().count() >= 6 && is_mixed(value),
        }
    })
}

/// Values of a secret-like name that say something about it rather than hold it.
const NOT_SECRETS: [&str; 10] = [
    "true", "false", "none", "null", "empty", "unset", "yes", "no", "required", "optional",
];

/// A value that names where the secret is rather than holding it.
fn is_reference(value: &str) -> bool {
    value.starts_with(['$', '<', '{', '%', '*'])
        || value.chars().all(|c| c == '*' || c == 'x' || c == 'X')
        || value.contains("://")
        || value.starts_with(['/', '~', '.'])
}

/// Letters with digits or symbols; `-`, `_` and `.` join words (`read-only`), so they do not
/// count.
fn is_mixed(value: &str) -> bool {
    let letters = value.chars().any(char::is_alphabetic);
    let others = value
        .chars()
        .any(|c| !c.is_alphabetic() && !matches!(c, '-' | '_' | '.'));
    letters && others
}

fn has_random_token(text: &str) -> bool {
    static RUN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!("{TOKEN_CHARS}{{{RANDOM_MIN_LEN},}}")).unwrap());
    RUN.find_iter(text).any(|run| {
        let run = run.as_str();
        let parts: Vec<&str> = run.split('/').collect();
        // Most parts of a path are words; the parts of base64 that holds a `/` are noise.
        let words = parts.iter().filter(|part| is_word(part)).count();
        let path = parts.len() > 1 && words * 2 >= parts.len();
        parts.into_iter().any(is_random) || (!path && is_random(run))
    })
}

/// A part of a path: words in one case or capitalised, joined by `-` or `_`, maybe numbered.
fn is_word(part: &&str) -> bool {
    static WORD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:[A-Za-z][a-z]*(?:[-_][A-Za-z][a-z]*)*|[A-Z]+)[0-9]*$").unwrap()
    });
    part.is_empty() || WORD.is_match(part)
}

/// Upper and lower case letters and digits together, not a hex digest, spread evenly over
/// its characters, and switching between them as noise does rather than as words do.
fn is_random(run: &str) -> bool {
    let run = run.trim_matches(['=', '-', '_']);
    if run.len() < RANDOM_MIN_LEN || run.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') {
        return false;
    }
    let upper = run.bytes().any(|b| b.is_ascii_uppercase());
    let lower = run.bytes().any(|b| b.is_ascii_lowercase());
    let digit = run.bytes().any(|b| b.is_ascii_digit());
    upper
        && lower
        && digit
        && entropy_bits(run) >= RANDOM_MIN_BITS
        && class_switches(run) >= RANDOM_MIN_SWITCHES
}

/// How often, from one character to the next, the kind (upper, lower, digit, other)
/// changes: about 0.6 in random base62, about 0.2 in a CamelCase identifier.
fn class_switches(run: &str) -> f64 {
    let kind = |b: &u8| {
        if b.is_ascii_uppercase() {
            0
        } else if b.is_ascii_lowercase() {
            1
        } else if b.is_ascii_digit() {
            2
        } else {
            3
        }
    };
    let bytes = run.as_bytes();
    let changes = bytes
        .windows(2)
        .filter(|w| kind(&w[0]) != kind(&w[1]))
        .count();
    changes as f64 / (bytes.len() - 1) as f64
}

/// Shannon entropy of the characters of `text`, in bits per character.
fn entropy_bits(text: &str) -> f64 {
    let mut counts = [0u32; 256];
    for byte in text.bytes() {
        counts[byte as usize] += 1;
    }
    let len = text.len() as f64;
    counts
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| {
            let p = f64::from(n) / len;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shape_gives_its_reason() {
        let cases = [
            (
                "-----BEGIN ENCRYPTED PRIVATE KEY-----",
                "private-key header",
            ),
            (
                "-----BEGIN PGP PRIVATE KEY BLOCK-----",
                "private-key header",
            ),
            ("eyJhbGciOiJub25lIn0.eyJzdWIiOiJjaSJ9", "JWT-like token"),
            ("SIGNING_KEY=Zq9v", "value of a secret-like name"),
            ("\"passphrase\": \"blue42!\"", "value of a secret-like name"),
            (
                "use Kx9mQ2vT7rLp4ZwB8nYc3HdF6 there",
                "long random-looking token",
            ),
        ];
        for (text, reason) in cases {
            assert_eq!(looks_secret(text), Some(reason), "{text}");
        }
    }

    #[test]
    fn decoys_of_each_shape_pass() {
        for text in [
            "-----BEGIN PUBLIC KEY----- goes in docs/keys/",
            "eyJ is how base64 of a JSON object starts",
            "SIGNING_KEY=$SIGNING_KEY",
            "password: ******** in screenshots",
            "TOKEN_LIMIT=4096",
            "max_tokens: 8192",
            "Secret: rotate it quarterly",
            "GITHUB_TOKEN: read-only in CI",
            "SKIP_TOKEN=true in dry runs",
            "commit 763599667429a056b9ee00f28c0284b2fd938c9c",
            "src/components/UserProfile/AvatarUpload2/index",
            "AbstractSingletonProxyFactoryBeanProvider",
        ] {
            assert_eq!(looks_secret(text), None, "{text}");
        }
    }

    #[test]
    fn random_text_is_over_both_bars_and_identifiers_are_not() {
        let random = "Kx9mQ2vT7rLp4ZwB8nYc3HdF6";
        assert!(entropy_bits(random) >= RANDOM_MIN_BITS);
        assert!(class_switches(random) >= RANDOM_MIN_SWITCHES);
        for identifier in [
            "testParseHttp2ResponseHeadersFast",
            "AbstractSingletonProxyFactory2",
        ] {
            assert!(
                class_switches(identifier) < RANDOM_MIN_SWITCHES,
                "{identifier}"
            );
            assert!(!is_random(identifier), "{identifier}");
        }
    }
}
