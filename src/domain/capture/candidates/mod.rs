//! The memory candidates a compaction summary ends with, and the quality gate that keeps junk
//! (progress, raw errors, commit hashes, file lists, injected instructions, session narration
//! in any language) out of workspace memory.
//!
//! The gate is strict: a compaction candidate is the model's guess, so anything that looks like
//! session state rather than a durable fact is rejected. Its rules are the table `RULES` below;
//! the English patterns are in `rules`, the phrases of narration in every language in
//! `narration`, its shapes (past verbs, counts left, session time words) in `structure`, the
//! tense of its predicate (told in the past, or true only for the moment) in `predicate`, and
//! lengths that count CJK text fairly in `length`.

mod length;
pub mod model;
mod narration;
mod parse;
mod predicate;
mod rules;
mod structure;

use serde::Serialize;

use crate::domain::guard::injection::instructs_agent_by_rules;

pub use parse::{parse_candidates, Candidate, Unreadable};
use rules::*;

// ─── Gate ────────────────────────────────────────────────────────────────────────────────────

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rejection {
    TooShort,
    GitHash,
    CommitSubject,
    RawError,
    StackFrame,
    ActiveFileLine,
    Progress,
    CodeSignature,
    HttpRoute,
    PathHeavy,
    ProjectSnapshot,
    PromptInjection,
    Diagnosis,
    BranchState,
    ServiceState,
    UserRequest,
    PastOrPassing,
    /// What the model, and no rule, recognises as not a durable fact.
    NotDurable,
    Question,
    HotState,
    Secret,
}

impl Rejection {
    pub fn reason(self) -> &'static str {
        match self {
            Rejection::TooShort => "too short to state a fact on its own",
            Rejection::GitHash => "a git commit hash, not a durable fact",
            Rejection::CommitSubject => "a commit subject, which belongs to git history",
            Rejection::RawError => "a raw error message, not a durable fact",
            Rejection::StackFrame => "a stack frame or source location, which goes stale",
            Rejection::ActiveFileLine => "a file touched in this session, not a durable fact",
            Rejection::Progress => "progress or history of this session, not a durable fact",
            Rejection::CodeSignature => "a code declaration, which the code itself records",
            Rejection::HttpRoute => "route documentation, which the code itself records",
            Rejection::PathHeavy => "mostly file paths, which go stale",
            Rejection::ProjectSnapshot => "a count or status snapshot, which goes stale",
            Rejection::PromptInjection => "an instruction to the model, not a fact",
            Rejection::Diagnosis => "the cause of one bug of this session, which its fix settles",
            Rejection::BranchState => "branch or working-tree state, which every commit changes",
            Rejection::ServiceState => "a service up or down right now, not a durable fact",
            Rejection::UserRequest => {
                "what the user asked for in this session, not a lasting preference"
            }
            Rejection::PastOrPassing => {
                "told in the past or true only for the moment, not a durable fact"
            }
            Rejection::NotDurable => "session narration or a passing remark, not a durable fact",
            Rejection::Question => "a question, not a fact",
            Rejection::HotState => "this session's open error or active file, already shown",
            Rejection::Secret => "it holds a secret, which is never stored",
        }
    }

    /// The name the gate's reports and `ocmem explain` use.
    pub fn name(self) -> &'static str {
        match self {
            Rejection::TooShort => "too-short",
            Rejection::GitHash => "git-hash",
            Rejection::CommitSubject => "commit-subject",
            Rejection::RawError => "raw-error",
            Rejection::StackFrame => "stack-frame",
            Rejection::ActiveFileLine => "active-file-line",
            Rejection::Progress => "progress",
            Rejection::CodeSignature => "code-signature",
            Rejection::HttpRoute => "http-route",
            Rejection::PathHeavy => "path-heavy",
            Rejection::ProjectSnapshot => "project-snapshot",
            Rejection::PromptInjection => "prompt-injection",
            Rejection::Diagnosis => "diagnosis",
            Rejection::BranchState => "branch-state",
            Rejection::ServiceState => "service-state",
            Rejection::UserRequest => "user-request",
            Rejection::PastOrPassing => "past-or-passing",
            Rejection::NotDurable => "not-durable",
            Rejection::Question => "question",
            Rejection::HotState => "hot-state",
            Rejection::Secret => "secret",
        }
    }

    /// Whether a rule's match settles the line whatever the model says: what it names has a
    /// shape (a hash, an error, a stack frame, code) rather than a meaning.
    /// A rule of the session's story, told in words of a table (progress, a diagnosis, a
    /// snapshot, …): evidence the gate's model weighs, not a verdict.
    pub fn is_narration(self) -> bool {
        matches!(
            self,
            Rejection::Diagnosis
                | Rejection::BranchState
                | Rejection::ServiceState
                | Rejection::UserRequest
                | Rejection::Progress
                | Rejection::ProjectSnapshot
                | Rejection::PastOrPassing
        )
    }

    pub fn is_structural(self) -> bool {
        matches!(
            self,
            Rejection::PromptInjection
                | Rejection::TooShort
                | Rejection::GitHash
                | Rejection::CommitSubject
                | Rejection::RawError
                | Rejection::StackFrame
                | Rejection::ActiveFileLine
                | Rejection::CodeSignature
                | Rejection::HttpRoute
                | Rejection::PathHeavy
        )
    }
}

