//! Open errors: recorded only from real command failures, cleared when they are fixed.
//!
//! - Unknown exit status (null, absent, not a number): nothing is recorded or cleared.
//! - A command with no effective segment (inspection such as `cat`, `git log`, `ls`, or setup
//!   such as `cd`, `touch`), or whose status belongs to a filter at the end of a pipeline,
//!   records and clears nothing: its status says nothing about the code.
//! - Exit 0 clears the errors its scope covers (see `scope`): those recorded from the same
//!   normalised command, from a narrower run of the same tool (`pytest` clears what `pytest
//!   tests/test_a.py` recorded, `go test ./...` what `go test ./pkg/...` did), or from a step
//!   it runs (`mvn verify` clears `mvn test`'s). Nothing else: `pytest tests/test_b.py` leaves
//!   `tests/test_a.py`'s failure open, `black --check` never clears flake8's, a typecheck never
//!   clears a test failure. An error stored without its command (by older writers) clears when
//!   a validation command of its category passes.
//! - Non-zero: one error per failing command, made of its error lines; it replaces what the
//!   same command recorded before, and the same failure seen again bumps `seenCount`.
//! - Editing or writing a file an error names marks the error `maybe_fixed`.

use serde_json::Map;

use crate::domain::base::paths::names_same_file;
use crate::domain::base::text::strip_invisible;
use crate::domain::guard::injection::{withheld_if_instructing, without_instructions};
use crate::domain::guard::secrets::scrub;
use crate::domain::session::state::{ErrorStatus, OpenError};
use crate::domain::shell::command::{analyze, failure_category};
use crate::domain::shell::coverage::{failed_scopes, run_covers, scopes};
use crate::domain::shell::extract::{
    bounded_output, error_lines, fingerprint, named_files, summarize,
};

pub const STORED: usize = 5;
pub const SHOWN: usize = 3;

/// One finished `bash` tool call.
#[derive(Debug, Clone, Copy)]
pub struct BashRun<'a> {
    pub command: &'a str,
    pub output: &'a str,
    pub exit: Option<i64>,
}

/// Ids of the errors a tool call touched.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ErrorChanges {
    pub added: Vec<String>,
    pub seen_again: Vec<String>,
    pub cleared: Vec<String>,
    pub maybe_fixed: Vec<String>,
}

impl ErrorChanges {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.seen_again.is_empty()
            && self.cleared.is_empty()
            && self.maybe_fixed.is_empty()
    }
}

pub fn apply_bash(errors: &mut Vec<OpenError>, run: BashRun, now_ms: i64) -> ErrorChanges {
    let mut changes = ErrorChanges::default();
    let Some(exit) = run.exit else {
        return changes;
    };
    // Secrets never reach the store, not even inside a command line; nor do invisible
    // characters, which could also split a secret past the scrubber.
    let command = scrub(&strip_invisible(run.command)).into_owned();
    let analysis = analyze(&command);
    if analysis.segments.is_empty() || !analysis.status_reliable {
        return changes;
    }
    let same_command = |e: &OpenError| {
        e.command
            .as_deref()
            .is_some_and(|c| analyze(c).normalized == analysis.normalized)
    };

    if exit == 0 {
        let run: Vec<_> = scopes(&command).into_iter().map(|(_, s)| s).collect();
        let covered = |e: &OpenError| match e.command.as_deref().map(str::trim) {
            Some(failed) if !failed.is_empty() => {
                run_covers(&run, &failed_scopes(failed, e.category))
            }
            _ => e.category.is_validation() && analysis.segments.contains(&e.category),
        };
        errors.retain(|e| {
            let fixed = same_command(e) || covered(e);
            if fixed {
                changes.cleared.push(e.id.clone());
            }
            !fixed
        });
        return changes;
    }

    let any_validation = analysis.segments.iter().any(|c| c.is_validation());
    let bounded = bounded_output(run.output);
    let output = strip_invisible(&bounded);
    let mut lines = error_lines(&output, any_validation);
    let Some(category) = failure_category(&analysis, &lines) else {
        return changes;
    };
    if any_validation && !category.is_validation() {
        // Loose words count only for validation commands.
        lines = error_lines(&output, false);
    }
    if lines.is_empty() {
        return changes;
    }
    // Each line before the summary cuts one to length, where a cut key is not recognised; the
    // summary, made of whole scrubbed lines and a cut, then holds no secret either.
    let lines: Vec<String> = lines.iter().map(|line| scrub(line).into_owned()).collect();
    let summary = withheld_if_instructing(summarize(&without_instructions(&lines)));
    let print = fingerprint(category, &summary);
    let id = format!("err_{print}");

    if let Some(existing) = errors.iter_mut().find(|e| e.fingerprint == print) {
        existing.seen_count += 1;
        existing.last_seen = now_ms;
        existing.status = ErrorStatus::Open;
        existing.summary = summary;
        existing.command = Some(command.to_string());
        changes.seen_again.push(existing.id.clone());
    } else {
        // The newest failure of a command is the current state of what it checks.
        errors.retain(|e| {
            let replaced = same_command(e);
            if replaced {
                changes.cleared.push(e.id.clone());
            }
            !replaced
        });
        errors.push(OpenError {
            id: id.clone(),
            category,
            file: named_files(&summary).into_iter().next(),
            summary,
            command: Some(command.to_string()),
            fingerprint: print,
            status: ErrorStatus::Open,
            first_seen: now_ms,
            last_seen: now_ms,
            seen_count: 1,
            extra: Map::new(),
        });
        changes.added.push(id.clone());
    }
    evict(errors, &id);
    changes
}

