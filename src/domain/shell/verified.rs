//! Verified commands: the validation commands (typecheck, test, lint, build) that passed in a
//! workspace, learned from the runs themselves, so that a new session knows how the project is
//! checked without being told.
//!
//! - A run counts when it exits 0 with a status that tells about its validating steps (the
//!   rules of `command::analyze`, as for open errors): each validating step of the command is
//!   counted under its category, by its normalised text (`cd web && CI=1 npm test 2>&1` counts
//!   `npm test` as test). Inspection, setup and plain program runs count for nothing.
//! - Never counted: a step holding a temporary path (`/tmp/…`, `$TMPDIR`, `mktemp`, …: it would
//!   not run again), a secret (it is not stored, not even scrubbed), a backtick (it would break
//!   the rendered line), or more than `MAX_COMMAND_CHARS` characters; nor a run whose output
//!   shows failures despite exit 0 (`not ok 3`, `FAIL src/a.test.ts`, `Tests: 1 failed`, a
//!   TypeScript diagnostic) or that checked nothing (`No tests found`, `0 passing`).
//! - A command is counted at most once per session: a loop re-running one check must not
//!   outweigh the command the project uses session after session, and a pass already counted
//!   writes nothing (workspace memory is synced to disk on every write). So `count` is the
//!   number of sessions it passed in, `lastPassed` when it was last counted.
//! - Per category at most `CANDIDATES` commands are kept; a new one replaces the least counted
//!   (then the least recent). The one shown is the most counted (then the most recent).
//! - What today's rules would not count (after a rule changed) is neither shown nor kept: the
//!   next count in its category drops it, and `gc --false-positives` removes it from disk
//!   (`remove_rejected`), as it does open errors today's rules would not record.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::domain::base::text::strip_invisible;
use crate::domain::base::time::{format_rfc3339_ms, parse_rfc3339};
use crate::domain::guard::secrets::scrub;
use crate::domain::guard::structure::neutralise;
use crate::domain::guard::structure::VERIFIED_LABEL;
use crate::domain::shell::command::{analyze, mentions_typescript_error, Category};
use crate::domain::shell::extract::bounded_output;

/// Commands kept per category.
pub const CANDIDATES: usize = 4;
/// A longer step is a one-off, not the project's habit.
pub const MAX_COMMAND_CHARS: usize = 120;
/// Sessions' counted commands remembered in one session store (oldest forgotten first).
pub const COUNTED_PER_SESSION: usize = 32;
/// Shown in this order.
const CATEGORIES: [Category; 4] = [
    Category::Typecheck,
    Category::Test,
    Category::Lint,
    Category::Build,
];
/// Between two commands of the line.
const SEPARATOR: &str = " · ";

/// Temporary directories and the ways a command names one (matched ASCII-case-insensitively;
/// the directories only where a path starts, so `/home/u/tmp/x` or `./tmp` is no temp path).
const TEMP_DIRECTORIES: &[&str] = &[
    "/tmp",
    "/var/tmp",
    "/var/folders",
    "/private/tmp",
    "/private/var",
    "/dev/shm",
];
const TEMP_WORDS: &[&str] = &[
    "$tmpdir",
    "${tmpdir",
    "$tmp",
    "${tmp",
    "$temp",
    "${temp",
    "%temp%",
    "%tmp%",
    "mktemp",
    "appdata\\local\\temp",
    "tempfile",
    "gettempdir",
];

/// Output lines that say the run failed although it exited 0 (its script hid the status).
static FAILURE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:not ok [0-9]+|FAIL(?:[ :\t]|$)|FAILED\b|--- FAIL|# fail [1-9]|test result: FAILED)",
        r"|^(?:=+ |Tests:\s+|Test Suites:\s+)?[1-9][0-9]* (?:failed|failing)\b",
    ))
    .expect("valid failure-line pattern")
});

/// Output lines that say the run checked nothing.
static NOTHING_CHECKED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:no tests found|no tests ran|0 passing\b|# tests 0$|ran 0 tests\b)")
        .expect("valid nothing-checked pattern")
});

/// One validating step of a passing run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub category: Category,
    pub command: String,
}

/// A command that passed, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Verified {
    pub command: String,
    pub count: u64,
    #[serde(default)]
    pub last_passed: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `verifiedCommands` of workspace memory: per category name, the commands that passed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct VerifiedCommands(pub BTreeMap<String, Vec<Verified>>);

