//! Clearing open errors by scope: the sequences of `tests/fixtures/scope/sequences.txt` (a list
//! of runs with their outputs and exit statuses, and the open errors after each; format in the
//! fixture's README), and a property: a passing run never clears an error recorded by a command
//! it does not cover.

use std::collections::BTreeSet;

use ocmem::domain::session::open_errors::{apply_bash, mark_maybe_fixed, BashRun};
use ocmem::domain::session::state::{ErrorStatus, OpenError};
use proptest::prelude::*;

const SEQUENCES: &str = include_str!("fixtures/scope/sequences.txt");
/// The directory the sequences' commands run in, for `edit` steps.
const BASE: &str = "/repo";

enum Step {
    Run {
        command: String,
        output: String,
        exit: Option<i64>,
    },
    Edit(String),
}

/// One step and the open errors expected after it: `(status, category, command)`.
struct Checked {
    line: usize,
    step: Step,
    expected: BTreeSet<(String, String, String)>,
}

struct Sequence {
    title: String,
    steps: Vec<Checked>,
}

fn parse(text: &str) -> Vec<Sequence> {
    let mut sequences: Vec<Sequence> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let fail = |why: &str| -> ! { panic!("sequences.txt:{number}: {why}: {line}") };
        if line.trim().is_empty() || line.starts_with("# ") || line == "#" {
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            sequences.push(Sequence {
                title: title.to_string(),
                steps: Vec::new(),
            });
            continue;
        }
        let Some(sequence) = sequences.last_mut() else {
            fail("a step before any `## title`")
        };
        if let Some(command) = line.strip_prefix("$ ") {
            sequence.steps.push(Checked {
                line: number,
                step: Step::Run {
                    command: command.to_string(),
                    output: String::new(),
                    exit: None,
                },
                expected: BTreeSet::new(),
            });
        } else if let Some(path) = line.strip_prefix("edit ") {
            sequence.steps.push(Checked {
                line: number,
                step: Step::Edit(path.to_string()),
                expected: BTreeSet::new(),
            });
        } else if let Some(text) = line.strip_prefix("> ").or(line.strip_prefix(">")) {
            match sequence.steps.last_mut().map(|c| &mut c.step) {
                Some(Step::Run { output, .. }) => {
                    output.push_str(text);
                    output.push('\n');
                }
                _ => fail("output outside a run"),
            }
        } else if let Some(status) = line.strip_prefix("exit ") {
            match sequence.steps.last_mut().map(|c| &mut c.step) {
                Some(Step::Run { exit, .. }) => {
                    *exit = match status {
                        "unknown" => None,
                        n => Some(n.parse().unwrap_or_else(|_| fail("bad exit status"))),
                    }
                }
                _ => fail("exit outside a run"),
            }
        } else if line == "open none" {
            // Nothing open: the expected set stays empty.
        } else if let Some(rest) = line
            .strip_prefix("open ")
            .map(|r| ("open", r))
            .or(line.strip_prefix("maybe ").map(|r| ("maybe_fixed", r)))
            .map(|(status, rest)| (status, rest.split_once(' ')))
        {
            let (status, Some((category, command))) = rest else {
                fail("expected `open|maybe CATEGORY COMMAND`")
            };
            let Some(checked) = sequence.steps.last_mut() else {
                fail("expectation before any step")
            };
            checked.expected.insert((
                status.to_string(),
                category.to_string(),
                command.to_string(),
            ));
        } else {
            fail("unknown line");
        }
    }
    sequences
}

