//! Decoding hook events from stdin. Every problem becomes one line naming the field.
//!
//! Reading is bounded: a JSON string longer than `LONG_STRING_BYTES` (a tool's whole output,
//! say) is read as its first and last `LONG_STRING_KEEP` bytes with a note of what was left
//! out, so a 20 MB output costs what a 2 MB one does and is still handled; every use of such
//! text (errors, grep files, memories) needs only its start or its end. What remains may
//! take at most `MAX_EVENT_BYTES`: more is bad input.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read};

use anyhow::{bail, Context as _, Result};

/// A string of an event longer than this, in bytes as written in the JSON, is shortened.
pub const LONG_STRING_BYTES: usize = 2 << 20;
/// Bytes kept from each end of a shortened string.
pub const LONG_STRING_KEEP: usize = LONG_STRING_BYTES / 2;
/// The most an event may hold once its long strings are shortened.
pub const MAX_EVENT_BYTES: usize = 8 << 20;

/// Reads the event on stdin, with long strings shortened (see the module documentation).
pub fn read_stdin() -> Result<Vec<u8>> {
    read_event(std::io::stdin().lock())
}

/// Reads an event from `input`, with long strings shortened.
pub fn read_event(input: impl Read) -> Result<Vec<u8>> {
    read_event_shortening(input, LONG_STRING_BYTES)
}

/// `read_event` with strings longer than `long` bytes shortened to their first and last
/// `long / 2` (the tests use small limits).
fn read_event_shortening(mut input: impl Read, long: usize) -> Result<Vec<u8>> {
    // An event no longer than a long string holds none: it is read as it is, without
    // looking at each byte. Only a bigger one goes through the shortener.
    let mut whole = Vec::with_capacity(64 * 1024);
    (&mut input)
        .take(long as u64 + 1)
        .read_to_end(&mut whole)
        .context("cannot read stdin")?;
    if whole.len() <= long {
        return Ok(whole);
    }
    let mut reader = Shortener::new(long);
    reader.push_slice(&whole);
    drop(whole);
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let read = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("cannot read stdin"),
        };
        reader.push_slice(&chunk[..read]);
        if reader.out.len() > MAX_EVENT_BYTES {
            bail!(
                "bad input: the event holds more than {} MiB besides its long strings",
                MAX_EVENT_BYTES >> 20
            );
        }
    }
    Ok(reader.finish())
}

/// Copies JSON bytes, shortening every string longer than `long` bytes to its first and last
/// `keep` bytes, cut where a char or an escape starts (never inside an escape,
/// a UTF-8 sequence or a surrogate pair), around a line saying how much was left out. Bytes
/// that are not JSON pass as they are, for the parser to reject.
struct Shortener {
    /// Strings longer than this are shortened to their first and last `keep` bytes.
    long: usize,
    keep: usize,
    out: Vec<u8>,
    in_string: bool,
    lexer: StringLexer,
    /// The current string as written, while it is short; its head once it is long.
    text: Vec<u8>,
    /// Where, in `text`, the last char or escape starting within `keep` starts.
    head_cut: usize,
    /// The last bytes of a long string.
    tail: Option<Tail>,
    left_out: usize,
}

/// The last `keep` bytes of a long string, and the lexer's state just before the
/// first of them, so that where chars start in them can be found again at the end.
struct Tail {
    bytes: VecDeque<u8>,
    front: StringLexer,
}

impl Tail {
    /// Drops what is over `keep` from the front; returns how many bytes went.
    fn trim(&mut self, keep: usize) -> usize {
        let over = self.bytes.len().saturating_sub(keep);
        for byte in self.bytes.drain(..over) {
            self.front.step(byte);
        }
        over
    }
}

/// Whether `byte` starts a UTF-8 char (is not a continuation byte).
fn starts_char(byte: u8) -> bool {
    !(0x80..=0xBF).contains(&byte)
}