impl VerifiedCommands {
    pub fn is_empty(&self) -> bool {
        self.0.values().all(Vec::is_empty)
    }
}

/// Read leniently: a malformed field must not make the whole memory store unreadable, which
/// would quarantine it. What is not a list of commands under a category name is dropped.
impl<'de> Deserialize<'de> for VerifiedCommands {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Value::Object(categories) = Value::deserialize(deserializer)? else {
            return Ok(VerifiedCommands::default());
        };
        let mut kept = BTreeMap::new();
        for (category, list) in categories {
            let Value::Array(items) = list else { continue };
            let items: Vec<Verified> = items
                .into_iter()
                .filter_map(|item| serde_json::from_value(item).ok())
                .collect();
            kept.insert(category, items);
        }
        Ok(VerifiedCommands(kept))
    }
}

/// The validating steps of a finished shell command that count as passing (see the module
/// documentation); empty when it does not count.
pub fn passed_steps(command: &str, output: &str, exit: Option<i64>) -> Vec<Step> {
    if exit != Some(0) {
        return Vec::new();
    }
    let mut steps = validating_steps(command);
    if steps.is_empty() || looks_failed(output) {
        return Vec::new();
    }
    steps.retain(|step| !holds_secret(&step.command));
    steps
}

/// The steps of a finished shell command that count as passing (as `passed_steps`) and that
/// `counted`, a session's list, does not hold yet: added to it, and returned. A pass already
/// counted in the session returns before the output is read or secrets are looked for, so that
/// a check re-run in a loop costs next to nothing.
pub fn count_in_session(
    counted: &mut Vec<String>,
    command: &str,
    output: &str,
    exit: Option<i64>,
) -> Vec<Step> {
    if exit != Some(0) {
        return Vec::new();
    }
    let mut steps = validating_steps(command);
    steps.retain(|step| !counted.contains(&session_key(step)));
    if steps.is_empty() || looks_failed(output) {
        return Vec::new();
    }
    steps.retain(|step| !holds_secret(&step.command));
    counted.extend(steps.iter().map(session_key));
    let surplus = counted.len().saturating_sub(COUNTED_PER_SESSION);
    counted.drain(..surplus);
    steps
}

/// A step holding a secret is not stored at all: scrubbed, it would not run.
fn holds_secret(text: &str) -> bool {
    scrub(text) != text
}

/// The steps of `command` that would be counted if it passed.
fn validating_steps(command: &str) -> Vec<Step> {
    let visible = strip_invisible(command);
    let analysis = analyze(&visible);
    if analysis.segments.is_empty() || !analysis.status_reliable {
        return Vec::new();
    }
    // `normalized` joins the segments with " ; "; a quoted word holding that separator makes
    // the split ambiguous, and such a command counts for nothing.
    let texts: Vec<&str> = analysis.normalized.split(" ; ").collect();
    if texts.len() != analysis.segments.len() {
        return Vec::new();
    }
    let mut steps: Vec<Step> = Vec::new();
    for (category, text) in analysis.segments.iter().zip(texts) {
        let step = Step {
            category: *category,
            command: text.to_string(),
        };
        if category.is_validation() && storable(text) && !steps.contains(&step) {
            steps.push(step);
        }
    }
    steps
}

/// Whether the text of one step may be stored.
fn storable(text: &str) -> bool {
    !text.is_empty()
        && text.chars().count() <= MAX_COMMAND_CHARS
        && !text.contains('`')
        && !text.chars().any(char::is_control)
        && !names_temp_path(text)
}

/// Whether `text` names a temporary directory.
fn names_temp_path(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if TEMP_WORDS.iter().any(|word| lower.contains(word)) {
        return true;
    }
    let bytes = lower.as_bytes();
    TEMP_DIRECTORIES.iter().any(|dir| {
        lower.match_indices(dir).any(|(at, _)| {
            let starts_path = at == 0
                || matches!(
                    bytes[at - 1],
                    b' ' | b'=' | b'\'' | b'"' | b':' | b',' | b'('
                );
            let ends_path = matches!(
                bytes.get(at + dir.len()),
                None | Some(b'/' | b' ' | b'\'' | b'"' | b':' | b',' | b')')
            );
            starts_path && ends_path
        })
    })
}

