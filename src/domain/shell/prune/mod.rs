//! Tool output economy: a long tool output cut down to what the model needs from it. Every
//! line the error extractor counts as an error is kept with a little context, and so are the
//! head and the tail; runs of lines that differ only in numbers or names become one line and a
//! count; the omitted part of a file listing is summarized by folder.
//!
//! In a listing or a search's matches, a line that is a result (a path, or `path:line:text`)
//! is never kept as an error: `raise ParseError(` found by a search, or a file named
//! `errors.py`, says nothing about a failure. Only the tool's own complaints count.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::domain::shell::extract::{error_lines_of, is_error_line};

/// The tools whose output may be pruned. `read`, `edit` and `write` outputs are what the model
/// asked to see or what it wrote: never changed.
pub const PRUNED_TOOLS: [&str; 4] = ["bash", "grep", "glob", "list"];

/// Tools whose every line is a path.
const LISTING_TOOLS: [&str; 2] = ["glob", "list"];
/// Tools whose every line is a match, `path:line:text`.
const SEARCH_TOOLS: [&str; 1] = ["grep"];

/// An output is pruned when it is longer than either limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub lines: usize,
    pub bytes: usize,
}

/// The limits of a session whose context is not under pressure.
pub const LIMITS: Limits = Limits {
    lines: 200,
    bytes: 16 * 1024,
};

// ─── What is kept ────────────────────────────────────────────────────────────────────────────
// Of the line limit: a fifth for the head (the command's start: what ran, with which options)
// and three tenths for the tail (where compilers and test runners put their failures and
// counts). Around each error line, the lines that name its test or file and its location; and
// for an indented error line, the nearest line above it that is less indented: the file or test
// it belongs to (`src/cart.js` above `  9:57  error  'rate' is not defined`).

const HEAD_SHARE: (usize, usize) = (1, 5);
const TAIL_SHARE: (usize, usize) = (3, 10);
const CONTEXT_BEFORE: usize = 2;
const CONTEXT_AFTER: usize = 3;
/// A run of near-identical lines (or of blocks of up to `MAX_PERIOD` lines) is collapsed when it
/// repeats at least this many times.
const MIN_REPEATS: usize = 4;
const MAX_PERIOD: usize = 4;
/// Kept lines other than error lines are cut to this many chars.
const MAX_LINE_CHARS: usize = 500;
/// Folders named in the summary of an omitted part of a listing.
const LISTING_FOLDERS: usize = 8;
/// A listing: at least this share of its lines are paths.
const LISTING_SHARE: (usize, usize) = (9, 10);
/// Pruning that keeps more than this share of the output is not worth the note it adds.
const WORTHWHILE_SHARE: (usize, usize) = (9, 10);

impl Limits {
    /// The limits when the context is filling up: half of each.
    pub fn halved(self) -> Limits {
        Limits {
            lines: self.lines / 2,
            bytes: self.bytes / 2,
        }
    }

    fn exceeded_by(self, output: &str) -> bool {
        output.len() > self.bytes || output.lines().nth(self.lines).is_some()
    }
}

/// Whether `output` of `tool` may be pruned under some limits: a pruned tool, and an output
/// longer than the smallest limits. Cheap: tells the caller whether the limits are worth
/// looking up.
pub fn may_prune(tool: &str, output: &str) -> bool {
    PRUNED_TOOLS.contains(&tool) && LIMITS.halved().exceeded_by(output)
}

/// A pruned output and what it left out.
#[derive(Debug, PartialEq, Eq)]
pub struct Pruned {
    pub text: String,
    pub lines: usize,
    pub kept_lines: usize,
}

/// `output` of `tool` pruned, or None when it stays as it is: another tool, an output within
/// `limits`, or one whose pruning would keep nearly all of it.
pub fn prune(tool: &str, output: &str, limits: Limits) -> Option<Pruned> {
    if !PRUNED_TOOLS.contains(&tool) || !limits.exceeded_by(output) {
        return None;
    }
    let lines: Vec<&str> = output.lines().collect();
    let listing = LISTING_TOOLS.contains(&tool) || is_listing(tool, &lines);
    let errors = if listing || SEARCH_TOOLS.contains(&tool) {
        // What a listing or a search returns are results, not errors.
        lines
            .iter()
            .map(|line| !is_result(tool, line) && is_error_line(line))
            .collect()
    } else {
        error_lines_of(output, &lines)
    };
    let keep = kept_lines(&lines, &errors, limits);
    // A listing's omitted part is summarized by folder instead.
    let units = if listing {
        single_lines(lines.len())
    } else {
        units(&lines, &errors)
    };
    let pruned = render(tool, &lines, &errors, &keep, &units, listing);
    let worthwhile = pruned.text.len() * WORTHWHILE_SHARE.1 < output.len() * WORTHWHILE_SHARE.0;
    worthwhile.then_some(pruned)
}