/// A rejection and the predicate on the text that earns it.
type Rule = (Rejection, fn(&str) -> bool);

/// The gate's rules, in the order they are tried on the text; the first that matches names the
/// rejection. Prompt injection comes first so that it is never reported as something milder.
/// Narration is recognised in every language the gate reads (see `narration`); its specific
/// kinds come before progress so that a report names them.
const RULES: [Rule; 17] = [
    // "ignore previous instructions", `system:` opening the text, `<|im_start|>`, `</system>`
    (Rejection::PromptInjection, is_prompt_injection),
    // under 20 Latin letters' worth (an ideograph counts 3, a kana or Hangul syllable 2)
    (Rejection::TooShort, length::is_too_short),
    // `4832b38 …`, "reverted in 4832b38"
    (Rejection::GitHash, is_git_hash),
    // `fix(scope)!: …`, `Merge branch …`
    (Rejection::CommitSubject, is_commit_subject),
    // `TypeError: …`, `error[E0382]`, `npm ERR!`, `Traceback`, TypeScript diagnostics
    (Rejection::RawError, is_raw_error),
    // `at foo (bar.ts:10:5)`, `File "x.py", line 3`, `src/x.rs:10:5 …`
    (Rejection::StackFrame, is_stack_frame),
    // `modified src/a.ts`, `M src/a.ts`, `src/a.ts | 12 ++--`
    (Rejection::ActiveFileLine, is_active_file_line),
    // "was caused by", "turned out", 原因是, が原因, 원인은, se debía a, lag an, venait de
    (Rejection::Diagnosis, is_diagnosis),
    // "on branch", "working tree", "uncommitted", 工作区, 未コミット, 브랜치에 있, na branch
    (Rejection::BranchState, is_branch_state),
    // "is running", "went down", 已启动, 起動中, 실행 중, está corriendo, abgestürzt
    (Rejection::ServiceState, is_service_state),
    // "the user asked", 用户要求, 依頼された, 요청했, pidió, hat gebeten, a demandé
    (Rejection::UserRequest, is_user_request),
    // `WIP: …`, `Fixed the …`, "so far", "this session", "was merged", "Ran cargo test",
    // "rolled it back", 已修复, 修正しました, 수정했습니다, Corregí, behoben, j'ai, rodei
    (Rejection::Progress, is_progress_in_any_language),
    // `fn foo(a: i32) -> u8`, `class Foo extends Bar {`, `const x = …;`
    (Rejection::CodeSignature, is_code_signature),
    // `GET /api/users/:id returns …`, `router.get('/x', …)`
    (Rejection::HttpRoute, is_http_route),
    // more than two file paths
    (Rejection::PathHeavy, is_path_heavy),
    // `1237 tests pass`, `phase 3 completed`, `coverage is 87%`, `now at v1.2.3`, 还剩,
    // 残り, 남았, quedan, nur noch, il reste, faltam
    (Rejection::ProjectSnapshot, is_snapshot_in_any_language),
    // what none of the above names but the predicate's tense tells: "Gave the queue a go",
    // "…を上流に報告", "salían porque", "right now", 暂时
    (Rejection::PastOrPassing, narration::tells_what_happened),
];

fn is_diagnosis(text: &str) -> bool {
    narration::says(Rejection::Diagnosis, text)
}

fn is_branch_state(text: &str) -> bool {
    narration::says(Rejection::BranchState, text)
        || narration::has_shape_of(Rejection::BranchState, text)
}

