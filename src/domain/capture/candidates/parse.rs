//! Reading the memory candidates a compaction summary ends with.
//!
//! Parsing is lenient about the shape of the block, because models vary it, and strict about
//! what counts as a candidate line.

use serde::Serialize;

use crate::domain::capture::explicit::learned;
use crate::domain::memory::kind::MemoryType;

/// Longest text and rationale kept, in characters; longer ones are cut at a word boundary.
pub(super) const MAX_TEXT_CHARS: usize = 260;
const MAX_RATIONALE_CHARS: usize = 180;
/// A shorter rationale ("CI", "faster") explains nothing and is dropped.
const MIN_RATIONALE_CHARS: usize = 8;

const XML_OPEN: &str = "<workspace_memory_candidates>";
const XML_CLOSE: &str = "</workspace_memory_candidates>";
/// Titles of a candidate block, compared case-insensitively.
const BLOCK_TITLES: [&str; 2] = ["workspace memory candidates", "memory candidates"];
/// What follows one of these (after a space or an opening parenthesis) is the rationale.
const RATIONALE_MARKERS: [&str; 2] = ["why:", "rationale:"];

const NO_MEMORY_TYPE: &str = "no memory type (feedback, project, decision or reference)";
const NOT_A_CANDIDATE: &str = "not a candidate line";
const EMPTY_TEXT: &str = "a memory type with no text";

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    #[serde(rename = "type")]
    pub kind: MemoryType,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
    /// The line as the model wrote it (trimmed), for reports.
    pub line: String,
    /// Whether the line named its type; a list line without one is typed by the type model.
    #[serde(skip)]
    pub tagged: bool,
}

/// A candidate line that could not be read as one (unknown type, empty), with the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unreadable {
    pub line: String,
    pub reason: &'static str,
}

/// Where the parser is in the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Outside,
    /// Under a `Memory candidates:` label, until a blank line followed by a line that is not a
    /// list line, or a heading. `after_blank` is set by a blank line.
    Label {
        after_blank: bool,
    },
    /// Under a `## Memory Candidates` heading, until the next heading.
    Heading,
    /// Inside `<workspace_memory_candidates>`, until its closing tag.
    Xml,
}

#[derive(Debug, Default)]
struct Parsed {
    candidates: Vec<Candidate>,
    unreadable: Vec<Unreadable>,
}

/// Candidate lines of a compaction summary, in order, from every block found.
///
/// Blocks: a `Memory candidates:` label (optionally bold), a markdown heading titled
/// `Memory Candidates` or `Workspace Memory Candidates` (any level, optional colon), and the
/// legacy `<workspace_memory_candidates>` element (unclosed: to the end). Inside a block, code
/// fences, blank lines and "none" lines are skipped; other lines that are not candidates are
/// returned as `Unreadable`. Lines outside blocks are never candidates.
pub fn parse_candidates(summary: &str) -> (Vec<Candidate>, Vec<Unreadable>) {
    let mut parsed = Parsed::default();
    let mut block = Block::Outside;
    for line in summary.lines().map(str::trim) {
        if block == Block::Xml {
            match find_ignoring_ascii_case(line, XML_CLOSE) {
                Some(end) => {
                    parsed.read(&line[..end]);
                    block = Block::Outside;
                }
                None => parsed.read(line),
            }
            continue;
        }
        if starts_with_ignoring_ascii_case(line, XML_OPEN) {
            let inside = &line[XML_OPEN.len()..];
            match find_ignoring_ascii_case(inside, XML_CLOSE) {
                Some(end) => {
                    parsed.read(&inside[..end]);
                    block = Block::Outside;
                }
                None => {
                    parsed.read(inside);
                    block = Block::Xml;
                }
            }
            continue;
        }
        if let Some(title) = markdown_heading(line) {
            // Any heading ends a block; a candidates heading opens one.
            block = match block_label(title) {
                Some(rest) => {
                    parsed.read(rest);
                    Block::Heading
                }
                None => Block::Outside,
            };
            continue;
        }
        if let Some(rest) = block_label(line) {
            parsed.read(rest);
            block = Block::Label { after_blank: false };
            continue;
        }
        if is_bold_title(line) {
            // `**Next steps:**` is how models write a heading without `#`.
            block = Block::Outside;
            continue;
        }
        match block {
            Block::Outside | Block::Xml => {}
            Block::Heading => parsed.read(line),
            Block::Label { after_blank } => {
                if line.is_empty() {
                    block = Block::Label { after_blank: true };
                } else if is_code_fence(line) {
                    // Fences around the list neither end the block nor count as a line.
                } else if after_blank && !is_list_line(line) {
                    block = Block::Outside;
                } else {
                    parsed.read(line);
                    block = Block::Label { after_blank: false };
                }
            }
        }
    }
    (parsed.candidates, parsed.unreadable)
}