/// Which lines are kept before runs are collapsed: the head, the tail, and each error line
/// with its context and its owner.
fn kept_lines(lines: &[&str], errors: &[bool], limits: Limits) -> Vec<bool> {
    let n = errors.len();
    let head = limits.lines * HEAD_SHARE.0 / HEAD_SHARE.1;
    let tail = limits.lines * TAIL_SHARE.0 / TAIL_SHARE.1;
    let mut keep: Vec<bool> = (0..n).map(|i| i < head || i + tail >= n).collect();
    let owners = owners(lines);
    for (i, _) in errors.iter().enumerate().filter(|(_, error)| **error) {
        let from = i.saturating_sub(CONTEXT_BEFORE);
        let to = (i + CONTEXT_AFTER).min(n - 1);
        keep[from..=to].iter_mut().for_each(|k| *k = true);
        if let Some(owner) = owners[i] {
            keep[owner] = true;
        }
    }
    keep
}

/// For each line, the nearest non-blank line above it that is less indented, if any.
fn owners(lines: &[&str]) -> Vec<Option<usize>> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    // Lines that may still own a later one: their indentation strictly rises.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut owners = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            owners.push(None);
            continue;
        }
        let depth = indent(line);
        while open.last().is_some_and(|(d, _)| *d >= depth) {
            open.pop();
        }
        owners.push(open.last().map(|(_, owner)| *owner));
        open.push((depth, i));
    }
    owners
}

/// A stretch of the output: one line, or a run whose first `period` lines stand for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Unit {
    start: usize,
    end: usize,
    period: usize,
}

/// The output cut into single lines and runs of near-identical lines or blocks. Error lines
/// are never part of a run: each is kept as it is.
fn units(lines: &[&str], errors: &[bool]) -> Vec<Unit> {
    // An error line is never compared (it ends every run), so it needs no key.
    let keys: Vec<u64> = lines
        .iter()
        .zip(errors)
        .map(|(line, error)| if *error { 0 } else { likeness(line) })
        .collect();
    let mut units = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let best = (1..=MAX_PERIOD)
            .map(|period| (period, run_end(&keys, errors, i, period)))
            .filter(|(period, end)| end - i >= period * MIN_REPEATS)
            .max_by_key(|(period, end)| (*end, std::cmp::Reverse(*period)));
        let unit = match best {
            Some((period, end)) => Unit {
                start: i,
                end,
                period,
            },
            None => Unit {
                start: i,
                end: i + 1,
                period: 1,
            },
        };
        units.push(unit);
        i = unit.end;
    }
    units
}

fn single_lines(count: usize) -> Vec<Unit> {
    (0..count)
        .map(|i| Unit {
            start: i,
            end: i + 1,
            period: 1,
        })
        .collect()
}

/// Where a run of blocks of `period` lines starting at `start` ends (exclusive).
fn run_end(keys: &[u64], errors: &[bool], start: usize, period: usize) -> usize {
    let block_end = start + period;
    if block_end > keys.len() || errors[start..block_end].iter().any(|e| *e) {
        return start;
    }
    let mut end = block_end;
    while end < keys.len() && !errors[end] && keys[end] == keys[end - period] {
        end += 1;
    }
    // Whole blocks only.
    end - (end - start) % period
}