fn state(errors: &[OpenError]) -> BTreeSet<(String, String, String)> {
    errors
        .iter()
        .map(|e| {
            let status = match e.status {
                ErrorStatus::Open => "open",
                ErrorStatus::MaybeFixed => "maybe_fixed",
            };
            (
                status.to_string(),
                e.category.as_str().to_string(),
                e.command.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn every_sequence_leaves_exactly_the_expected_errors_open() {
    let sequences = parse(SEQUENCES);
    assert!(sequences.len() >= 30, "only {} sequences", sequences.len());
    for sequence in &sequences {
        assert!(!sequence.steps.is_empty(), "{}: no steps", sequence.title);
        let mut errors: Vec<OpenError> = Vec::new();
        for (time, checked) in sequence.steps.iter().enumerate() {
            let what = match &checked.step {
                Step::Run {
                    command,
                    output,
                    exit,
                } => {
                    let run = BashRun {
                        command,
                        output,
                        exit: *exit,
                    };
                    apply_bash(&mut errors, run, time as i64);
                    format!("$ {command} (exit {exit:?})")
                }
                Step::Edit(path) => {
                    mark_maybe_fixed(&mut errors, BASE, path);
                    format!("edit {path}")
                }
            };
            assert_eq!(
                state(&errors),
                checked.expected,
                "\n{} (sequences.txt:{}), after {what}",
                sequence.title,
                checked.line
            );
        }
    }
}

#[test]
fn the_fixture_format_is_checked() {
    // A run whose expectation is wrong must fail the comparison, not pass by accident.
    let text = "## wrong on purpose\n$ pytest tests/test_a.py\n> FAILED tests/test_a.py::test_add - assert 3 == 4\nexit 1\nopen none\n";
    let sequences = parse(text);
    let Step::Run {
        command,
        output,
        exit,
    } = &sequences[0].steps[0].step
    else {
        panic!("not a run")
    };
    let mut errors = Vec::new();
    apply_bash(
        &mut errors,
        BashRun {
            command,
            output,
            exit: *exit,
        },
        0,
    );
    assert_ne!(state(&errors), sequences[0].steps[0].expected);
}

// ─── Property: never clear what the run does not cover ─────────────────────────────────────

/// A failing run's output for each tool, so the error is recorded.
const FAILURES: &[(&str, &str)] = &[
    (
        "pytest",
        "FAILED tests/test_x.py::test_one - AssertionError: assert 1 == 2\n",
    ),
    (
        "rspec",
        "Failure/Error: expect(total).to eq(3)\n  expected: 3\n       got: 4\n",
    ),
    ("go test", "--- FAIL: TestParse (0.00s)\nFAIL\n"),
    (
        "eslint",
        "  3:7  error  'x' is assigned a value but never used  no-unused-vars\n",
    ),
    (
        "shellcheck",
        "deploy.sh:3:1: error: Couldn't parse this function. [SC1073]\n",
    ),
];

/// Places a scoped command can name: two sibling directories with two files each.
const DIRECTORIES: &[&str] = &["alpha", "beta"];
const FILES: &[&str] = &["one", "two"];

/// A scoped command of `tool` on one file, in the form the tool takes.
fn scoped(tool: &str, directory: &str, file: &str) -> String {
    match tool {
        "pytest" => format!("pytest tests/{directory}/test_{file}.py"),
        "rspec" => format!("bundle exec rspec spec/{directory}/{file}_spec.rb"),
        "go test" => format!("go test ./{directory}/{file}/..."),
        "eslint" => format!("npx eslint src/{directory}/{file}.ts"),
        "shellcheck" => format!("shellcheck scripts/{directory}/{file}.sh"),
        other => panic!("no scoped form for {other}"),
    }
}

/// A command of `tool` on a whole directory.
fn on_directory(tool: &str, directory: &str) -> String {
    match tool {
        "pytest" => format!("pytest tests/{directory}/"),
        "rspec" => format!("rspec spec/{directory}"),
        "go test" => format!("go test ./{directory}/..."),
        "eslint" => format!("pnpm exec eslint src/{directory}"),
        "shellcheck" => format!("shellcheck 'scripts/{directory}/*.sh'"),
        other => panic!("no directory form for {other}"),
    }
}

fn record(command: &str, output: &str) -> Vec<OpenError> {
    let mut errors = Vec::new();
    apply_bash(
        &mut errors,
        BashRun {
            command,
            output,
            exit: Some(1),
        },
        0,
    );
    assert_eq!(errors.len(), 1, "{command} recorded nothing");
    errors
}

fn passes(errors: &mut Vec<OpenError>, command: &str) {
    apply_bash(
        errors,
        BashRun {
            command,
            output: "",
            exit: Some(0),
        },
        1,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The failing and the passing command are built apart: another tool, or the same tool on
    /// another file or directory. The error stays open.
    #[test]
    fn a_run_never_clears_an_error_it_does_not_cover(
        failing_tool in 0..FAILURES.len(),
        passing_tool in 0..FAILURES.len(),
        failing_place in (0..DIRECTORIES.len(), 0..FILES.len()),
        passing_place in (0..DIRECTORIES.len(), 0..FILES.len()),
        passing_narrower in any::<bool>(),
    ) {
        let (tool, output) = FAILURES[failing_tool];
        let (other_tool, _) = FAILURES[passing_tool];
        prop_assume!(tool != other_tool || failing_place != passing_place);
        let failing = scoped(tool, DIRECTORIES[failing_place.0], FILES[failing_place.1]);
        let passing = if passing_narrower || tool != other_tool {
            scoped(other_tool, DIRECTORIES[passing_place.0], FILES[passing_place.1])
        } else {
            // The other directory as a whole: broader, but elsewhere.
            on_directory(other_tool, DIRECTORIES[1 - failing_place.0])
        };
        let mut errors = record(&failing, output);
        passes(&mut errors, &passing);
        prop_assert_eq!(errors.len(), 1, "`{}` cleared the error of `{}`", passing, failing);
    }

    /// The same tool unscoped, or on the failing file's directory, always clears it.
    #[test]
    fn a_run_clears_an_error_it_covers(
        tool in 0..FAILURES.len(),
        place in (0..DIRECTORIES.len(), 0..FILES.len()),
        whole_project in any::<bool>(),
    ) {
        let (name, output) = FAILURES[tool];
        let failing = scoped(name, DIRECTORIES[place.0], FILES[place.1]);
        let passing = match (name, whole_project) {
            ("pytest", true) => "python -m pytest".to_string(),
            ("rspec", true) => "rspec".to_string(),
            ("go test", true) => "go test ./...".to_string(),
            ("eslint", true) => "eslint .".to_string(),
            _ => on_directory(name, DIRECTORIES[place.0]),
        };
        let mut errors = record(&failing, output);
        passes(&mut errors, &passing);
        prop_assert!(errors.is_empty(), "`{}` left the error of `{}` open", passing, failing);
    }
}