/// Keeps `STORED` errors: the maybe-fixed ones go first, then the oldest; never `keep_id`.
fn evict(errors: &mut Vec<OpenError>, keep_id: &str) {
    while errors.len() > STORED {
        let victim = errors
            .iter()
            .enumerate()
            .filter(|(_, e)| e.id != keep_id)
            .min_by_key(|(_, e)| (e.status == ErrorStatus::Open, e.last_seen))
            .map(|(i, _)| i);
        match victim {
            Some(i) => {
                errors.remove(i);
            }
            None => break,
        }
    }
}

/// Marks `maybe_fixed` the open errors that name the file at absolute path `edited`.
/// `base` is the directory the commands ran in.
pub fn mark_maybe_fixed(errors: &mut [OpenError], base: &str, edited: &str) -> Vec<String> {
    let mut marked = Vec::new();
    for error in errors.iter_mut().filter(|e| e.status == ErrorStatus::Open) {
        let names_it = error
            .file
            .iter()
            .cloned()
            .chain(named_files(&error.summary))
            .any(|named| names_same_file(base, &named, edited));
        if names_it {
            error.status = ErrorStatus::MaybeFixed;
            marked.push(error.id.clone());
        }
    }
    marked
}

/// The errors worth showing, best first: open before maybe-fixed, then the most recent.
pub fn shown(errors: &[OpenError]) -> Vec<&OpenError> {
    let mut order = ordered(errors);
    order.truncate(SHOWN);
    order
}