impl Shortener {
    fn new(long: usize) -> Shortener {
        Shortener {
            long,
            keep: long / 2,
            out: Vec::new(),
            in_string: false,
            lexer: StringLexer::default(),
            text: Vec::new(),
            head_cut: 0,
            tail: None,
            left_out: 0,
        }
    }

    /// Takes bytes in bulk where it can: text outside strings up to the next quote, and runs of
    /// plain chars inside them (no quote, no backslash), which need no lexing byte by byte.
    fn push_slice(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if !self.in_string {
                let end = memchr::memchr(b'"', bytes).unwrap_or(bytes.len());
                self.out.extend_from_slice(&bytes[..end]);
                bytes = &bytes[end..];
                if let Some((&quote, rest)) = bytes.split_first() {
                    self.push(quote);
                    bytes = rest;
                }
                continue;
            }
            if !matches!(self.lexer.escape, Escape::None) {
                self.push(bytes[0]);
                bytes = &bytes[1..];
                continue;
            }
            let run = memchr::memchr2(b'"', b'\\', bytes).unwrap_or(bytes.len());
            if run == 0 {
                self.push(bytes[0]);
                bytes = &bytes[1..];
                continue;
            }
            self.push_plain(&bytes[..run]);
            bytes = &bytes[run..];
        }
    }

    /// Plain bytes inside a string, between chars: what `push` does for each, in bulk.
    fn push_plain(&mut self, mut run: &[u8]) {
        self.lexer.after_high_surrogate = false;
        while !run.is_empty() {
            if let Some(tail) = &mut self.tail {
                tail.bytes.extend(run.iter().copied());
                self.left_out += tail.trim(self.keep);
                return;
            }
            let at = self.text.len();
            if at <= self.keep {
                let within = run.len().min(self.keep + 1 - at);
                if let Some(last) = run[..within].iter().rposition(|&b| starts_char(b)) {
                    self.head_cut = at + last;
                }
            }
            let room = (self.long + 1).saturating_sub(at).min(run.len());
            self.text.extend_from_slice(&run[..room]);
            run = &run[room..];
            if self.text.len() > self.long {
                self.start_tail();
            }
        }
    }

    fn push(&mut self, byte: u8) {
        if !self.in_string {
            self.out.push(byte);
            if byte == b'"' {
                self.in_string = true;
                self.lexer = StringLexer::default();
                self.head_cut = 0;
            }
            return;
        }
        let Some(starts) = self.lexer.step(byte) else {
            self.flush_string();
            self.out.push(byte);
            self.in_string = false;
            return;
        };
        match &mut self.tail {
            Some(tail) => {
                tail.bytes.push_back(byte);
                self.left_out += tail.trim(self.keep);
            }
            None => {
                if starts && self.text.len() <= self.keep {
                    self.head_cut = self.text.len();
                }
                self.text.push(byte);
                if self.text.len() > self.long {
                    self.start_tail();
                }
            }
        }
    }

    /// The string turned out long: keep its head, and follow its tail from here.
    fn start_tail(&mut self) {
        // Where chars start after the head cut is known again by re-reading from it: the cut
        // is at a start, so the lexer is between chars there.
        let mut tail = Tail {
            bytes: VecDeque::with_capacity(self.keep + 64 * 1024),
            front: StringLexer::default(),
        };
        tail.bytes
            .extend(self.text[self.head_cut..].iter().copied());
        self.left_out += tail.trim(self.keep);
        self.text.truncate(self.head_cut);
        self.tail = Some(tail);
    }

    fn flush_string(&mut self) {
        self.out.append(&mut self.text);
        if let Some(mut tail) = self.tail.take() {
            // Up to the first char or escape that starts in it.
            while let Some(&byte) = tail.bytes.front() {
                if tail.front.step(byte) == Some(true) {
                    break;
                }
                tail.bytes.pop_front();
                self.left_out += 1;
            }
            let note = format!("\\n[… {} bytes of this text not read …]\\n", self.left_out);
            self.out.extend_from_slice(note.as_bytes());
            self.out.extend(tail.bytes);
        }
        self.left_out = 0;
        self.head_cut = 0;
    }

    fn finish(mut self) -> Vec<u8> {
        if self.in_string {
            self.flush_string();
        }
        self.out
    }
}