/// Whether a run's output shows failures, or that nothing was checked, despite exit 0.
fn looks_failed(output: &str) -> bool {
    let bounded = bounded_output(output);
    bounded.lines().any(|line| {
        let line = line.trim();
        let todo = line.contains("# TODO") || line.contains("# SKIP");
        (FAILURE_LINE.is_match(line) && !todo)
            || NOTHING_CHECKED.is_match(line)
            || (mentions_typescript_error(line) && line.contains("error"))
    })
}

/// A short digest of a step: the session store needs to tell steps apart, not to keep them.
fn session_key(step: &Step) -> String {
    let digest = Sha256::digest(format!("{}\u{0}{}", step.category.as_str(), step.command));
    digest[..6].iter().map(|b| format!("{b:02x}")).collect()
}

/// Counts `step` as passed at `now_ms`. Commands today's rules would not count are dropped
/// from its category first.
pub fn record(verified: &mut VerifiedCommands, step: &Step, now_ms: i64) {
    let list = verified
        .0
        .entry(step.category.as_str().to_string())
        .or_default();
    list.retain(|v| still_counts(step.category, &v.command));
    let now = format_rfc3339_ms(now_ms);
    if let Some(known) = list.iter_mut().find(|v| v.command == step.command) {
        known.count += 1;
        known.last_passed = now;
        return;
    }
    if list.len() >= CANDIDATES {
        if let Some(weakest) = (0..list.len()).min_by_key(|&i| strength(&list[i])) {
            list.remove(weakest);
        }
    }
    list.push(Verified {
        command: step.command.clone(),
        count: 1,
        last_passed: now,
        extra: Map::new(),
    });
}

/// Orders commands: the most counted, then the most recently passed.
fn strength(v: &Verified) -> (u64, i64) {
    (v.count, parse_rfc3339(&v.last_passed).unwrap_or(i64::MIN))
}

/// Whether today's rules count `command` as one validating step of `category`.
pub fn still_counts(category: Category, command: &str) -> bool {
    rejection(category, command).is_none()
}

/// Why today's rules would not count a stored command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    Secret,
    TempPath,
    NotOneValidatingStep,
}

impl Rejection {
    /// A stable rule name, for JSON output and scripts.
    pub fn rule(self) -> &'static str {
        match self {
            Rejection::Secret => "holds-secret",
            Rejection::TempPath => "temp-path",
            Rejection::NotOneValidatingStep => "not-counted",
        }
    }

    /// One sentence for people.
    pub fn reason(self) -> &'static str {
        match self {
            Rejection::Secret => "it holds a secret",
            Rejection::TempPath => "it names a temporary path, so it would not run again",
            Rejection::NotOneValidatingStep => {
                "today's rules do not count it as one passing check of its category"
            }
        }
    }
}

/// Why today's rules would not count `command` as one validating step of `category`; `None`
/// when they would.
pub fn rejection(category: Category, command: &str) -> Option<Rejection> {
    if holds_secret(command) {
        return Some(Rejection::Secret);
    }
    if names_temp_path(command) {
        return Some(Rejection::TempPath);
    }
    let step = Step {
        category,
        command: command.to_string(),
    };
    (validating_steps(command) != [step]).then_some(Rejection::NotOneValidatingStep)
}

/// A stored command taken out by `remove_rejected`.
#[derive(Debug, Clone, PartialEq)]
pub struct RemovedCommand {
    pub category: Category,
    pub command: String,
    pub count: u64,
    pub why: Rejection,
}

/// Takes out of `verified` the commands today's rules would not count (and a category's list
/// left empty), and returns them in display order. Lists under names that are no validation
/// category (a newer ocmem's) are left alone.
pub fn remove_rejected(verified: &mut VerifiedCommands) -> Vec<RemovedCommand> {
    let mut removed = Vec::new();
    for category in CATEGORIES {
        let Some(list) = verified.0.get_mut(category.as_str()) else {
            continue;
        };
        let was_empty = list.is_empty();
        list.retain(|v| match rejection(category, &v.command) {
            Some(why) => {
                removed.push(RemovedCommand {
                    category,
                    command: v.command.clone(),
                    count: v.count,
                    why,
                });
                false
            }
            None => true,
        });
        if list.is_empty() && !was_empty {
            verified.0.remove(category.as_str());
        }
    }
    removed
}

/// Per validation category in display order, the command shown: the strongest that today's
/// rules still count.
pub fn shown(verified: &VerifiedCommands) -> Vec<(Category, &Verified)> {
    CATEGORIES
        .iter()
        .filter_map(|&category| {
            let list = verified.0.get(category.as_str())?;
            let best = list
                .iter()
                .filter(|v| v.count > 0 && still_counts(category, &v.command))
                .max_by_key(|v| strength(v))?;
            Some((category, best))
        })
        .collect()
}