/// Every error, best first, in the order `shown` takes them.
pub fn ordered(errors: &[OpenError]) -> Vec<&OpenError> {
    let mut order: Vec<&OpenError> = errors.iter().collect();
    order.sort_by(|a, b| {
        (a.status != ErrorStatus::Open)
            .cmp(&(b.status != ErrorStatus::Open))
            .then(b.last_seen.cmp(&a.last_seen))
            .then_with(|| a.id.cmp(&b.id))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::shell::command::Category;

    const TSC_OUT: &str = "\n> demo@1.0.0 typecheck\n> node check.js\n\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\nnpm notice\n";
    const TEST_OUT: &str = "\n> demo@1.0.0 test\n> node test.js\n\nnot ok 1 - adds numbers\n  AssertionError [ERR_ASSERTION]: 3 == 4\n# tests 1\n# fail 1\n";

    fn run<'a>(command: &'a str, output: &'a str, exit: Option<i64>) -> BashRun<'a> {
        BashRun {
            command,
            output,
            exit,
        }
    }

    #[test]
    fn failing_typecheck_records_one_error() {
        let mut errors = Vec::new();
        let changes = apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        assert_eq!(errors.len(), 1);
        assert_eq!(changes.added, [errors[0].id.clone()]);
        assert_eq!(errors[0].category, Category::Typecheck);
        assert!(errors[0].summary.contains("TS2345"));
        assert!(!errors[0].summary.contains("npm notice"));
        assert_eq!(errors[0].file.as_deref(), Some("src/index.ts"));
        assert_eq!(errors[0].id, format!("err_{}", errors[0].fingerprint));
    }

    #[test]
    fn unknown_status_records_and_clears_nothing() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, None), 1);
        assert!(errors.is_empty());
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        let changes = apply_bash(&mut errors, run("npm run typecheck", "", None), 2);
        assert!(changes.is_empty());
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn a_passing_run_clears_what_its_scope_covers_only() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npx tsc --noEmit", TSC_OUT, Some(2)), 1);
        apply_bash(&mut errors, run("npm test -- adds", TEST_OUT, Some(1)), 2);
        assert_eq!(errors.len(), 2);
        // Another spelling of the typecheck's tool clears it; the test failure stays.
        let changes = apply_bash(
            &mut errors,
            run("touch fixed && tsc --noEmit", "", Some(0)),
            3,
        );
        assert_eq!(changes.cleared.len(), 1);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].category, Category::Test);
        // A narrower run of another part clears nothing; the unscoped form clears it.
        let changes = apply_bash(&mut errors, run("npm test -- subtracts", "", Some(0)), 4);
        assert!(changes.is_empty());
        let changes = apply_bash(&mut errors, run("npm test", "", Some(0)), 5);
        assert_eq!(changes.cleared.len(), 1);
        assert!(errors.is_empty());
    }

    #[test]
    fn another_validation_of_the_same_category_does_not_clear() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        // Nothing on the command line says the script runs tsc.
        let changes = apply_bash(&mut errors, run("npx tsc --noEmit", "", Some(0)), 2);
        assert!(changes.is_empty());
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn an_error_stored_without_its_command_clears_by_category() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        apply_bash(&mut errors, run("npm test", TEST_OUT, Some(1)), 2);
        for error in &mut errors {
            error.command = None;
        }
        let changes = apply_bash(&mut errors, run("npx tsc --noEmit", "", Some(0)), 3);
        assert_eq!(changes.cleared.len(), 1);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].category, Category::Test);
    }

    #[test]
    fn inspection_commands_clear_nothing() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm test", TEST_OUT, Some(1)), 1);
        apply_bash(
            &mut errors,
            run(
                "cargo build",
                "error[E0308]: mismatched types\n --> src/main.rs:2:5\n",
                Some(101),
            ),
            2,
        );
        for command in [
            "ls build/",
            "cat test.log",
            "git commit -m \"fix test\"",
            "git log --oneline -5",
        ] {
            let changes = apply_bash(&mut errors, run(command, "", Some(0)), 3);
            assert!(changes.is_empty(), "{command}");
        }
        assert_eq!(errors.len(), 2);
    }

    #[test]
    fn runtime_errors_clear_when_the_same_command_succeeds() {
        let mut errors = Vec::new();
        let out = "Error: Cannot find module './config'\n    at Module._resolveFilename (node:internal/modules:1:2)\n";
        apply_bash(&mut errors, run("node scripts/migrate.js", out, Some(1)), 1);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].category, Category::Runtime);
        apply_bash(&mut errors, run("node scripts/other.js", "", Some(0)), 2);
        assert_eq!(errors.len(), 1);
        apply_bash(&mut errors, run("npm test", "", Some(0)), 3);
        assert_eq!(errors.len(), 1);
        apply_bash(
            &mut errors,
            run("cd . && node scripts/migrate.js", "", Some(0)),
            4,
        );
        assert!(errors.is_empty());
    }

    #[test]
    fn the_same_failure_again_bumps_seen_count() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        let moved = TSC_OUT.replace("(10,3)", "(12,7)");
        let changes = apply_bash(&mut errors, run("npm run typecheck", &moved, Some(2)), 5);
        assert_eq!(errors.len(), 1);
        assert_eq!(changes.seen_again.len(), 1);
        assert_eq!(errors[0].seen_count, 2);
        assert_eq!(errors[0].first_seen, 1);
        assert_eq!(errors[0].last_seen, 5);
    }

    #[test]
    fn a_new_failure_of_the_same_command_replaces_the_old_one() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        let other =
            "src/b.ts(1,1): error TS2322: Type 'number' is not assignable to type 'string'.\n";
        let changes = apply_bash(&mut errors, run("npm run typecheck", other, Some(2)), 2);
        assert_eq!(errors.len(), 1);
        assert_eq!(changes.cleared.len(), 1);
        assert!(errors[0].summary.contains("TS2322"));
    }

    #[test]
    fn failures_without_error_lines_record_nothing() {
        let mut errors = Vec::new();
        apply_bash(
            &mut errors,
            run("node app.js", "something went sideways\n", Some(1)),
            1,
        );
        apply_bash(
            &mut errors,
            run(
                "cat nonexistent.json",
                "cat: nonexistent.json: No such file or directory\n",
                Some(1),
            ),
            1,
        );
        assert!(errors.is_empty());
    }

    #[test]
    fn a_status_line_in_the_output_is_not_an_exit_status() {
        let mut errors = Vec::new();
        apply_bash(
            &mut errors,
            run(
                "curl -s localhost/health",
                "status: 200\nError: nothing\n",
                Some(0),
            ),
            1,
        );
        assert!(errors.is_empty());
    }

    #[test]
    fn editing_a_named_file_marks_maybe_fixed() {
        let mut errors = Vec::new();
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 1);
        apply_bash(&mut errors, run("npm test", TEST_OUT, Some(1)), 2);
        assert!(mark_maybe_fixed(&mut errors, "/repo", "/repo/src/other.ts").is_empty());
        let marked = mark_maybe_fixed(&mut errors, "/repo", "/repo/src/index.ts");
        assert_eq!(marked.len(), 1);
        let tsc = errors
            .iter()
            .find(|e| e.category == Category::Typecheck)
            .unwrap();
        assert_eq!(tsc.status, ErrorStatus::MaybeFixed);
        assert_eq!(shown(&errors)[0].category, Category::Test);
        // Failing again reopens it.
        apply_bash(&mut errors, run("npm run typecheck", TSC_OUT, Some(2)), 3);
        assert!(errors.iter().all(|e| e.status == ErrorStatus::Open));
    }

    #[test]
    fn at_most_five_are_kept_maybe_fixed_first_out() {
        let mut errors = Vec::new();
        for i in 0..7 {
            let command = format!("node job{i}.js");
            let output = format!(
                "Error: job {i} failed in stage {}\n",
                ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta"][i]
            );
            apply_bash(&mut errors, run(&command, &output, Some(1)), i as i64);
        }
        assert_eq!(errors.len(), STORED);
        assert!(errors.iter().all(|e| e.last_seen >= 2));
        assert_eq!(shown(&errors).len(), SHOWN);
        assert_eq!(shown(&errors)[0].last_seen, 6);
    }
}