/// Follows the bytes of a JSON string after its opening quote.
#[derive(Default, Clone, Copy)]
struct StringLexer {
    escape: Escape,
    /// The last escape was the first half of a surrogate pair: the second must stay with it.
    after_high_surrogate: bool,
}

#[derive(Default, Clone, Copy)]
enum Escape {
    #[default]
    None,
    Backslash,
    Hex {
        digits: u8,
        value: u32,
    },
}

impl StringLexer {
    /// Whether a char or an escape that may begin kept text starts at `byte`; `None` when
    /// `byte` is the closing quote.
    fn step(&mut self, byte: u8) -> Option<bool> {
        match self.escape {
            Escape::Backslash => {
                self.escape = if byte == b'u' {
                    Escape::Hex {
                        digits: 0,
                        value: 0,
                    }
                } else {
                    self.after_high_surrogate = false;
                    Escape::None
                };
                Some(false)
            }
            Escape::Hex { digits, value } => {
                let value = value * 16 + char::from(byte).to_digit(16).unwrap_or(0);
                self.escape = if digits == 3 {
                    self.after_high_surrogate = (0xD800..=0xDBFF).contains(&value);
                    Escape::None
                } else {
                    Escape::Hex {
                        digits: digits + 1,
                        value,
                    }
                };
                Some(false)
            }
            Escape::None if byte == b'"' => None,
            Escape::None if byte == b'\\' => {
                self.escape = Escape::Backslash;
                Some(!self.after_high_surrogate)
            }
            Escape::None => {
                self.after_high_surrogate = false;
                Some(!(0x80..=0xBF).contains(&byte))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn err(result: Result<impl std::fmt::Debug>) -> String {
        result.unwrap_err().to_string()
    }

    /// A small limit, so that the tests can cut strings anywhere, often and fast: the code
    /// is the same for every limit.
    const LONG: usize = 4096;
    const KEEP: usize = LONG / 2;

    fn read(bytes: &[u8]) -> Vec<u8> {
        read_event_shortening(bytes, LONG).unwrap()
    }

    #[test]
    fn events_without_long_strings_are_read_as_they_are() {
        let fixture = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/opencode-1.18.33/session-hooks.jsonl"
        ))
        .unwrap();
        for line in fixture.lines() {
            assert_eq!(read(line.as_bytes()), line.as_bytes());
        }
        let escapes = r#"{"a": "q\"\\\u00e9\ud83d\ude00 é 😀", "b": ["\"", 1]}"#;
        assert_eq!(read(escapes.as_bytes()), escapes.as_bytes());
        // Not JSON: passed on for the parser to name.
        assert_eq!(read(b"{\"a\": \"unclosed"), b"{\"a\": \"unclosed");
    }

    /// Every kind of char and escape a JSON string holds, as written.
    const STRING_UNITS: [&str; 8] = [
        "a",
        "é",
        "😀",
        "\\n",
        "\\\"",
        "\\\\",
        "\\u00e9",
        "\\ud83d\\ude00",
    ];

    #[test]
    fn long_strings_keep_their_ends_whole_wherever_the_cut_falls() {
        let units = STRING_UNITS;
        for shift in 0..12 {
            let mut written = "x".repeat(shift);
            let mut i = 0;
            while written.len() < 3 * LONG {
                written.push_str(units[i % units.len()]);
                i += 1;
            }
            let event = format!(r#"{{"head": 1, "output": "{written}END", "tail": "t"}}"#);
            let bytes = read(event.as_bytes());
            assert!(bytes.len() < LONG + 200, "{}", bytes.len());
            let value: Value = serde_json::from_slice(&bytes).unwrap();
            let output = value["output"].as_str().unwrap();
            let whole: Value = serde_json::from_str(&event).unwrap();
            let whole = whole["output"].as_str().unwrap();
            let (head, rest) = output.split_once("\n[… ").unwrap();
            let (note, tail) = rest.split_once(" …]\n").unwrap();
            assert!(
                whole.starts_with(head) && whole.ends_with(tail),
                "shift {shift}"
            );
            assert!(tail.ends_with("END") && head.starts_with(&"x".repeat(shift)));
            // Escapes decode shorter than they are written: about half of these.
            assert!(head.len() > KEEP / 3 && tail.len() > KEEP / 3);
            let left_out: usize = note
                .strip_suffix(" bytes of this text not read")
                .unwrap()
                .parse()
                .unwrap();
            assert!(left_out > LONG, "{note}");
            assert_eq!(
                (value["head"].clone(), value["tail"].clone()),
                (1.into(), "t".into())
            );
        }
    }

    #[test]
    fn reading_in_bulk_gives_what_reading_byte_by_byte_gives() {
        // Every unit, and plain runs of multi-byte chars, so that cuts fall inside chars.
        let units: Vec<&str> = STRING_UNITS.into_iter().chain(["😀é😀", "ééé"]).collect();
        // A small xorshift: the same inputs on every run.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |bound: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound as u64) as usize
        };
        // Around the limit, where strings are kept or cut, and one far over it.
        let lengths = (0..200).map(|i| LONG - 40 + i * 3).chain([3 * LONG]);
        for length in lengths {
            let mut written = String::new();
            while written.len() < length {
                written.push_str(units[next(units.len())]);
            }
            // A long string between short ones.
            let event = format!(r#"{{"s": "é\\"", "a": "{written}", "b": ["x\\"y", 2]}}"#);
            let mut one_by_one = Shortener::new(LONG);
            event.bytes().for_each(|b| one_by_one.push(b));
            let mut in_bulk = Shortener::new(LONG);
            let mut rest = event.as_bytes();
            while !rest.is_empty() {
                let take = (1 + next(2 * LONG)).min(rest.len());
                in_bulk.push_slice(&rest[..take]);
                rest = &rest[take..];
            }
            let (bulk, by_byte) = (in_bulk.finish(), one_by_one.finish());
            let differ = bulk.iter().zip(&by_byte).position(|(a, b)| a != b);
            assert!(
                bulk == by_byte,
                "length {length}: bulk and byte-by-byte reading differ at {differ:?} ({} and {} bytes)",
                bulk.len(),
                by_byte.len()
            );
        }
    }

    #[test]
    fn only_strings_over_the_limit_are_shortened_around_the_whole_event_limit() {
        // The event is over the limit (read by the shortener), its string just at it: kept.
        let at_limit = format!(r#"{{"output": "{}"}}"#, "a".repeat(LONG));
        assert!(at_limit.len() > LONG);
        assert_eq!(read(at_limit.as_bytes()), at_limit.as_bytes());
        // One byte more: shortened.
        let over = format!(r#"{{"output": "{}"}}"#, "a".repeat(LONG + 1));
        let shortened = String::from_utf8(read(over.as_bytes())).unwrap();
        assert!(
            shortened.contains(" bytes of this text not read"),
            "not shortened"
        );
        // An event of exactly the limit is read as it is.
        let exact = format!(r#"{{"o": "{}"}}"#, "b".repeat(LONG - 9));
        assert_eq!(exact.len(), LONG);
        assert_eq!(read(exact.as_bytes()), exact.as_bytes());
    }

    #[test]
    fn an_event_too_big_besides_its_strings_is_bad_input() {
        let numbers = format!("{{\"a\": [{}0]}}", "0,".repeat(MAX_EVENT_BYTES / 2));
        assert!(err(read_event(numbers.as_bytes()))
            .starts_with("bad input: the event holds more than 8 MiB"));
        // A tool's output comes twice in an OpenCode event (`output` and `metadata.output`):
        // even three long strings, shortened, leave room.
        let strings = format!(
            "{{\"a\": [{}\"\"]}}",
            format!("\"{}\",", "s".repeat(LONG_STRING_BYTES * 2)).repeat(3)
        );
        assert!(read_event(strings.as_bytes()).is_ok());
    }
}
