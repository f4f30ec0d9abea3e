//! Re-judging a stored open error with today's rules. Stores written by older tools (the
//! TypeScript plugin above all) hold errors ocmem would never have recorded: lines from a
//! `git log` or a `cat`, HTTP status lines, words like "error" in ordinary output. `gc
//! --false-positives` removes what fails this judgement and `baseline` counts it; both ask here.
//!
//! An error is a false positive when, given its stored command and summary:
//! - the command runs nothing whose status says anything about the code (`git log`, `cat`,
//!   `grep`, `ls`, `cd`, `echo` …): `inspection-command`;
//! - the command's exit status belonged to a filter at the end of a pipeline or was hidden by
//!   a later command (`npm test | tail`, `npm test; echo done`): `status-hidden`;
//! - today's extractor finds no error line in the summary, reading loose words such as
//!   "failed" only when the command (or, without a command, the stored category) is a
//!   validation one: `no-error-line`.
//!
//! An error without a stored command is judged by its summary alone.

use crate::domain::session::state::OpenError;
use crate::domain::shell::command::analyze;
use crate::domain::shell::extract::error_lines;

/// Why a stored open error would not be recorded today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FalsePositive {
    InspectionCommand,
    StatusHidden,
    NoErrorLine,
}

impl FalsePositive {
    /// A stable rule name, for JSON output and scripts.
    pub fn rule(self) -> &'static str {
        match self {
            FalsePositive::InspectionCommand => "inspection-command",
            FalsePositive::StatusHidden => "status-hidden",
            FalsePositive::NoErrorLine => "no-error-line",
        }
    }

    /// One sentence for people.
    pub fn reason(self) -> &'static str {
        match self {
            FalsePositive::InspectionCommand => {
                "recorded from a command that only inspects or sets up (git, cat, grep, ls …)"
            }
            FalsePositive::StatusHidden => {
                "the exit status came from a filter or a later command, not from the check"
            }
            FalsePositive::NoErrorLine => "today's extractor finds no error line in it",
        }
    }
}

/// The stored summary joins error lines with " | "; the TypeScript plugin joined them with
/// newlines. Either way, these are the lines the extractor is asked about again.
const SUMMARY_SEPARATOR: &str = " | ";

pub fn judge(error: &OpenError) -> Option<FalsePositive> {
    let validation = match error.command.as_deref().map(str::trim) {
        Some(command) if !command.is_empty() => {
            let analysis = analyze(command);
            if analysis.segments.is_empty() {
                return Some(FalsePositive::InspectionCommand);
            }
            if !analysis.status_reliable {
                return Some(FalsePositive::StatusHidden);
            }
            analysis.segments.iter().any(|c| c.is_validation())
        }
        _ => error.category.is_validation(),
    };
    let lines = error.summary.replace(SUMMARY_SEPARATOR, "\n");
    if error_lines(&lines, validation).is_empty() {
        return Some(FalsePositive::NoErrorLine);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::session::open_errors::{apply_bash, BashRun};
    use crate::domain::session::state::ErrorStatus;
    use crate::domain::shell::command::Category;
    use serde_json::Map;

    fn stored(category: Category, command: Option<&str>, summary: &str) -> OpenError {
        OpenError {
            id: "err_000000000000".into(),
            category,
            summary: summary.into(),
            command: command.map(String::from),
            file: None,
            fingerprint: "000000000000".into(),
            status: ErrorStatus::Open,
            first_seen: 0,
            last_seen: 0,
            seen_count: 1,
            extra: Map::new(),
        }
    }

    /// What ocmem itself records from a real failure must pass its own judgement.
    fn recorded(command: &str, output: &str, exit: i64) -> OpenError {
        let mut errors = Vec::new();
        apply_bash(
            &mut errors,
            BashRun {
                command,
                output,
                exit: Some(exit),
            },
            0,
        );
        assert_eq!(errors.len(), 1, "{command} should record one error");
        errors.remove(0)
    }

    #[test]
    fn real_failures_recorded_today_are_kept() {
        let tsc = recorded(
            "npm run typecheck",
            "> demo@1.0.0 typecheck\n> tsc --noEmit\n\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n",
            2,
        );
        assert_eq!(judge(&tsc), None);
        let cargo = recorded(
            "cargo build",
            "   Compiling demo v0.1.0\nerror[E0308]: mismatched types\n --> src/main.rs:4:18\n  |\n4 |     let x: u32 = \"a\";\n",
            101,
        );
        assert_eq!(judge(&cargo), None);
        let test = recorded(
            "npm test",
            "not ok 1 - adds numbers\n  AssertionError [ERR_ASSERTION]: 3 == 4\n# fail 1\n",
            1,
        );
        assert_eq!(judge(&test), None);
        let crash = recorded(
            "node server.js",
            "node:internal\nTypeError: Cannot read properties of undefined (reading 'x')\n",
            1,
        );
        assert_eq!(judge(&crash), None);
    }

    #[test]
    fn errors_from_inspection_commands_are_false() {
        for command in [
            "git log --oneline -5",
            "cat test.log",
            "grep -rn error src/",
            "ls build/",
            "cd web && git status",
        ] {
            let error = stored(Category::Test, Some(command), "Error: 3 tests failed");
            assert_eq!(
                judge(&error),
                Some(FalsePositive::InspectionCommand),
                "{command}"
            );
        }
    }

    #[test]
    fn a_status_hidden_by_a_filter_is_false() {
        let error = stored(
            Category::Test,
            Some("npm test | tail -5"),
            "Error: expected 3 to equal 4",
        );
        assert_eq!(judge(&error), Some(FalsePositive::StatusHidden));
    }

    #[test]
    fn summaries_without_error_lines_are_false() {
        // What the TypeScript plugin stored for an HTTP check that printed `status: 200`.
        let error = stored(
            Category::Runtime,
            Some("curl -si localhost:3000/health"),
            "HTTP/1.1 200 OK | status: 200",
        );
        assert_eq!(judge(&error), Some(FalsePositive::NoErrorLine));
        // A loose word counts only for validation commands.
        let runtime = stored(
            Category::Runtime,
            Some("node scripts/report.js"),
            "2 uploads failed, retrying",
        );
        assert_eq!(judge(&runtime), Some(FalsePositive::NoErrorLine));
        let validation = stored(
            Category::Test,
            Some("npm test"),
            "FAIL src/sum.test.ts | 1 failed",
        );
        assert_eq!(judge(&validation), None);
    }

    #[test]
    fn without_a_command_the_summary_and_category_decide() {
        let newline_joined = stored(
            Category::Typecheck,
            None,
            "src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error.",
        );
        assert_eq!(judge(&newline_joined), None);
        let noise = stored(Category::Build, None, "Compiling 3 files");
        assert_eq!(judge(&noise), Some(FalsePositive::NoErrorLine));
        let blank_command = stored(
            Category::Runtime,
            Some("  "),
            "Traceback (most recent call last):",
        );
        assert_eq!(judge(&blank_command), None);
    }

    #[test]
    fn rule_names_are_distinct() {
        let all = [
            FalsePositive::InspectionCommand,
            FalsePositive::StatusHidden,
            FalsePositive::NoErrorLine,
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.rule(), b.rule());
                assert_ne!(a.reason(), b.reason());
            }
        }
    }
}