fn is_service_state(text: &str) -> bool {
    narration::says(Rejection::ServiceState, text)
        || narration::has_shape_of(Rejection::ServiceState, text)
}

fn is_user_request(text: &str) -> bool {
    narration::says(Rejection::UserRequest, text)
        || narration::has_shape_of(Rejection::UserRequest, text)
}

fn is_progress_in_any_language(text: &str) -> bool {
    is_progress(text)
        || narration::says(Rejection::Progress, text)
        || narration::has_shape_of(Rejection::Progress, text)
}

fn is_snapshot_in_any_language(text: &str) -> bool {
    is_project_snapshot(text)
        || narration::says(Rejection::ProjectSnapshot, text)
        || narration::has_shape_of(Rejection::ProjectSnapshot, text)
}

/// What the session shows already, which a candidate repeating it adds nothing to.
#[derive(Debug, Clone, Copy, Default)]
pub struct HotState<'a> {
    pub open_errors: &'a [String],
    pub active_files: &'a [String],
}

/// The text the rules judge: a lasting rule that opens like narration ("Currently every
/// response must …", "Now that …", 目前…必须) without its opener.
pub(crate) fn judged_text(text: &str) -> &str {
    narration::rule_after_opener(text).unwrap_or(text)
}

/// Every rule of `RULES` that matches the candidate's text, in order. A change dated by its
/// year is the project's history, told in the past but still true ("Realm was dropped in the
/// 2024 rewrite"); the session's story never names its year, so narration rules skip it.
pub fn rule_hits(text: &str) -> Vec<Rejection> {
    let text = judged_text(text);
    let history = predicate::names_a_year(text);
    RULES
        .iter()
        .filter(|(rejection, _)| {
            !(history
                && matches!(
                    rejection,
                    Rejection::Progress | Rejection::Diagnosis | Rejection::PastOrPassing
                ))
        })
        .filter(|(_, matches)| matches(text))
        .map(|&(rejection, _)| rejection)
        .collect()
}

/// The quality gate for compaction candidates (not for memories the user asked for), without
/// a session's hot state: see `gate_in`.
pub fn gate(candidate: &Candidate) -> Result<(), Rejection> {
    gate_in(candidate, HotState::default())
}

/// The quality gate for compaction candidates. An injection in the text or its rationale (which
/// is stored and shown too), a secret, a question, or what the session shows already is
/// refused first; then a rule about the shape of the text (a hash, an error, code, paths)
/// settles it; otherwise the model weighs the text (see `model`), with the narration rules that
/// matched as features, and rejects it when it gives junk more than `JUNK_ODDS` says.
pub fn gate_in(candidate: &Candidate, hot: HotState) -> Result<(), Rejection> {
    gate_with(&model::weights(), candidate, hot)
}

/// How sure of junk the gate's model must be to reject a line: `unruled` for a line no rule
/// matched, `ruled` for one a narration rule matched (progress, diagnosis, a snapshot, …).
/// A narration rule is a table of words: it fires on facts it was not written for (a Korean
/// note's "…로 결정함", "the team agreed to …", a decision told in the past), so the model,
/// which reads its hit, has the last word.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JunkOdds {
    pub unruled: f64,
    pub ruled: f64,
}

impl JunkOdds {
    /// The junk odds the gate's model must pass to reject a line that matched `hits`.
    pub fn after(self, hits: &[Rejection]) -> f64 {
        if hits.iter().any(|r| r.is_narration()) {
            self.ruled
        } else {
            self.unruled
        }
    }

    /// The rules alone: every rule that matches rejects, and the model never does (what the
    /// rules' own tests pin).
    pub const RULES_ALONE: JunkOdds = JunkOdds {
        unruled: 1.1,
        ruled: -1.0,
    };
}

/// The gate's odds, chosen on the training data's development split by `train_models
/// --tune` (docs/capture-models.md, "The gate's rules are evidence"): the same whether a
/// narration rule matched or not. Since the rules stopped settling it, the model is rarely
/// unsure of a fact: where no rule matched, from 0.8 to 0.5 the facts kept stay at 0.933 and
/// the junk rejected rises from 0.908 to 0.941 (with 0.5 where a rule did); 0.6, not 0.5,
/// since a recorded model's "This repo is a TypeScript demo with strict typecheck via
/// check.js" reads as junk at 0.53, and a durable fact lost costs more than a line of junk
/// kept, which a person can delete. 0.65 since the model reads lines without a type: the same
/// recorded summary's "- [feedback] User prefers terse answers" reads as junk at 0.62, and on
/// the test split 0.65 keeps one fact more and twelve junk lines more of 1 491 (0.938 rejected).
pub const JUNK_ODDS: JunkOdds = JunkOdds {
    unruled: 0.65,
    ruled: 0.65,
};