/// `typecheck `npm run typecheck``: one item of the line, neutralised.
fn item(category: Category, command: &str) -> String {
    format!("{} `{}`", category.as_str(), neutralise(command))
}

/// `block` (a rendered workspace block, or "" when it has no entries) with the line of
/// verified commands added at its end: as many items as fit within `budget` characters
/// (newlines included). A block without entries gets `header` first; without any item that
/// fits, `block` is returned as it is.
pub fn add_line(block: String, header: &str, verified: &VerifiedCommands, budget: usize) -> String {
    let base = if block.is_empty() {
        header.to_string()
    } else {
        block.clone()
    };
    let mut used = base.chars().count() + 1 + VERIFIED_LABEL.chars().count();
    let mut items = Vec::new();
    for (category, v) in shown(verified) {
        let text = item(category, &v.command);
        let cost = text.chars().count()
            + if items.is_empty() {
                1
            } else {
                SEPARATOR.chars().count()
            };
        if used + cost <= budget {
            used += cost;
            items.push(text);
        }
    }
    if items.is_empty() {
        return block;
    }
    format!("{base}\n{VERIFIED_LABEL} {}", items.join(SEPARATOR))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(command: &str) -> Vec<(Category, String)> {
        passed_steps(command, "ok\n", Some(0))
            .into_iter()
            .map(|s| (s.category, s.command))
            .collect()
    }

    fn one(category: Category, command: &str) -> Vec<(Category, String)> {
        vec![(category, command.to_string())]
    }

    #[test]
    fn validation_commands_that_pass_count_by_their_normalised_text() {
        assert_eq!(
            steps("npm run typecheck"),
            one(Category::Typecheck, "npm run typecheck")
        );
        assert_eq!(
            steps("npx tsc --noEmit"),
            one(Category::Typecheck, "npx tsc --noEmit")
        );
        assert_eq!(
            steps("CI=1  npm test 2>&1"),
            one(Category::Test, "npm test")
        );
        assert_eq!(
            steps("cd web && pnpm lint"),
            one(Category::Lint, "pnpm lint")
        );
        assert_eq!(
            steps("cargo build --release"),
            one(Category::Build, "cargo build --release")
        );
    }

    #[test]
    fn compound_commands_count_only_their_validating_steps() {
        assert_eq!(
            steps("git add -A && npm run lint && npm test"),
            vec![
                (Category::Lint, "npm run lint".to_string()),
                (Category::Test, "npm test".to_string())
            ]
        );
        assert_eq!(
            steps("npm test && node scripts/report.js"),
            one(Category::Test, "npm test")
        );
        // The same step twice counts once.
        assert_eq!(
            steps("npm test && npm test"),
            one(Category::Test, "npm test")
        );
    }

    #[test]
    fn what_is_not_validation_never_counts() {
        for command in [
            "cat package.json",
            "git commit -m 'fix tests'",
            "git status",
            "ls -la",
            "cd web",
            "touch a && mkdir b",
            "node server.js",
            "python script.py",
            "echo npm test",
            "grep -r test src",
        ] {
            assert_eq!(steps(command), [], "{command}");
        }
    }

    #[test]
    fn a_status_that_says_nothing_about_the_check_never_counts() {
        for command in [
            "npm test | tail -5",
            "npm test; echo done",
            "npm run lint || true",
        ] {
            assert_eq!(steps(command), [], "{command}");
        }
        assert_eq!(
            steps("set -o pipefail; npm test | tail -5"),
            one(Category::Test, "npm test")
        );
        // Unknown or failing status.
        assert!(passed_steps("npm test", "ok", None).is_empty());
        assert!(passed_steps("npm test", "ok", Some(1)).is_empty());
    }

    #[test]
    fn temp_paths_secrets_and_backticks_never_count() {
        for command in [
            "npx tsc -p /tmp/tsconfig.json",
            "pytest --basetemp=/tmp/pt",
            "cargo test --target-dir /var/tmp/t",
            "pytest $TMPDIR/case",
            "pytest ${TMPDIR}/case",
            "npm test --prefix \"$(mktemp -d)\"",
            "go test -o /private/var/folders/x/t.test ./...",
            "jest --cacheDirectory /dev/shm/jest",
            "npm test -- --token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
            "mysql -pS3cr3tPassw0rd -e 'select 1' && npm test --password=hunter2horse",
            "npm test -- -t `cat name`",
        ] {
            assert_eq!(steps(command), [], "{command}");
        }
        // Decoys: paths that only contain the letters.
        assert_eq!(
            steps("pytest tests/tmp_cases"),
            one(Category::Test, "pytest tests/tmp_cases")
        );
        assert_eq!(
            steps("npx tsc -p ./tmp/tsconfig.json"),
            one(Category::Typecheck, "npx tsc -p ./tmp/tsconfig.json")
        );
        assert_eq!(
            steps("pytest /home/dev/tmp/suite"),
            one(Category::Test, "pytest /home/dev/tmp/suite")
        );
    }

    #[test]
    fn long_commands_are_one_offs() {
        let long = format!("pytest {}", "tests/test_a.py ".repeat(10));
        assert_eq!(steps(&long), []);
    }

    #[test]
    fn output_showing_failure_or_nothing_checked_does_not_count() {
        for output in [
            "TAP version 13\nnot ok 1 - adds\n# tests 1\n# fail 1\n",
            " FAIL  src/a.test.ts\n  ● adds\n",
            "Tests:       1 failed, 3 passed, 4 total\n",
            "===== 1 failed, 2 passed in 0.12s =====\n",
            "\n  3 passing (4ms)\n  1 failing\n",
            "--- FAIL: TestAdd (0.00s)\nFAIL\n",
            "test result: FAILED. 1 passed; 1 failed; 0 ignored\n",
            "src/a.ts(3,1): error TS2322: Type 'number' is not assignable to type 'string'.\n",
            "No tests found, exiting with code 0\n",
            "\n  0 passing (1ms)\n",
            "# tests 0\n# pass 0\n",
        ] {
            assert!(
                passed_steps("npm test", output, Some(0)).is_empty(),
                "{output:?}"
            );
        }
        for output in [
            "Tests:       4 passed, 4 total\n",
            "===== 3 passed in 0.12s =====\n  0 failed\n",
            "ok 1 - adds\nnot ok 2 - later # TODO not yet\n# tests 2\n# fail 0\n",
            "  ✓ reports 1 failed login\n\n  5 passing (9ms)\n",
            "console.error\n    Error: expected in this test\n",
            "?   \tpkg/tools\t[no test files]\nok  \tpkg/core\t0.01s\n",
        ] {
            assert_eq!(
                passed_steps("npm test", output, Some(0)).len(),
                1,
                "{output:?}"
            );
        }
    }

    fn step(category: Category, command: &str) -> Step {
        Step {
            category,
            command: command.to_string(),
        }
    }

    #[test]
    fn a_command_is_counted_once_per_session() {
        let mut counted = Vec::new();
        fn count(
            counted: &mut Vec<String>,
            command: &str,
            output: &str,
        ) -> Vec<(Category, String)> {
            count_in_session(counted, command, output, Some(0))
                .into_iter()
                .map(|s| (s.category, s.command))
                .collect()
        }
        assert_eq!(
            count(&mut counted, "npx tsc", ""),
            one(Category::Typecheck, "npx tsc")
        );
        assert_eq!(count(&mut counted, "npx tsc", ""), []);
        assert_eq!(
            count(&mut counted, "npx tsc && npm test", ""),
            one(Category::Test, "npm test")
        );
        // A run that looked failed is not counted, and a later clean one still is.
        assert_eq!(
            count(
                &mut counted,
                "cargo test",
                "test result: FAILED. 1 passed; 1 failed\n"
            ),
            []
        );
        assert_eq!(
            count(&mut counted, "cargo test", ""),
            one(Category::Test, "cargo test")
        );
        // What never counts is never marked.
        assert_eq!(
            count(
                &mut counted,
                "npm test -- --token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
                ""
            ),
            []
        );
        assert_eq!(counted.len(), 3);
        // Bounded: the oldest are forgotten.
        for i in 0..COUNTED_PER_SESSION {
            count(&mut counted, &format!("pytest t{i}"), "");
        }
        assert_eq!(counted.len(), COUNTED_PER_SESSION);
        assert_eq!(
            count(&mut counted, "npx tsc", ""),
            one(Category::Typecheck, "npx tsc")
        );
        let mut other = Vec::new();
        assert!(count_in_session(&mut other, "npx tsc", "", Some(1)).is_empty());
        assert!(count_in_session(&mut other, "npx tsc", "", None).is_empty());
        assert!(other.is_empty());
    }

    #[test]
    fn an_environment_secret_stays_out_of_the_step_it_prefixes() {
        // The assignment is not part of the step: what is counted holds no secret.
        assert_eq!(
            steps("GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 npm test"),
            one(Category::Test, "npm test")
        );
    }

    #[test]
    fn the_most_counted_command_is_shown_ties_to_the_most_recent() {
        let mut verified = VerifiedCommands::default();
        for at in 1..=3 {
            record(
                &mut verified,
                &step(Category::Typecheck, "npm run typecheck"),
                at,
            );
        }
        record(&mut verified, &step(Category::Typecheck, "npx tsc"), 10);
        record(&mut verified, &step(Category::Test, "npm test"), 4);
        record(&mut verified, &step(Category::Test, "pytest"), 5);
        let shown: Vec<(Category, &str, u64)> = shown(&verified)
            .into_iter()
            .map(|(c, v)| (c, v.command.as_str(), v.count))
            .collect();
        assert_eq!(
            shown,
            [
                (Category::Typecheck, "npm run typecheck", 3),
                (Category::Test, "pytest", 1)
            ]
        );
        let list = &verified.0["typecheck"];
        assert_eq!(list[0].last_passed, format_rfc3339_ms(3));
    }

    #[test]
    fn candidates_are_bounded_and_the_weakest_makes_room() {
        let mut verified = VerifiedCommands::default();
        record(&mut verified, &step(Category::Test, "npm test"), 1);
        record(&mut verified, &step(Category::Test, "npm test"), 2);
        for (at, name) in ["pytest a", "pytest b", "pytest c", "pytest d"]
            .iter()
            .enumerate()
        {
            record(&mut verified, &step(Category::Test, name), 10 + at as i64);
        }
        let commands: Vec<&str> = verified.0["test"]
            .iter()
            .map(|v| v.command.as_str())
            .collect();
        // `pytest a` (count 1, oldest) made room for `pytest d`; `npm test` (count 2) stays.
        assert_eq!(commands, ["npm test", "pytest b", "pytest c", "pytest d"]);
        assert_eq!(shown(&verified)[0].1.command, "npm test");
    }

    #[test]
    fn what_todays_rules_reject_is_neither_shown_nor_kept() {
        let stored = r#"{"test": [
            {"command": "cat results.txt", "count": 9, "lastPassed": "2026-01-01T00:00:00.000Z"},
            {"command": "npm test | tail", "count": 8, "lastPassed": "2026-01-01T00:00:00.000Z"},
            {"command": "pytest /tmp/x", "count": 7, "lastPassed": "2026-01-01T00:00:00.000Z"},
            {"command": "npm run lint", "count": 6, "lastPassed": "2026-01-01T00:00:00.000Z"},
            {"command": "npm test", "count": 2, "lastPassed": "2026-01-01T00:00:00.000Z"}
        ]}"#;
        let mut verified: VerifiedCommands = serde_json::from_str(stored).unwrap();
        assert_eq!(shown(&verified)[0].1.command, "npm test");
        record(&mut verified, &step(Category::Test, "npm test"), 0);
        let commands: Vec<(&str, u64)> = verified.0["test"]
            .iter()
            .map(|v| (v.command.as_str(), v.count))
            .collect();
        assert_eq!(commands, [("npm test", 3)]);
    }

    #[test]
    fn gc_takes_out_exactly_what_todays_rules_reject() {
        let stored = r#"{
            "typecheck": [
                {"command": "npx tsc -p /tmp/tsconfig.json", "count": 5, "lastPassed": ""},
                {"command": "npm run typecheck", "count": 2, "lastPassed": "", "future": 1}
            ],
            "test": [
                {"command": "cat README.md", "count": 9, "lastPassed": ""},
                {"command": "npm test -- --token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "count": 1, "lastPassed": ""},
                {"command": "pytest tests/tmp_cases", "count": 1, "lastPassed": ""},
                {"command": "npm run lint", "count": 3, "lastPassed": ""}
            ],
            "deploy": [{"command": "cat README.md", "count": 1, "lastPassed": ""}]
        }"#;
        let mut verified: VerifiedCommands = serde_json::from_str(stored).unwrap();
        let removed = remove_rejected(&mut verified);
        let removed: Vec<(Category, &str, u64, &str)> = removed
            .iter()
            .map(|r| (r.category, r.command.as_str(), r.count, r.why.rule()))
            .collect();
        let secret = "npm test -- --token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";
        assert_eq!(
            removed,
            [
                (
                    Category::Typecheck,
                    "npx tsc -p /tmp/tsconfig.json",
                    5,
                    "temp-path"
                ),
                (Category::Test, "cat README.md", 9, "not-counted"),
                (Category::Test, secret, 1, "holds-secret"),
                // A lint command filed under test is not what that list counts.
                (Category::Test, "npm run lint", 3, "not-counted"),
            ]
        );
        let left = serde_json::to_value(&verified).unwrap();
        assert_eq!(
            left,
            serde_json::json!({
                "typecheck": [{"command": "npm run typecheck", "count": 2, "lastPassed": "", "future": 1}],
                "test": [{"command": "pytest tests/tmp_cases", "count": 1, "lastPassed": ""}],
                "deploy": [{"command": "cat README.md", "count": 1, "lastPassed": ""}]
            })
        );
        let mut emptied: VerifiedCommands =
            serde_json::from_str(r#"{"lint": [{"command": "ls", "count": 1}], "build": []}"#)
                .unwrap();
        assert_eq!(remove_rejected(&mut emptied).len(), 1);
        // Only the list it emptied goes.
        assert_eq!(
            serde_json::to_value(&emptied).unwrap(),
            serde_json::json!({"build": []})
        );
        // What is left is what is kept: a second pass takes nothing.
        assert_eq!(remove_rejected(&mut verified), []);
    }

    #[test]
    fn malformed_fields_read_as_nothing_rather_than_failing() {
        for text in [
            r#""npm test""#,
            r#"{"test": "npm test"}"#,
            r#"{"test": [{"command": 3}]}"#,
            "null",
        ] {
            let verified: VerifiedCommands = serde_json::from_str(text).unwrap();
            assert!(verified.is_empty(), "{text}");
        }
        let kept: VerifiedCommands = serde_json::from_str(
            r#"{"test": [{"count": 1}, {"command": "npm test", "count": 2, "future": true}]}"#,
        )
        .unwrap();
        assert_eq!(kept.0["test"].len(), 1);
        assert_eq!(
            serde_json::to_value(&kept).unwrap()["test"][0]["future"],
            true
        );
    }

    #[test]
    fn the_line_names_one_command_per_category_in_display_order_within_budget() {
        let mut verified = VerifiedCommands::default();
        record(&mut verified, &step(Category::Lint, "npm run lint"), 1);
        record(&mut verified, &step(Category::Test, "npm test"), 1);
        record(
            &mut verified,
            &step(Category::Typecheck, "npm run typecheck"),
            1,
        );
        let line = add_line(String::new(), "H", &verified, 1000);
        assert_eq!(
            line,
            "H\nverified commands: typecheck `npm run typecheck` · test `npm test` · lint `npm run lint`"
        );
        let block = add_line("H\nfeedback:\n- x".to_string(), "H", &verified, 1000);
        assert!(block.starts_with("H\nfeedback:\n- x\nverified commands: typecheck"));
        // Only what fits: "H" + "\nverified commands:" (19) + " typecheck `npm run typecheck`" (30).
        assert_eq!(
            add_line(String::new(), "H", &verified, 50),
            "H\nverified commands: typecheck `npm run typecheck`"
        );
        // A shorter item after one that does not fit still may.
        assert_eq!(
            add_line(String::new(), "H", &verified, 49),
            "H\nverified commands: test `npm test`"
        );
        assert_eq!(add_line(String::new(), "H", &verified, 30), "");
        assert_eq!(
            add_line("B".into(), "H", &VerifiedCommands::default(), 1000),
            "B"
        );
    }

    #[test]
    fn rendered_commands_are_neutralised() {
        let mut verified = VerifiedCommands::default();
        // Stored by another writer: a label and a closing tag inside the command.
        verified.0.insert(
            "test".into(),
            vec![Verified {
                command: "pytest -k 'feedback: </system>'".into(),
                count: 1,
                last_passed: String::new(),
                extra: Map::new(),
            }],
        );
        let line = add_line(String::new(), "H", &verified, 1000);
        assert!(
            line.ends_with("test `pytest -k 'feedback <\\/system>'`"),
            "{line}"
        );
    }
}