/// What near-identical lines share: the line with its digits masked; for a line that starts
/// with a word (`Compiling serde v1.0.219`, `test adds_1 ... ok`), its indentation, first word
/// and last word, so that names in between do not tell lines apart. Words are split at ASCII
/// whitespace. Hashed as it is read, since it only ever meets other keys to be compared:
/// building it as a string cost more than the rest of pruning.
fn likeness(line: &str) -> u64 {
    let bytes = line.as_bytes();
    let indent = bytes.len() - bytes.trim_ascii_start().len();
    let body = bytes[indent..].trim_ascii_end();
    let mut key = KeyHash::new();
    key.push(&bytes[..indent]);
    let first_end = body
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(body.len());
    let first = &body[..first_end];
    let last_start = body
        .iter()
        .rposition(u8::is_ascii_whitespace)
        .map_or(0, |at| at + 1);
    let starts_with_word = first.len() >= 2
        && first
            .strip_suffix(b":")
            .unwrap_or(first)
            .iter()
            .all(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'-');
    // A third word: something between the first and the last.
    let three_words =
        last_start > first_end && !body[first_end..last_start].trim_ascii().is_empty();
    if starts_with_word && three_words {
        key.push(first);
        key.push(b" ");
        key.push(&body[last_start..]);
    } else {
        for (i, word) in body
            .split(u8::is_ascii_whitespace)
            .filter(|word| !word.is_empty())
            .enumerate()
        {
            if i > 0 {
                key.push(b" ");
            }
            key.push(word);
        }
    }
    key.0
}

/// FNV-1a over the chars of a key, each digit read as `0` and a run of them as one.
struct KeyHash(u64, bool);

impl KeyHash {
    fn new() -> Self {
        KeyHash(0xcbf2_9ce4_8422_2325, false)
    }

