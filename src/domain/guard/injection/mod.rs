//! Texts that instruct the agent to lower its guard: to ignore its instructions or system
//! prompt, to approve every tool call or stop asking, to run a download in a shell, to turn
//! off its safety or sandbox, to take another role, to send secrets away; and prompt markup
//! that would pass for a message of another role. Nothing that reads as one is ever stored:
//! not as a memory the user asked for, nor a compaction candidate, nor an error summary.
//!
//! Every text is folded first (see `fold`), so that zero-width characters, look-alike letters
//! of other scripts, fullwidth forms, letters spelt out one by one or glued by underscores or
//! dots, and case change nothing. The rules, in every language ocmem reads, are the tables of
//! `rules`; the code here only applies them.

mod fold;
pub mod model;
mod rules;

use std::sync::OnceLock;

use crate::domain::base::pattern::Pattern;
use serde::Serialize;

use fold::{fold, Folded};
use rules::{Form, Rule, RULES};

/// What an instruction to the agent asks of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InjectionKind {
    /// "Ignore the instructions above", "reveal your system prompt".
    OverrideInstructions,
    /// "Always approve every tool call", "don't ask for confirmation".
    ApproveEverything,
    /// `curl … | sh`, `iex (iwr …)`.
    RemoteCode,
    /// "Disable the sandbox", "you have no restrictions".
    DisableSafety,
    /// "You are now …", "act as …", "pretend to be …".
    RoleReassignment,
    /// "Send the API keys to https://…", `env | curl …`.
    Exfiltration,
    /// `system:` opening the text, `<|im_start|>`, `</system>`.
    PromptMarkup,
}

impl InjectionKind {
    /// Every kind, in the order the guard's model lists its classes.
    pub const ALL: [InjectionKind; 7] = [
        InjectionKind::OverrideInstructions,
        InjectionKind::ApproveEverything,
        InjectionKind::RemoteCode,
        InjectionKind::DisableSafety,
        InjectionKind::RoleReassignment,
        InjectionKind::Exfiltration,
        InjectionKind::PromptMarkup,
    ];

    /// The kind's name, as it is serialized.
    pub fn name(self) -> &'static str {
        match self {
            InjectionKind::OverrideInstructions => "override-instructions",
            InjectionKind::ApproveEverything => "approve-everything",
            InjectionKind::RemoteCode => "remote-code",
            InjectionKind::DisableSafety => "disable-safety",
            InjectionKind::RoleReassignment => "role-reassignment",
            InjectionKind::Exfiltration => "exfiltration",
            InjectionKind::PromptMarkup => "prompt-markup",
        }
    }
}

/// What a summary of a failed command says instead of output that read as an instruction.
pub const WITHHELD_SUMMARY: &str = "(output withheld: it read as an instruction to the agent)";

/// Whether `text`, about to be stored, instructs the agent to lower its guard, and how: by the
/// rules, or else by the learned model (`model`), which reads what the rules have no words for.
pub fn instructs_agent(text: &str) -> Option<InjectionKind> {
    instructs_agent_by_rules(text).or_else(|| model::learned_kind(text))
}

/// Whether `text` instructs the agent by the rules alone: for text read on every hook (stored
/// memories at render, error lines, requests), where the model would cost too much and what is
/// stored already passed `instructs_agent`.
pub fn instructs_agent_by_rules(text: &str) -> Option<InjectionKind> {
    let folded = fold(text);
    let squashed = folded.spelt_out.then(|| folded.words.replace(' ', ""));
    for (at, rule) in RULES.iter().enumerate() {
        let form = match rule.form {
            Form::Plain => &folded.plain,
            Form::Words => &folded.words,
        };
        if matches_rule(rule, at, form, false) {
            return Some(rule.kind);
        }
        if let (Form::Words, Some(squashed)) = (rule.form, &squashed) {
            if matches_rule(rule, at, squashed, true) {
                return Some(rule.kind);
            }
        }
    }
    exfiltration(&folded).then_some(InjectionKind::Exfiltration)
}

/// The lines of a failed command's error with every line that instructs the agent left out.
pub fn without_instructions(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|line| instructs_agent_by_rules(line).is_none())
        .cloned()
        .collect()
}

/// `summary`, or `WITHHELD_SUMMARY` when it is empty (every line was left out) or still reads
/// as an instruction (one split over lines that each read as nothing).
pub fn withheld_if_instructing(summary: String) -> String {
    if summary.trim().is_empty() || instructs_agent_by_rules(&summary).is_some() {
        WITHHELD_SUMMARY.to_string()
    } else {
        summary
    }
}