impl Parsed {
    /// Reads one line inside a block: a candidate, an unreadable line, or nothing (blank, code
    /// fence, empty list item, "none").
    fn read(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() || is_code_fence(line) || is_thematic_break(line) {
            return;
        }
        let marker = strip_list_marker(line);
        let body = marker.unwrap_or(line);
        if body.is_empty() {
            return;
        }
        // A list item without its type is still a candidate: models leave the tag out of a
        // line now and then, and the fact it states would be lost. An unknown tag ("[note]")
        // is a shape the model got wrong, and is reported.
        let untagged = || {
            let listed = marker.is_some() && !body.starts_with('[') && !is_none_line(body);
            listed.then_some((None, body))
        };
        let Some((kind, rest)) = split_memory_type(body, marker.is_some())
            .map(|(kind, rest)| (Some(kind), rest))
            .or_else(untagged)
        else {
            if !is_none_line(body) {
                let reason = if marker.is_some() || body.starts_with('[') {
                    NO_MEMORY_TYPE
                } else {
                    NOT_A_CANDIDATE
                };
                self.unreadable.push(Unreadable {
                    line: line.to_string(),
                    reason,
                });
            }
            return;
        };
        let flat = collapse_whitespace(rest);
        let (text, rationale) = split_rationale(&flat);
        if text.is_empty() {
            self.unreadable.push(Unreadable {
                line: line.to_string(),
                reason: EMPTY_TEXT,
            });
            return;
        }
        let text = cut_at_word(text, MAX_TEXT_CHARS);
        self.candidates.push(Candidate {
            kind: kind
                .unwrap_or_else(|| learned::type_of(&learned::type_weights(), &text, &text, "")),
            tagged: kind.is_some(),
            text,
            rationale: rationale
                .filter(|r| r.chars().count() >= MIN_RATIONALE_CHARS)
                .map(|r| cut_at_word(r, MAX_RATIONALE_CHARS)),
            line: line.to_string(),
        });
    }
}

/// The title of a markdown heading (`## Title ##` → "Title"); `#0 0x…` is not a heading.
fn markdown_heading(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('#');
    let hashes = line.len() - rest.len();
    let separated = rest.is_empty() || rest.starts_with(char::is_whitespace);
    ((1..=6).contains(&hashes) && separated).then(|| rest.trim().trim_end_matches('#').trim_end())
}

/// `**Next steps:**`: a line that is all bold.
fn is_bold_title(line: &str) -> bool {
    let inner = line
        .strip_prefix("**")
        .and_then(|l| l.strip_suffix(':').unwrap_or(l).strip_suffix("**"));
    inner.is_some_and(|inner| !inner.trim().is_empty() && !inner.contains("**"))
}

/// What follows the title when `line` is a candidate block title (`Memory candidates:`,
/// `**Workspace memory candidates:**`, `memory candidates: none`), else None.
fn block_label(line: &str) -> Option<&str> {
    let line = line.trim_start_matches(['*', '_']).trim_start();
    let title = BLOCK_TITLES
        .into_iter()
        .find(|title| starts_with_ignoring_ascii_case(line, title))?;
    let rest = line[title.len()..].trim_start_matches(['*', '_']);
    match rest.strip_prefix(':') {
        Some(after) => Some(after.trim_start_matches(['*', '_']).trim()),
        None if rest.trim().is_empty() || is_none_line(rest.trim()) => Some(""),
        // "Memory candidates are listed below" is a sentence, not a title.
        None => None,
    }
}