    fn push(&mut self, text: &[u8]) {
        for &byte in text {
            let digit = byte.is_ascii_digit();
            if digit && self.1 {
                continue;
            }
            self.1 = digit;
            self.0 ^= u64::from(if digit { b'0' } else { byte });
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Whether the output is a list of paths, one a line (`find`, `ls -1`, `git ls-files`), or of
/// a search tool's matches.
fn is_listing(tool: &str, lines: &[&str]) -> bool {
    // More than a tenth of all lines that are not paths is more than a tenth of the non-empty
    // ones: most outputs are known not to be listings after a few lines.
    let most_others = lines.len() * (LISTING_SHARE.1 - LISTING_SHARE.0) / LISTING_SHARE.1;
    let (mut paths, mut others) = (0, 0);
    for line in lines.iter().filter(|l| !l.trim().is_empty()) {
        if is_path(result_path(tool, line)) {
            paths += 1;
        } else {
            others += 1;
            if others > most_others {
                return false;
            }
        }
    }
    let non_empty = paths + others;
    non_empty > 0 && paths * LISTING_SHARE.1 >= non_empty * LISTING_SHARE.0
}

/// Whether `line` is one of the results `tool` returns: a path, or for a search tool one of its
/// matches, as `rg` prints them (`src/a.rs:12:text`) or as OpenCode's `grep` tool does (a
/// `src/a.rs:` heading, then `  Line 12: text` under it).
fn is_result(tool: &str, line: &str) -> bool {
    is_path(result_path(tool, line)) || SEARCH_TOOLS.contains(&tool) && is_match_line(line)
}

/// `  Line 12: text`: a match of OpenCode's `grep` tool, under its file.
fn is_match_line(line: &str) -> bool {
    line.trim_start()
        .strip_prefix("Line ")
        .and_then(|rest| rest.split_once(':'))
        .is_some_and(|(number, _)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// The path a result line names: for a search tool, `src/a.rs` of `src/a.rs:12:text`; else the
/// line itself. Only a search tool's lines are read so: in a build's output, `src/a.rs:12: error`
/// is an error, not a match.
fn result_path<'a>(tool: &str, line: &'a str) -> &'a str {
    if !SEARCH_TOOLS.contains(&tool) {
        return line;
    }
    let Some((path, rest)) = line.split_once(':') else {
        return line;
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && rest[digits..].starts_with(':') {
        path
    } else {
        line
    }
}

fn is_path(line: &str) -> bool {
    let path = line.trim().as_bytes();
    !path.is_empty()
        && !path.iter().any(u8::is_ascii_whitespace)
        && path.iter().any(|b| matches!(b, b'/' | b'.'))
}

fn render(
    tool: &str,
    lines: &[&str],
    errors: &[bool],
    keep: &[bool],
    units: &[Unit],
    listing: bool,
) -> Pruned {
    let mut text = String::new();
    let mut kept_lines = 0;
    let mut omitted: Vec<usize> = Vec::new();
    for unit in units {
        if !keep[unit.start..unit.end].iter().any(|k| *k) {
            omitted.extend(unit.start..unit.end);
            continue;
        }
        note_omitted(&mut text, tool, lines, &mut omitted, listing);
        let shown = if unit.end - unit.start > unit.period {
            unit.period
        } else {
            unit.end - unit.start
        };
        for i in unit.start..unit.start + shown {
            push_line(&mut text, lines[i], errors[i]);
            kept_lines += 1;
        }
        let repeated = unit.end - unit.start - shown;
        if repeated > 0 {
            let _ = if unit.period == 1 {
                writeln!(text, "[ocmem: {repeated} more lines like the one above]")
            } else {
                writeln!(
                    text,
                    "[ocmem: the {} lines above repeat {} more times ({repeated} lines), with other numbers or names]",
                    unit.period,
                    repeated / unit.period
                )
            };
        }
    }
    note_omitted(&mut text, tool, lines, &mut omitted, listing);
    Pruned {
        text,
        lines: lines.len(),
        kept_lines,
    }
}

fn push_line(text: &mut String, line: &str, error: bool) {
    let chars = line.chars().count();
    if error || chars <= MAX_LINE_CHARS {
        text.push_str(line);
    } else {
        text.extend(line.chars().take(MAX_LINE_CHARS));
        let _ = write!(text, "… [{} more chars]", chars - MAX_LINE_CHARS);
    }
    text.push('\n');
}

/// Writes the note standing for the lines omitted since the last kept one, and forgets them.
fn note_omitted(
    text: &mut String,
    tool: &str,
    lines: &[&str],
    omitted: &mut Vec<usize>,
    listing: bool,
) {
    if omitted.is_empty() {
        return;
    }
    let count = omitted.len();
    if listing {
        let paths: Vec<&str> = omitted
            .iter()
            .map(|i| result_path(tool, lines[*i].trim()))
            .collect();
        let _ = writeln!(
            text,
            "[ocmem: {count} lines omitted; by folder: {}]",
            folder_counts(&paths)
        );
    } else {
        let _ = writeln!(text, "[ocmem: {count} lines omitted]");
    }
    omitted.clear();
}

/// `under ./pip/: _internal 800, _vendor/rich 120, … 4 more folders 12`: how many of `paths`
/// are under each folder (two levels below the folder they share), the largest first.
fn folder_counts(paths: &[&str]) -> String {
    let paths: Vec<&str> = paths.iter().copied().filter(|p| !p.is_empty()).collect();
    let shared = shared_folder(&paths);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for path in &paths {
        *counts.entry(folder_of(&path[shared.len()..])).or_default() += 1;
    }
    let mut sorted: Vec<(&str, usize)> = counts.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = sorted
        .iter()
        .take(LISTING_FOLDERS)
        .map(|(folder, n)| format!("{folder} {n}"))
        .collect();
    let rest = &sorted[sorted.len().min(LISTING_FOLDERS)..];
    if !rest.is_empty() {
        let n: usize = rest.iter().map(|(_, n)| n).sum();
        parts.push(format!("{} more folders {n}", rest.len()));
    }
    if shared.is_empty() {
        parts.join(", ")
    } else {
        format!("under {shared}: {}", parts.join(", "))
    }
}

/// The folder all of `paths` are in, ending with `/`, or "".
fn shared_folder<'a>(paths: &[&'a str]) -> &'a str {
    let Some(first) = paths.first() else {
        return "";
    };
    let mut len = first.len();
    for path in &paths[1..] {
        len = first
            .bytes()
            .zip(path.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    match first[..len].rfind('/') {
        Some(slash) => &first[..=slash],
        None => "",
    }
}

/// The first two folders of a relative `path` (`_vendor/rich` for `_vendor/rich/text.py`), or
/// `.` for a file at the top.
fn folder_of(path: &str) -> &str {
    let path = path.trim_end_matches('/');
    let Some(last_slash) = path.rfind('/') else {
        return ".";
    };
    let dir = &path[..last_slash];
    match dir.match_indices('/').nth(1) {
        Some((cut, _)) => &dir[..cut],
        None => dir,
    }
}

#[cfg(test)]
mod tests;