pub fn gate_with(
    weights: &crate::domain::base::classifier::Weights,
    candidate: &Candidate,
    hot: HotState,
) -> Result<(), Rejection> {
    gate_at(JUNK_ODDS, weights, candidate, hot)
}

/// `gate_with`, rejecting at the probabilities of junk `odds`.
pub fn gate_at(
    odds: JunkOdds,
    weights: &crate::domain::base::classifier::Weights,
    candidate: &Candidate,
    hot: HotState,
) -> Result<(), Rejection> {
    let texts = || std::iter::once(candidate.text.as_str()).chain(candidate.rationale.as_deref());
    // A secret first: the scrubber's finding is certain, and the `[not saved]` line should say
    // so even when the line also reads as an instruction ("Build alerts post to <webhook>").
    // Then an instruction the injection rules find, as certain.
    for text in texts() {
        if holds_secret(text) {
            return Err(Rejection::Secret);
        }
        if instructs_agent_by_rules(text).is_some() {
            return Err(Rejection::PromptInjection);
        }
    }
    if model::is_question(&candidate.text) {
        return Err(Rejection::Question);
    }
    if repeats_hot_state(&candidate.text, hot) {
        return Err(Rejection::HotState);
    }
    let hits = rule_hits(&candidate.text);
    // A rule about the shape of the text settles it, as it always did. An instruction found by
    // the guard's model alone is less certain than the gate's rules ("The user asked to make
    // the submit button blue" is a user request), and is named after them; the rationale is
    // read by the guard as the text is.
    let certain = |r: &&Rejection| **r != Rejection::PromptInjection;
    if let Some(&shape) = hits.iter().filter(certain).find(|r| r.is_structural()) {
        return Err(shape);
    }
    let narration = hits.iter().copied().find(|r| r.is_narration());
    if narration.is_none() && texts().any(is_prompt_injection) {
        return Err(Rejection::PromptInjection);
    }
    let junk = model::junk_probability(&model::predict_with(weights, candidate, &hits));
    match narration {
        // A narration rule matched: the model reads its hit and decides; a rejection is named
        // after the rule, which says more than "not durable".
        Some(rule) if junk > odds.ruled => Err(rule),
        Some(_) if texts().any(is_prompt_injection) => Err(Rejection::PromptInjection),
        Some(_) => Ok(()),
        None if junk > odds.unruled => Err(Rejection::NotDurable),
        None => Ok(()),
    }
}

/// Whether the scrubber finds a secret in `text`, or it still looks secret after it (a
/// private key, a JWT, a secret-like name given a value, a long random token): refused rather
/// than stored redacted, since a redacted fact is no fact.
fn holds_secret(text: &str) -> bool {
    text.contains(crate::domain::guard::secrets::REDACTED_PREFIX)
        || !crate::domain::guard::secrets::secret_kinds(text).is_empty()
        || crate::domain::memory::team::gate::suspect::looks_secret(text).is_some()
}

/// Whether `text` repeats the session's hot state: one of its open errors, or one of its
/// active files with little else (a location, "still being edited"). A lasting fact about a
/// file the session touched names the file and says more.
fn repeats_hot_state(text: &str, hot: HotState) -> bool {
    let folded = text.to_lowercase();
    let found = |needle: &str| {
        let needle = needle.trim().to_lowercase();
        (needle.chars().count() >= 6)
            .then(|| folded.find(&needle).map(|at| (at, at + needle.len())))
            .flatten()
    };
    let repeats_error = hot
        .open_errors
        .iter()
        .any(|error| found(error).is_some() || error.split(": ").nth(1).and_then(found).is_some());
    let repeats_file = hot.active_files.iter().any(|file| {
        found(file).is_some_and(|(start, end)| {
            let at_line = folded[end..].starts_with(':')
                && folded[end + 1..].starts_with(|c: char| c.is_ascii_digit());
            let rest = folded[..start].chars().count() + folded[end..].chars().count();
            at_line || rest < 40
        })
    });
    repeats_error || repeats_file
}

#[cfg(test)]
mod tests;