fn is_code_fence(line: &str) -> bool {
    line.starts_with("```") || line.starts_with("~~~")
}

/// `---`, `***`, `___`: a markdown horizontal rule.
fn is_thematic_break(line: &str) -> bool {
    let marks: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    marks.len() >= 3
        && ['-', '*', '_']
            .into_iter()
            .any(|mark| marks.chars().all(|c| c == mark))
}

/// A line that continues a label block after a blank line: a list item or a typed line.
fn is_list_line(line: &str) -> bool {
    strip_list_marker(line).is_some() || split_memory_type(line, false).is_some()
}

/// The line after its list marker (`-`, `*`, `+`, `•`, `1.`, `1)`), or None without one.
fn strip_list_marker(line: &str) -> Option<&str> {
    let after_bullet = line.strip_prefix(['-', '*', '+', '•']);
    let after_number = || {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        (1..=3).contains(&digits).then_some(())?;
        line[digits..].strip_prefix(['.', ')'])
    };
    let rest = after_bullet.or_else(after_number)?;
    // `**bold**` and `-1` are not list items.
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| rest.trim_start())
}

/// The memory type a candidate starts with, and the rest: `[type] text`, `**type**: text`,
/// `type: text`, and, after a list marker only, `type text`. Case-insensitive.
fn split_memory_type(body: &str, listed: bool) -> Option<(MemoryType, &str)> {
    let body = body.trim_start_matches(['*', '_']);
    if let Some(bracketed) = body.strip_prefix('[') {
        let (name, rest) = bracketed.split_once(']')?;
        let kind = MemoryType::parse(name.trim_matches(['*', '_', ' ']))?;
        return Some((kind, strip_separator(rest)));
    }
    let name_end = body
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(body.len());
    let kind = MemoryType::parse(&body[..name_end])?;
    let rest = body[name_end..].trim_start_matches(['*', '_']);
    // Without brackets or a colon, only a list item may start with a bare type word
    // ("- project uses pnpm"); "project-level" is not a type either way.
    let colon = rest.starts_with(':');
    let bare = listed && (rest.is_empty() || rest.starts_with(char::is_whitespace));
    (colon || bare).then(|| (kind, strip_separator(rest)))
}

/// Text after the memory type, without what separates them: closing emphasis, a colon, a dash.
fn strip_separator(rest: &str) -> &str {
    let rest = rest.trim_start_matches(['*', '_']);
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let rest = rest.trim_start_matches(['*', '_']).trim_start();
    // A dash that stands alone separates; `--frozen-lockfile` is text.
    match rest.strip_prefix(['-', '–', '—']) {
        Some(after) if after.is_empty() || after.starts_with(char::is_whitespace) => {
            after.trim_start()
        }
        _ => rest,
    }
}

/// `none`, `(none)`, `- None.`, `nothing durable`, `n/a`: an explicitly empty block.
fn is_none_line(body: &str) -> bool {
    let first_word = body
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .split(|c: char| !(c.is_alphanumeric() || c == '/'))
        .next()
        .unwrap_or_default();
    ["none", "nothing", "n/a"]
        .into_iter()
        .any(|word| first_word.eq_ignore_ascii_case(word))
}

