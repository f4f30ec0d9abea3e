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
mod narration;
mod parse;
mod predicate;
mod rules;
mod structure;

use serde::Serialize;

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
        }
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

/// The quality gate for compaction candidates (not for memories the user asked for).
///
/// The rules of `RULES` apply to the text; a lasting rule that opens like narration
/// ("Currently every response must …", "Now that …", 目前…必须) is gated without its opener.
/// The rationale is stored and shown too, so it must not carry an injection either; the other
/// rules are about what the fact itself is.
pub fn gate(candidate: &Candidate) -> Result<(), Rejection> {
    if candidate
        .rationale
        .as_deref()
        .is_some_and(is_prompt_injection)
    {
        return Err(Rejection::PromptInjection);
    }
    if is_prompt_injection(&candidate.text) {
        return Err(Rejection::PromptInjection);
    }
    let text = narration::rule_after_opener(&candidate.text).unwrap_or(&candidate.text);
    // A change dated by its year is the project's history, told in the past but still true
    // ("Realm was dropped in the 2024 rewrite"); the session's story never names its year.
    let history = predicate::names_a_year(text);
    let applies = |rejection: Rejection| {
        !(history
            && matches!(
                rejection,
                Rejection::Progress | Rejection::Diagnosis | Rejection::PastOrPassing
            ))
    };
    match RULES
        .iter()
        .find(|(rejection, matches)| applies(*rejection) && matches(text))
    {
        Some(&(rejection, _)) => Err(rejection),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