fn needs_met(rule: &Rule, text: &str, squashed: bool) -> bool {
    rule.needs.iter().any(|needle| {
        if squashed {
            text.contains(&needle.replace(' ', ""))
        } else {
            text.contains(needle)
        }
    })
}

/// The patterns of `RULES`, and of their spelt-out forms, each compiled on first need.
fn compiled(at: usize, squashed: bool) -> &'static Pattern {
    static PLAIN: [OnceLock<Pattern>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];
    static SQUASHED: [OnceLock<Pattern>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];
    let cells = if squashed { &SQUASHED } else { &PLAIN };
    cells[at].get_or_init(|| {
        let pattern = RULES[at].pattern;
        if squashed {
            // Spelt-out text has no word gaps left: neither have the words of the pattern.
            Pattern::new(
                pattern
                    .replace(r"\b", "")
                    .replace(" ?", "")
                    .replace(' ', ""),
            )
        } else {
            Pattern::new(pattern)
        }
    })
}

fn matches_rule(rule: &Rule, at: usize, text: &str, squashed: bool) -> bool {
    if !needs_met(rule, text, squashed) {
        return false;
    }
    compiled(at, squashed)
        .find_iter(text)
        .any(|(start, end)| !(rule.negatable && negated(text, start, end)))
}

/// Whether the match at `start..end` of `text` is negated: a negation among the last five words
/// of its sentence before it, or among its own words; a Chinese one just before it; a Japanese
/// or Korean one just after it.
fn negated(text: &str, start: usize, end: usize) -> bool {
    let sentence_start = text[..start]
        .rfind(['\n', '.', ';', '!', '?', '。', '；', '！', '？'])
        .map_or(0, |at| {
            at + text[at..].chars().next().map_or(1, char::len_utf8)
        });
    let mut before = text[sentence_start..start].replace(['\'', '’'], "");
    for phrase in rules::NOT_NEGATIONS {
        before = before.replace(phrase, " ");
    }
    let is_negation = |word: &str| rules::NEGATIONS.contains(&word);
    let words_before: Vec<&str> = before
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let last_words = &words_before[words_before.len().saturating_sub(5)..];
    let inside = text[start..end].split(|c: char| !c.is_alphanumeric());
    if last_words.iter().copied().chain(inside).any(is_negation) {
        return true;
    }
    let just_before: String = {
        let chars: Vec<char> = before.trim_end().chars().collect();
        chars[chars.len().saturating_sub(6)..].iter().collect()
    };
    let just_after: String = text[end..].chars().take(10).collect();
    rules::NEGATIONS_BEFORE
        .iter()
        .any(|n| just_before.contains(n))
        || rules::NEGATIONS_AFTER
            .iter()
            .any(|n| just_after.contains(n))
}

/// A sentence asking to send secrets somewhere: a verb of sending, a secret and a destination,
/// in any order, with no negation before the verb and no sign that it documents
/// authentication.
fn exfiltration(folded: &Folded) -> bool {
    static PATTERNS: OnceLock<[Pattern; 4]> = OnceLock::new();
    let plain = &folded.plain;
    if !rules::EXFILTRATION_NEEDS.iter().any(|n| plain.contains(n)) {
        return false;
    }
    let [verbs, secrets, destinations, unless] = PATTERNS.get_or_init(|| {
        [
            rules::EXFILTRATION_VERBS,
            rules::EXFILTRATION_SECRETS,
            rules::EXFILTRATION_DESTINATIONS,
            rules::EXFILTRATION_UNLESS,
        ]
        .map(Pattern::new)
    });
    sentences(plain).any(|sentence| {
        secrets.is_match(sentence)
            && destinations.is_match(sentence)
            && !unless.is_match(sentence)
            && verbs
                .find_iter(sentence)
                .any(|(start, end)| !negated(sentence, start, end))
    })
}

/// The sentences of a plain text: split at a line break, or at `.`, `!`, `?`, `;` followed by a
/// space (so that URLs and file names stay whole), or at a CJK sentence end.
fn sentences(plain: &str) -> impl Iterator<Item = &str> {
    let mut rest = plain;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len();
        let mut next = rest.len();
        for (at, c) in rest.char_indices() {
            let after = rest[at + c.len_utf8()..].chars().next();
            let ends = matches!(c, '\n' | '。' | '！' | '？' | '；')
                || (matches!(c, '.' | '!' | '?' | ';') && after.is_none_or(|n| n == ' '));
            if ends {
                cut = at;
                next = at + c.len_utf8();
                break;
            }
        }
        let sentence = &rest[..cut];
        rest = &rest[next..];
        Some(sentence)
    })
}

#[cfg(test)]
mod tests;