/// Every run of whitespace (line and paragraph separators included) as one space, trimmed.
fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text Why: rationale`, `text (why: rationale)`, `text Rationale: rationale` → text and
/// rationale, both trimmed. "because …" stays in the text, where it reads well.
fn split_rationale(text: &str) -> (&str, Option<&str>) {
    // A marker opens the text, or follows a space or an opening parenthesis.
    let openers = text
        .char_indices()
        .filter(|&(_, c)| c.is_whitespace() || c == '(')
        .map(|(at, c)| (at, at + c.len_utf8(), c == '('));
    for (at, start, parenthesised) in std::iter::once((0, 0, false)).chain(openers) {
        let Some(marker) = RATIONALE_MARKERS
            .into_iter()
            .find(|m| starts_with_ignoring_ascii_case(&text[start..], m))
        else {
            continue;
        };
        let before = text[..at].trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, '(' | ',' | ';' | '-' | '–' | '—')
        });
        let mut rationale = text[start + marker.len()..].trim();
        if parenthesised {
            rationale = rationale.strip_suffix(')').unwrap_or(rationale).trim_end();
        }
        return (before, Some(rationale));
    }
    (text, None)
}

/// `text` when it fits in `limit` characters, else cut to fit with "…" at the end, at the last
/// space when that keeps more than half (a long unbroken token is cut where it must be).
pub(super) fn cut_at_word(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let kept: String = text.chars().take(limit - 1).collect();
    let next_is_space = text.chars().nth(limit - 1).is_some_and(char::is_whitespace);
    let cut = match kept.rfind(' ') {
        _ if next_is_space => kept.as_str(),
        Some(space) if space > kept.len() / 2 => &kept[..space],
        _ => kept.as_str(),
    };
    format!("{}…", cut.trim_end_matches([' ', ',', ';', ':']))
}

pub(super) fn starts_with_ignoring_ascii_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// Byte offset of `needle` (ASCII) in `text`, ignoring ASCII case.
fn find_ignoring_ascii_case(text: &str, needle: &str) -> Option<usize> {
    text.char_indices()
        .map(|(at, _)| at)
        .find(|&at| starts_with_ignoring_ascii_case(&text[at..], needle))
}

#[cfg(test)]
mod tests {
    use super::super::{gate, Rejection};
    use super::*;

    /// The candidates and unreadable lines of a summary made of `lines`.
    fn parse(lines: &[&str]) -> (Vec<Candidate>, Vec<Unreadable>) {
        parse_candidates(&lines.join("\n"))
    }

    fn texts(candidates: &[Candidate]) -> Vec<&str> {
        candidates.iter().map(|c| c.text.as_str()).collect()
    }

    const RECORDED_SUMMARY: &str = "\
## Objective
- Fix the typecheck error in src/index.ts

## Progress
- Ran npm run typecheck

<workspace_memory_candidates>
- [decision] Use npm scripts for typecheck because the CI calls them directly
- [project] This repo is a TypeScript demo with strict typecheck via check.js
- [feedback] User prefers terse answers
- [reference] 4832b38 fix: something
- [decision] Error: something failed
</workspace_memory_candidates>
";

    #[test]
    fn reads_the_recorded_xml_block_and_nothing_outside_it() {
        let (candidates, unreadable) = parse_candidates(RECORDED_SUMMARY);
        assert!(unreadable.is_empty());
        let kinds: Vec<MemoryType> = candidates.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [
                MemoryType::Decision,
                MemoryType::Project,
                MemoryType::Feedback,
                MemoryType::Reference,
                MemoryType::Decision
            ]
        );
        assert_eq!(
            texts(&candidates),
            [
                "Use npm scripts for typecheck because the CI calls them directly",
                "This repo is a TypeScript demo with strict typecheck via check.js",
                "User prefers terse answers",
                "4832b38 fix: something",
                "Error: something failed",
            ]
        );
        assert_eq!(
            candidates[2].line,
            "- [feedback] User prefers terse answers"
        );
        let verdicts: Vec<Result<(), Rejection>> = candidates.iter().map(gate).collect();
        assert_eq!(verdicts[..3], [Ok(()), Ok(()), Ok(())]);
        assert!(matches!(
            verdicts[3],
            Err(Rejection::GitHash | Rejection::CommitSubject)
        ));
        assert_eq!(verdicts[4], Err(Rejection::RawError));
    }

    #[test]
    fn reads_every_list_line_shape() {
        let (candidates, unreadable) = parse(&[
            "Memory candidates:",
            "- [decision] Use pnpm instead of npm everywhere",
            "* [Project] The API is served from the api/ folder",
            "1. [REFERENCE] Runbook lives at https://wiki.example.com/run",
            "2) [feedback] Keep answers short and to the point",
            "- feedback Always run the linter before pushing",
            "- project: The staging database is read-only",
            "- **decision**: Adopt vitest over jest for speed",
            "- **decision:** Adopt zod for request validation",
            "- **[reference]** Grafana board at https://grafana.example.com/d/x",
            "+ [project] Deploys go through the release pipeline",
            "[decision] Bare bracketed lines are read too",
            "project: Bare colon lines are read too, aside of lists",
        ]);
        assert!(unreadable.is_empty(), "{unreadable:?}");
        let read: Vec<(MemoryType, &str)> = candidates
            .iter()
            .map(|c| (c.kind, c.text.as_str()))
            .collect();
        assert_eq!(
            read,
            [
                (MemoryType::Decision, "Use pnpm instead of npm everywhere"),
                (
                    MemoryType::Project,
                    "The API is served from the api/ folder"
                ),
                (
                    MemoryType::Reference,
                    "Runbook lives at https://wiki.example.com/run"
                ),
                (MemoryType::Feedback, "Keep answers short and to the point"),
                (MemoryType::Feedback, "Always run the linter before pushing"),
                (MemoryType::Project, "The staging database is read-only"),
                (MemoryType::Decision, "Adopt vitest over jest for speed"),
                (MemoryType::Decision, "Adopt zod for request validation"),
                (
                    MemoryType::Reference,
                    "Grafana board at https://grafana.example.com/d/x"
                ),
                (
                    MemoryType::Project,
                    "Deploys go through the release pipeline"
                ),
                (MemoryType::Decision, "Bare bracketed lines are read too"),
                (
                    MemoryType::Project,
                    "Bare colon lines are read too, aside of lists"
                ),
            ]
        );
    }

    #[test]
    fn keeps_dashes_and_words_that_only_look_like_types() {
        let (candidates, unreadable) = parse(&[
            "Memory candidates:",
            "- [project] --frozen-lockfile is required in CI installs",
            "- [decision] - Keep one lockfile at the root",
            "---",
            "- project-level settings live in .config",
        ]);
        assert_eq!(
            texts(&candidates),
            [
                "--frozen-lockfile is required in CI installs",
                "Keep one lockfile at the root",
                "project-level settings live in .config",
            ]
        );
        // "project-level" names no type: the line is read as one without its tag.
        assert!(candidates[..2].iter().all(|c| c.tagged));
        assert!(!candidates[2].tagged);
        assert!(unreadable.is_empty(), "{unreadable:?}");
    }

    #[test]
    fn a_list_line_without_its_type_is_a_candidate_typed_by_the_type_model() {
        let (candidates, unreadable) = parse(&[
            "Memory candidates:",
            "- [project] The API lives in services/api",
            "- User prefers small commits with imperative subject lines",
            "* Nutzer bevorzugt kurze Antworten ohne Zusammenfassung am Ende",
            "1. We decided to keep SQLite over Postgres for the desktop build",
            "- none",
            "These stay true after the session:",
        ]);
        assert_eq!(
            texts(&candidates),
            [
                "The API lives in services/api",
                "User prefers small commits with imperative subject lines",
                "Nutzer bevorzugt kurze Antworten ohne Zusammenfassung am Ende",
                "We decided to keep SQLite over Postgres for the desktop build",
            ]
        );
        let tagged: Vec<bool> = candidates.iter().map(|c| c.tagged).collect();
        assert_eq!(tagged, [true, false, false, false]);
        assert_eq!(candidates[1].kind, MemoryType::Feedback);
        assert_eq!(candidates[3].kind, MemoryType::Decision);
        // Prose in the block is still no candidate, and says so.
        let reasons: Vec<&str> = unreadable.iter().map(|u| u.reason).collect();
        assert_eq!(reasons, [NOT_A_CANDIDATE]);
    }

    #[test]
    fn reports_unknown_types_empty_texts_and_prose_inside_blocks() {
        let (candidates, unreadable) = parse(&[
            "## Memory Candidates",
            "These are worth keeping:",
            "- [note] Something without a known type",
            "- [decision]",
            "- [decision] Why: only a rationale",
            "- Use pnpm instead of npm",
            "- [feedback|project|decision|reference] text",
        ]);
        assert_eq!(texts(&candidates), ["Use pnpm instead of npm"]);
        let reasons: Vec<(&str, &str)> = unreadable
            .iter()
            .map(|u| (u.line.as_str(), u.reason))
            .collect();
        assert_eq!(
            reasons,
            [
                ("These are worth keeping:", NOT_A_CANDIDATE),
                ("- [note] Something without a known type", NO_MEMORY_TYPE),
                ("- [decision]", EMPTY_TEXT),
                ("- [decision] Why: only a rationale", EMPTY_TEXT),
                (
                    "- [feedback|project|decision|reference] text",
                    NO_MEMORY_TYPE
                ),
            ]
        );
    }

    #[test]
    fn recognises_every_block_title() {
        for title in [
            "Memory candidates:",
            "memory CANDIDATES:",
            "**Memory candidates:**",
            "**Memory candidates**:",
            "Workspace memory candidates:",
            "## Memory Candidates",
            "# memory candidates",
            "#### Workspace Memory Candidates",
            "### Memory candidates:",
            "## Memory Candidates ##",
        ] {
            let (candidates, _) = parse(&[
                "- [project] A line before the block is not a candidate",
                title,
                "- [project] The repo uses pnpm workspaces",
            ]);
            assert_eq!(
                texts(&candidates),
                ["The repo uses pnpm workspaces"],
                "{title}"
            );
        }
        for not_a_title in [
            "Memory candidates are listed below",
            "The memory candidates:",
            "##Memory Candidates",
        ] {
            let (candidates, _) = parse(&[not_a_title, "- [project] The repo uses pnpm"]);
            assert!(candidates.is_empty(), "{not_a_title}");
        }
    }

    #[test]
    fn a_label_block_ends_at_prose_after_a_blank_line_or_at_a_heading() {
        let (candidates, unreadable) = parse(&[
            "Memory candidates:",
            "- [project] First fact of the first block",
            "",
            "- [project] Second fact after a blank line",
            "",
            "That is all for this summary.",
            "- [project] Not in a block any more",
            "**Memory candidates:**",
            "- [decision] First fact of the second block",
            "## Next steps",
            "- [decision] Under another heading",
            "Memory candidates:",
            "- [feedback] Fact of the third block",
            "**Next steps:**",
            "- [feedback] Under a bold title",
        ]);
        assert!(unreadable.is_empty(), "{unreadable:?}");
        assert_eq!(
            texts(&candidates),
            [
                "First fact of the first block",
                "Second fact after a blank line",
                "First fact of the second block",
                "Fact of the third block",
            ]
        );
    }

    #[test]
    fn a_heading_block_runs_to_the_next_heading_and_past_blank_lines() {
        let (candidates, unreadable) = parse(&[
            "### Workspace Memory Candidates",
            "- [project] First fact under the heading",
            "",
            "- [project] Second fact under the heading",
            "",
            "Closing remark.",
            "## Objective",
            "- [project] Under the objective",
        ]);
        assert_eq!(
            texts(&candidates),
            [
                "First fact under the heading",
                "Second fact under the heading",
            ]
        );
        assert_eq!(unreadable.len(), 1);
        assert_eq!(unreadable[0].line, "Closing remark.");
    }

    #[test]
    fn an_unclosed_xml_block_runs_to_the_end_and_a_one_line_block_is_read() {
        let (candidates, _) = parse(&[
            "<workspace_memory_candidates>- [project] One-line block fact</workspace_memory_candidates>",
            "- [project] Between the blocks",
            "  <WORKSPACE_MEMORY_CANDIDATES>",
            "- [decision] Inside the unclosed block",
            "## A heading does not end it",
            "- [decision] Still inside the unclosed block",
        ]);
        assert_eq!(
            texts(&candidates),
            [
                "One-line block fact",
                "Inside the unclosed block",
                "Still inside the unclosed block",
            ]
        );
    }

    #[test]
    fn a_tag_mentioned_mid_line_opens_no_block() {
        let (candidates, _) = parse(&[
            "The old `<workspace_memory_candidates>` block is legacy.",
            "- [project] Not a candidate at all",
        ]);
        assert!(candidates.is_empty());
    }

    #[test]
    fn empty_blocks_yield_nothing() {
        for summary in [
            "Memory candidates:",
            "Memory candidates:\n",
            "Memory candidates:\n- none",
            "Memory candidates:\n(none)",
            "Memory candidates: none",
            "Memory candidates: (none)",
            "## Memory Candidates\n- None.\n",
            "<workspace_memory_candidates>\n</workspace_memory_candidates>",
            "Memory candidates:\n\nNothing durable came up.",
            "Memory candidates:\n- Nothing worth keeping",
            "Memory candidates:\n```\n```",
            "",
        ] {
            let (candidates, unreadable) = parse_candidates(summary);
            assert!(candidates.is_empty(), "{summary:?}: {candidates:?}");
            assert!(unreadable.is_empty(), "{summary:?}: {unreadable:?}");
        }
    }

    #[test]
    fn code_fences_around_the_list_are_skipped() {
        let (candidates, unreadable) = parse(&[
            "Memory candidates:",
            "",
            "```",
            "- [project] Inside a fenced list",
            "```",
        ]);
        assert!(unreadable.is_empty());
        assert_eq!(texts(&candidates), ["Inside a fenced list"]);
    }

    #[test]
    fn splits_the_rationale_and_keeps_because_in_the_text() {
        let (candidates, _) = parse(&[
            "Memory candidates:",
            "- [decision] Use pnpm instead of npm Why: one lockfile for the monorepo",
            "- [decision] Use zod for validation (why: types and checks in one place)",
            "- [decision] Pin Node 20 — Rationale: the Lambda runtime is Node 20",
            "- [decision] Use vitest WHY: faster",
            "- [decision] Run migrations by hand because the tool drops columns",
            "- [decision] Use tabs Why:",
        ]);
        let split: Vec<(&str, Option<&str>)> = candidates
            .iter()
            .map(|c| (c.text.as_str(), c.rationale.as_deref()))
            .collect();
        assert_eq!(
            split,
            [
                (
                    "Use pnpm instead of npm",
                    Some("one lockfile for the monorepo")
                ),
                (
                    "Use zod for validation",
                    Some("types and checks in one place")
                ),
                ("Pin Node 20", Some("the Lambda runtime is Node 20")),
                ("Use vitest", None),
                (
                    "Run migrations by hand because the tool drops columns",
                    None
                ),
                ("Use tabs", None),
            ]
        );
    }

    #[test]
    fn collapses_whitespace_inside_the_text() {
        let (candidates, _) = parse_candidates(
            "Memory candidates:\n- [project]   Tabs\tand  runs\u{2028}of spaces\r become one  \r\n",
        );
        assert_eq!(texts(&candidates), ["Tabs and runs of spaces become one"]);
    }

    #[test]
    fn cuts_long_texts_and_rationales_at_a_word_boundary() {
        let long_text = "word ".repeat(80);
        let long_rationale = "reason ".repeat(40);
        let (candidates, _) = parse_candidates(&format!(
            "Memory candidates:\n- [decision] {long_text}Why: {long_rationale}"
        ));
        let text = &candidates[0].text;
        assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
        assert!(text.ends_with("word…"), "{text}");
        let rationale = candidates[0].rationale.as_deref().unwrap();
        assert!(rationale.chars().count() <= MAX_RATIONALE_CHARS);
        assert!(rationale.ends_with("reason…"), "{rationale}");
    }

    #[test]
    fn cuts_an_unbroken_token_where_it_must() {
        let cut = cut_at_word(&"x".repeat(300), MAX_TEXT_CHARS);
        assert_eq!(cut.chars().count(), MAX_TEXT_CHARS);
        assert!(cut.ends_with("x…"));
        assert_eq!(cut_at_word("alpha beta gamma", 12), "alpha beta…");
        assert_eq!(cut_at_word("fits as is", 10), "fits as is");
    }
}
