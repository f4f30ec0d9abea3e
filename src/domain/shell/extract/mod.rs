//! Which lines of a failed command's output are its errors, and the stable summary text and
//! fingerprint that recognise the same failure when it happens again.
//!
//! Every rule is in the tables at the top of this file; the code below them only applies them.
//! The tables, in the order they come:
//! - how much output is read (`OUTPUT_HEAD_BYTES`, `OUTPUT_TAIL_BYTES`) and kept;
//! - line rules: the words, starts and fragments that make a line an error line (`STRONG_*`,
//!   `VALIDATION_STARTS`, `LOOSE_ERROR_WORDS`, …), a warning (`*_SEVERITY_*`), a runner's
//!   report (`RUNNER_REPORT_*`) or noise (`NOISE_*`, `COUNT_*`, `BARE_MARKERS`, …);
//! - the shapes of tools' lines, by tool: pytest, Python, rustc, JUnit, TAP, mocha, shellcheck,
//!   RuboCop, Ruby, the shell, JavaScript and Java stack frames;
//! - failure reports: the headings, sections and details of a runner's closing report
//!   (`FAILURE_HEADING_STARTS`, `REPORT_SECTION_HEADINGS`, `DETAILS_*`, Gradle, CTest,
//!   valgrind), and the native and script errors (`NATIVE_AND_SCRIPT_ERROR_*`, `SIGNAL_REPORTS`);
//! - masking: what in a summary changes from one run to the next (`TEMP_DIRECTORIES`,
//!   `DURATION_UNITS`).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

mod prefilter;

use aho_corasick::AhoCorasick;
use sha2::{Digest, Sha256};

use crate::domain::shell::command::{mentions_typescript_error, Category};

const MAX_ERROR_LINES: usize = 5;
const MAX_SUMMARY_CHARS: usize = 280;
const SUMMARY_SEPARATOR: &str = " | ";

// ─── How much output is read ─────────────────────────────────────────────────────────────────
// A failing command's errors are at the end of its output (compilers and test runners close
// with the failures and a count) or, when it stops early, at the start; the summary keeps at
// most 5 lines of at most 280 chars. So only the first and last 64 KiB are read: about 800
// lines of 80 chars each way, more than any failure report, while a 20 MB log costs what a
// 128 KiB one does.

/// Bytes read from the start of a command's output.
pub const OUTPUT_HEAD_BYTES: usize = 64 * 1024;
/// Bytes read from the end of a command's output.
pub const OUTPUT_TAIL_BYTES: usize = 64 * 1024;

// ─── Line rules ──────────────────────────────────────────────────────────────────────────────
// A line is an error line when it is not noise and carries a strong signal (any command), or a
// validation signal (only when the failing command validates code: tests, lint, typecheck,
// build). The strong and validation signals are spelled out in `is_strong_error` and
// `is_validation_error`; the tables below hold their word lists.

/// Whole words (case-insensitive) that make a line an error line only for validation
/// commands: a web server logging "0 errors" or "request failed" is not a failure of the run.
const LOOSE_ERROR_WORDS: &[&str] = &[
    "error",
    "errors",
    "failed",
    "failure",
    "failures",
    "exception",
    "exceptions",
];

/// Lowercase line starts that are never errors: package-manager chatter, compiler hints,
/// Python's text between chained tracebacks.
const NOISE_PREFIXES: &[&str] = &[
    "npm notice",
    "npm warn",
    "npm http",
    "npm timing",
    "npm info",
    "npm verb",
    "for more information about this error",
    "during handling of the above exception",
    "the above exception was the direct cause",
];

/// Lowercase fragments of lines that are never errors.
const NOISE_FRAGMENTS: &[&str] = &["complete log of this run", "aborting due to"];

/// Words of count-only summaries (`# fail 1`, `Tests: 1 failed, 2 total`, `Found 0 errors`,
/// `✖ 3 problems (3 errors, 0 warnings)`, `1 failed, 2 passed in 0.12s`): a line made only of
/// these and numbers (or "no") repeats what the error lines already say.
const COUNT_WORDS: &[&str] = &[
    "error",
    "errors",
    "errored",
    "fail",
    "failed",
    "failing",
    "failure",
    "failures",
    "pass",
    "passed",
    "passing",
    "passes",
    "ok",
    "result",
    "success",
    "succeeded",
    "test",
    "tests",
    "suite",
    "suites",
    "file",
    "files",
    "source",
    "spec",
    "specs",
    "example",
    "examples",
    "assertions",
    "snapshot",
    "snapshots",
    "skip",
    "skipped",
    "pending",
    "todo",
    "cancelled",
    "ignored",
    "measured",
    "filtered",
    "out",
    "total",
    "warning",
    "warnings",
    "problem",
    "problems",
    "found",
    "in",
    "of",
    "and",
    "with",
    "the",
    "same",
    "checked",
    "ran",
    "finished",
    "generated",
    "collected",
    "selected",
    "deselected",
    "xfailed",
    "xpassed",
    "time",
    "duration",
    "duration_ms",
    "watching",
    "for",
    "change",
    "changes",
    "there",
    "was",
    "were",
    "containers",
    "started",
    "aborted",
    "successful",
    "item",
    "items",
];

/// Lowercase starts and fragments of lines in which a runner reports that its child failed
/// (`npm error code 1`, `make: *** [test] Error 1`, ` ELIFECYCLE  Command failed with exit
/// code 1.`). They are kept apart and used only when no other line explains the failure.
const RUNNER_REPORT_PREFIXES: &[&str] = &[
    "npm err",
    "npm error",
    "err_pnpm_",
    "make: ***",
    "error: recipe",
    "error command failed",
];
const RUNNER_REPORT_FRAGMENTS: &[&str] = &[
    "elifecycle",
    "exit code",
    "exit status",
    "exited with",
    "]: ***",
];

/// Glyphs of progress bars (`████░░░░ 50%`).
const PROGRESS_GLYPHS: &[char] = &['█', '▓', '▒', '░', '■', '□', '▰', '▱', '⣿', '━'];

/// Starts of the line on which a test runner reports one failed test by name (node's spec
/// reporter `✖ adds (1.2ms)`, bun's `(fail) cart > adds [0.2ms]`, `go test`'s `--- FAIL:
/// TestX (0.00s)`).
const TEST_FAILED_STARTS: &[&str] = &["✖ ", "✗ ", "✘ ", "(fail) ", "--- FAIL"];
/// Words that start the line on which a runner reports a failed test or file, before a space, a
/// tab or `:` (`FAIL src/a.test.ts`, `FAIL: test_x (…)`, `FAILED tests/x.py::t - …`).
const TEST_FAILURE_WORDS: &[&str] = &["FAIL", "FAILED"];
/// Starts of the line on which a test runner reports one passed or skipped test: never an
/// error line, even when the test's name says "error".
const TEST_PASSED_STARTS: &[&str] = &[
    "✔ ", "✓ ", "√ ", "﹣ ", "(pass) ", "(skip) ", "(todo) ", "PASSED ", "PASS ",
];
/// Runners that print a test's result after the test's own output: when such a pass line
/// comes, whatever the passing test logged (an exception it caught) is dropped.
const PASSED_AFTER_OUTPUT_STARTS: &[&str] = &["(pass) "];
const FAILED_AFTER_OUTPUT_STARTS: &[&str] = &["(fail) "];

/// Lines that open and close what a test printed while it ran (deno): never the failure, which
/// the runner reports apart.
const CAPTURED_OUTPUT_BLOCKS: &[(&str, &str)] = &[
    ("------- output -------", "----- output end -----"),
    (
        "------- post-test output -------",
        "----- post-test output end -----",
    ),
];

/// Line starts that make a line an error line for any command.
const STRONG_STARTS: &[&str] = &[
    "error:",
    "error[",
    "ERROR:",
    "ERROR ",
    "panic:",
    "Exception in thread",
];

/// Line starts, in any case, that make a line an error line for any command (`npm error …`,
/// `npm ERROR …`).
const STRONG_STARTS_ANY_CASE: &[&str] = &["npm error"];

/// Fragments that make a line an error line for any command.
const STRONG_FRAGMENTS: [&str; 6] = [
    "ERR!",
    "panicked at",
    ": error:",
    "fatal error:",
    "command not found",
    "Segmentation fault",
];

/// Line starts that make a line an error line in a validation command's output.
const VALIDATION_STARTS: &[&str] = &[
    "● ",
    "Expected:",
    "Received:",
    "unformatted:",
    "invalid-syntax:",
];

/// Starts of the line on which a formatter in check mode names a file it would change
/// (prettier `[warn] src/a.js`, black `would reformat a.py`, `cargo fmt` `Diff in
/// /x/src/main.rs:1:`, deno fmt `from /x/a.ts:`): the rest of the line is the path.
const UNFORMATTED_FILE_STARTS: &[&str] = &[
    "[warn] ",
    "would reformat ",
    "Would reformat: ",
    "Diff in ",
    "from ",
    "+++ ",
];

/// Fragments of a dependency that cannot be resolved (Go modules, pip, uv), for any command:
/// `go mod tidy` and `pip install` are no validation commands, yet their failure is real.
const UNRESOLVED_DEPENDENCY_FRAGMENTS: [&str; 7] = [
    "cannot find module providing package",
    "module lookup disabled",
    "missing go.sum entry",
    "no matching versions for query",
    "requirements are unsatisfiable",
    "No matching distribution found",
    "replacement directory",
];

/// Starts of the line on which a formatter names a file it would change only when the path
/// has a directory, since they start plenty of prose too (deno's `from /x/a.ts:`).
const UNFORMATTED_FILE_STARTS_WITH_DIRECTORY: &[&str] = &["from "];

/// Longest line appended to an exception whose message ends with `:` and goes on below it
/// (node's `AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:` / `6 !== 7`).
const MAX_MESSAGE_CONTINUATION_CHARS: usize = 120;

/// The end of an exception's name (`TypeError`, `requests.exceptions.HTTPError`,
/// `NullPointerException`), before `:` and its message.
const EXCEPTION_NAME_ENDS: &[&str] = &["Error", "Exception"];
/// What may come before an exception's name (`Uncaught TypeError: x`).
const EXCEPTION_PREFIXES: &[&str] = &["Uncaught "];

/// Lowercase words that say a line is below error (`warning: unused`, `5:1 warning …`, mypy's
/// `a.py:3: note: …`)…
const MINOR_SEVERITY_WORDS: &[&str] = &["warning", "warnings", "warn", "note", "info", "hint"];
/// …and those that say it is an error (`TypeError: warning is undefined`), with the words that
/// end like an exception's name (`ERROR_SEVERITY_ENDS`). The first of either in a line decides.
const ERROR_SEVERITY_WORDS: &[&str] = &[
    "error",
    "errors",
    "err",
    "fatal",
    "fail",
    "failed",
    "failure",
    "panic",
    "panicked",
    "exception",
];
const ERROR_SEVERITY_ENDS: &[&str] = &["error", "exception"];

/// Markers with nothing after them, as their lowercase words (`FAIL`, `=== FAILURES ===`, `npm
/// ERR!`, `error: |-`): noise, whatever signal they carry. A line with no word at all is one.
const BARE_MARKERS: &[&[&str]] = &[
    &[],
    &["fail"],
    &["failed"],
    &["failure"],
    &["failures"],
    &["error"],
    &["errors"],
    &["err"],
    &["exception"],
    &["npm", "err"],
    &["npm", "error"],
];

/// Lowercase fragments of an assertion (`3 == 4`), which is never a count summary.
const ASSERTION_OPERATORS: &[&str] = &[" == ", " != "];
/// Words that open a count whatever follows it, when a number (or "no") comes next (tsc, mypy,
/// ruff: `Found 2 errors in the same file, starting at: src/a.ts:10`).
const COUNT_OPENING_WORDS: &[&str] = &["found"];
/// The word that counts as the number 0 in a count (`no tests ran`).
const NO_COUNT: &str = "no";
/// Units glued to a number in a count (`45ms`, `1.5s`); "" is a bare number.
const COUNT_NUMBER_UNITS: &[&str] = &["", "ms", "s", "m", "h"];

/// What fills a progress bar drawn in ASCII (`[=====>    ] 45%`, `[###   ] 30%`).
const PROGRESS_BAR_FILLS: &[&str] = &["===", "###"];

// ─── Shapes of tools' lines ──────────────────────────────────────────────────────────────────
// The marks by which the line rules and `error_lines` recognise one tool's lines. The shape
// around a mark (digits, a path, indentation) is read by the function named beside it.

/// pytest: its sections (`=== FAILURES ===`, see `pytest_section`), of which `PASSES` holds
/// what passing tests logged; the failing test's title (`____ test_add ____`, see
/// `pytest_test_title`); its frames (`/venv/lib/flask/app.py:902: in dispatch_request`, see
/// `is_pytest_frame`); its explanation lines (`E       assert 3 == 4`).
const PYTEST_SECTION_RULE: &str = "===";
const PYTEST_PASSES_SECTION: &str = "PASSES";
const PYTEST_TITLE_RULE: &str = "___";
const PYTEST_FRAME_FUNCTION: &str = ": in ";
const PYTEST_DETAIL_START: &str = "E ";

/// Python: the header of a traceback, whose indented frames end at the exception line.
const TRACEBACK_HEADER: &str = "Traceback (most recent call last):";
/// Python: what follows a path in a traceback's frame (`File "app/x.py", line 3`).
const PYTHON_FRAME_LINE: &str = "\", line ";

/// rustc and ruff: the location on the line under an error (`--> src/main.rs:4:5`).
const LOCATION_UNDER_ERROR_START: &str = "--> ";

/// The JUnit console launcher's `--details=flat`: a test on `Finished:` (its engine id from
/// ` ([` on dropped), then its failure on the next line, `=> Exception: …`.
const JUNIT_FINISHED_START: &str = "Finished:";
const JUNIT_ENGINE_ID_START: &str = " ([";
const JUNIT_FAILURE_START: &str = "=> Exception: ";

/// TAP: a result line, `not ok 3 - name` or `ok 2 - name`, then the test's number.
const TAP_FAILED_START: &str = "not ok ";
const TAP_PASSED_START: &str = "ok ";

/// mocha: its count of failed tests (`2 failing`), after which it lists them, each under a
/// numbered title (`1) cart`), like RSpec's and minitest's headings (`1) Calc adds`).
const MOCHA_FAILING_COUNT_END: &str = " failing";
const NUMBERED_TITLE_MARK: &str = ") ";

/// shellcheck: `In scripts/deploy.sh line 5:` above the findings in that file.
const LOCATED_HEADING_START: &str = "In ";
const LOCATED_HEADING_LINE: &str = " line ";

/// RuboCop's `--format simple`: `== style.rb ==` over rows `C:  1:  5: Naming/MethodName: …`,
/// which start with a severity letter.
const RUBOCOP_FILE_TITLE: (&str, &str) = ("== ", " ==");
const RUBOCOP_SEVERITIES: &[&str] = &["C", "W", "E", "F", "R"];

/// Ruby: a backtrace frame's method (`a.rb:4:in \`<main>'`), and the message after it in an
/// uncaught exception (`a.rb:2:in \`<main>': undefined method … (NoMethodError)`).
const RUBY_FRAME_METHOD: &str = ":in `";
const RUBY_MESSAGE_START: &str = "': ";

/// The shell's report of a program killed by a signal: `bash: line 1: 4242 Aborted ./app`.
const SHELL_LINE_MARK: &str = ": line ";

/// JavaScript and Java stack frames: `at f (/x.js:3:9)`, `at com.x.Y(Y.java:3)`.
const STACK_FRAME_START: &str = "at ";
/// Java frames as the JUnit console launcher prints them (`org.x.Y.z(Y.java:151)`,
/// `(Native Method)`): the file's extension before the line number, or the native mark.
const JAVA_FRAME_FILES: &[&str] = &[".java:", ".kt:"];
const NATIVE_FRAME: &str = "(Native Method)";

/// A step reported done: Django's `Applying auth.0007_…_error_messages... OK`, unittest's
/// `test_x (…) ... ok`, deno's `name ... ok (3ms)` and the `name ...` that starts it.
const STEP_STARTED_END: &str = " ...";
const STEP_PASSED_MARK: &str = "... ok";

// ─── Failure reports ─────────────────────────────────────────────────────────────────────────
// Test runners and checkers close with a report: one heading per failure (the test's name, the
// checker's finding) and, under it, what failed (the assertion, the exception, the source
// line). When a report is found, its lines are the error lines: the chatter before it (a
// passing test logging `Error: …`, a runner's closing count) says less.

/// Line starts of a whole-line failure heading (after indentation), and how its details are
/// read. Numbered headings are checked apart (`  1) Calc adds`, see `numbered_heading`).
const FAILURE_HEADING_STARTS: &[(&str, Details)] = &[
    // PHPUnit's `--testdox`: ` ✘ Total sums prices`, details on `│ ` lines
    ("✘ ", Details::UntilBlank),
    // JUnit console launcher: `JUnit Jupiter:InventoryTest:addsStock()`, then `=> exception`
    ("JUnit Jupiter:", Details::UntilBlank),
    ("JUnit Vintage:", Details::UntilBlank),
    // `CMake Error at CMakeLists.txt:3 (add_executable):`, the message indented below
    ("CMake Error", Details::UntilBlank),
];

/// Headings of a section whose indented rows each name one failure: Surefire's closing
/// results (after an optional `[ERROR]`), CTest's list of failed tests.
const REPORT_SECTION_HEADINGS: &[&str] = &[
    "Failures:",
    "Errors:",
    "Failed tests:",
    "Tests in error:",
    "The following tests FAILED:",
];

/// Line prefixes that Maven puts before every line of a section.
const LOG_LEVEL_PREFIXES: &[&str] = &["[ERROR]", "[WARNING]"];

/// Numbered headings whose text is only a kind: the test's name is on the next line
/// (minitest's `  1) Failure:` then `CalcTest#test_add [test/calc_test.rb:6]:`).
const NAMELESS_HEADINGS: &[&str] = &["Failure:", "Error:"];

/// Details lines read under one heading.
const MAX_DETAILS: usize = 3;

/// Lines under a heading that end its details: a diff, a separator, a section title.
const DETAILS_END_STARTS: &[&str] = &["--- ", "+++ ", "@@ ", "Call Stack", "Finished in "];

/// Lines under a heading that are skipped: matcher chatter and location-only lines.
const DETAILS_SKIPPED_STARTS: &[&str] = &["(compared using", "Diff:", "MethodSource [", "[...]"];

/// Valgrind's error kinds, after its `==PID== ` prefix.
const VALGRIND_ERRORS: &[&str] = &[
    "Invalid read",
    "Invalid write",
    "Invalid free",
    "Mismatched free",
    "Conditional jump or move depends on uninitialised",
    "Use of uninitialised value",
    "Syscall param",
    "Source and destination overlap",
    "Process terminating with default action",
];

/// Valgrind: the `==PID==` mark around its prefix, and a definite leak, anywhere in a line.
const VALGRIND_MARK: &str = "==";
const VALGRIND_DEFINITE_LEAK: &str = "are definitely lost in loss record";

/// Gradle: a failed test's heading, `CalcTest > adds() FAILED`.
const GRADLE_TEST_SEPARATOR: &str = " > ";
const GRADLE_FAILED_END: &str = " FAILED";

/// CTest: a failed test's heading holds all of these
/// (`1/2 Test #1: adds .........***Failed    0.01 sec`).
const CTEST_FAILURE_MARKS: &[&str] = &[" Test ", "***", "#"];

/// What a detail line may start with: PHPUnit's testdox draws its details behind `│`, the JUnit
/// console launcher behind `=>`.
const TESTDOX_DETAIL_MARK: char = '│';
const JUNIT_DETAIL_START: &str = "=> ";

/// Whole lines under a heading that end its details (a separator).
const DETAILS_END_LINES: &[&str] = &["--"];

/// Fragments that make a line an error line for any command: linkers, sanitizers, aborts,
/// PHP's fatal errors and Ruby's syntax errors.
const NATIVE_AND_SCRIPT_ERROR_FRAGMENTS: &[&str] = &[
    "undefined reference to",
    "ld: cannot find",
    "ERROR: AddressSanitizer:",
    "ERROR: LeakSanitizer:",
    "WARNING: ThreadSanitizer:",
    "SUMMARY: AddressSanitizer:",
    "SUMMARY: UndefinedBehaviorSanitizer:",
    "SUMMARY: ThreadSanitizer:",
    ": runtime error: ",
    "terminate called after throwing",
    ": Assertion `",
    "definitely lost in loss record",
    "PHP Fatal error:",
    "PHP Parse error:",
    ": syntax error, ",
];

/// Line starts that make a line an error line for any command.
const NATIVE_AND_SCRIPT_ERROR_STARTS: &[&str] = &["what():", "Fatal error: ", "Parse error: "];

/// What the shell prints when a program is killed by a signal (`bash: line 1: 42 Aborted
/// ./app`); `Segmentation fault` is a strong signal of its own.
const SIGNAL_REPORTS: &[&str] = &[
    "Aborted",
    "Killed",
    "Floating point exception",
    "Bus error",
    "Illegal instruction",
];

// ─── Masking ─────────────────────────────────────────────────────────────────────────────────
// What changes from one run of the same failure to the next, masked in a summary before its
// fingerprint is taken (see `mask_volatile`).

/// Prefixes of temporary directories (Unix and macOS), masked with the rest of their path.
const TEMP_DIRECTORIES: &[&str] = &[
    "/tmp/",
    "/var/tmp/",
    "/var/folders/",
    "/private/var/",
    "/private/tmp/",
];
/// The Windows temporary directory, inside a path (`C:\Users\me\AppData\Local\Temp\…`).
const WINDOWS_TEMP_DIRECTORY: &str = "appdata\\local\\temp";
/// Duration units, longest first so that `12ms` is not read as `12m` + `s`.
const DURATION_UNITS: &[&str] = &[
    "minutes", "seconds", "minute", "second", "mins", "secs", "min", "sec", "ms", "µs", "us", "ns",
    "s", "m", "h",
];

// ─── Public API ──────────────────────────────────────────────────────────────────────────────

/// What the extractor reads of `output`: all of it when it is short, else its whole lines
/// within the first `OUTPUT_HEAD_BYTES` and the last `OUTPUT_TAIL_BYTES`, one after the other.
pub fn bounded_output(output: &str) -> Cow<'_, str> {
    if output.len() <= OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES {
        return Cow::Borrowed(output);
    }
    let head = head_lines(output, OUTPUT_HEAD_BYTES);
    let tail = tail_lines(output, OUTPUT_TAIL_BYTES);
    Cow::Owned(format!("{head}\n{tail}"))
}

/// The whole lines of `text` within its first `bytes` bytes; the cut falls on a char boundary
/// when the first line alone is longer.
pub fn head_lines(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    match head.rfind('\n') {
        Some(newline) => &head[..newline],
        None => head,
    }
}

/// The whole lines of `text` within its last `bytes` bytes; the cut falls on a char boundary
/// when the last line alone is longer.
pub fn tail_lines(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let mut start = text.len() - bytes;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let tail = &text[start..];
    match tail.find('\n') {
        Some(newline) => &tail[newline + 1..],
        None => tail,
    }
}

/// Error lines of a failed command's output, in order, trimmed (inner runs of whitespace become
/// one space), deduplicated, at most 5. `validation` = the failing category is a validation one
/// (not Runtime). Lines in which a runner only reports its child's failure (`npm error …`,
/// `make: *** …`) are returned only when no other line was found.
pub fn error_lines(output: &str, validation: bool) -> Vec<String> {
    let mut scan = ErrorScan::new(validation);
    for raw_line in output.lines() {
        if scan.has_enough() {
            break;
        }
        scan.read(raw_line);
    }
    scan.finish()
}

/// Whether one line of output, read on its own, is an error line or a runner's report of a
/// failure (what `error_lines` picks from): the lines a pruned output must keep.
pub fn is_error_line(raw_line: &str) -> bool {
    let visible = visible_text(raw_line);
    matches!(
        line_signal(visible.trim(), true),
        Some(Signal::Primary | Signal::RunnerReport)
    )
}

/// `is_error_line` of each of `lines`, which are `output` cut by `str::lines`; the same answers,
/// for a fraction of the cost on a long output (see `prefilter::lines_that_may_signal`).
pub fn error_lines_of(output: &str, lines: &[&str]) -> Vec<bool> {
    prefilter::lines_that_may_signal(output, lines)
        .into_iter()
        .zip(lines)
        .map(|(may, line)| may && is_error_line(line))
        .collect()
}

/// One summary of at most 280 chars made of whole lines joined by " | "; a first line longer
/// than 280 is cut (at a word boundary when one is in its second half) and ends with "…".
/// Empty input → "".
pub fn summarize(lines: &[String]) -> String {
    let mut summary = String::new();
    let mut length = 0;
    for line in lines
        .iter()
        .map(|line| line.trim())
        .filter(|l| !l.is_empty())
    {
        let line_length = line.chars().count();
        if summary.is_empty() {
            if line_length > MAX_SUMMARY_CHARS {
                return cut_with_ellipsis(line, MAX_SUMMARY_CHARS);
            }
            summary.push_str(line);
            length = line_length;
        } else {
            length += SUMMARY_SEPARATOR.len() + line_length;
            if length > MAX_SUMMARY_CHARS {
                break;
            }
            summary.push_str(SUMMARY_SEPARATOR);
            summary.push_str(line);
        }
    }
    summary
}

/// Summary with volatile parts masked so a re-run of the same failure gives the same text.
/// Tried at each position, in this order: temporary paths (`/tmp/…`, `/var/folders/…`,
/// `/private/var/…`, `…\AppData\Local\Temp\…`) → `<tmp>`; then, at the start of a word only,
/// UUIDs → `<uuid>`, hex ids (`0x…`, or 7+ hex characters holding a digit and a letter) →
/// `<hex>`, durations (`12ms`, `1.5s`, `0.23 s`) → `<duration>`, and every other standalone
/// digit run → `N`. That last rule masks line and column numbers (`(10,3)`, `:10:5`, `line 10`)
/// and counts (`3 errors`, `# fail 1`) alike, while codes such as `TS2345`, `E0308`, `F401` or
/// `v20` survive: their digits are glued to a letter.
pub fn mask_volatile(summary: &str) -> String {
    let mut masked = String::with_capacity(summary.len());
    let mut rest = summary;
    let mut previous: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        match volatile_part(rest, previous) {
            Some((length, mask)) => {
                masked.push_str(mask);
                previous = rest[..length].chars().next_back();
                rest = &rest[length..];
            }
            None => {
                masked.push(c);
                previous = Some(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    masked
}

/// First 12 lowercase hex of sha256(category + ":" + masked summary).
pub fn fingerprint(category: Category, summary: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(category.as_str());
    hasher.update(":");
    hasher.update(mask_volatile(summary));
    let mut hex = String::with_capacity(12);
    for byte in &hasher.finalize()[..6] {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// Source file paths the text names, without their line/column suffix, deduplicated, in order:
/// `src/index.ts(10,3)`, `src/a.rs:3:5`, `--> src/main.rs:2:5`, `File "app/x.py", line 3`,
/// `at foo (/abs/bar.ts:10:5)`. A name counts when it has an extension and either a directory
/// or a line number, so `check.js` in `> node check.js`, `Object.is` or `demo@1.0.0` do not;
/// URLs do not either.
pub fn named_files(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut files: Vec<String> = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        if !is_path_byte(bytes[index]) {
            index += 1;
            continue;
        }
        let start = index;
        while index < bytes.len()
            && (is_path_byte(bytes[index]) || is_drive_colon(bytes, start, index))
        {
            index += 1;
        }
        let candidate = text[start..index].trim_end_matches('.');
        if let Some(path) = source_path(candidate, &text[..start], &text[index..]) {
            push_unique(&mut files, path.to_string());
        }
    }
    files
}

// ─── Reading an output ───────────────────────────────────────────────────────────────────────
// `error_lines` reads an output line by line. Each line goes through the steps of
// `ErrorScan::read` in turn: a step either takes the line (it is part of a report, a block to
// skip, the rest of an error line) or leaves it to the next; a line no step takes is kept or
// dropped by its own signal (`line_signal`).

/// The lines found so far, by kind; the first kind with a line is the answer (see `finish`).
#[derive(Default)]
struct Found {
    /// A runner's own failure report (see `read_report_line`).
    report: Vec<String>,
    /// Error lines.
    primary: Vec<String>,
    /// Warnings and notes: the failure only when nothing else is (shellcheck fails on them).
    minor: Vec<String>,
    /// Bare paths, as `prettier --list-different` prints them.
    listed_files: Vec<String>,
    /// A runner's one-line reports of its child's failure (`npm error code 1`).
    runner_reports: Vec<String>,
}

/// The reading of one output: what was found, and what the lines read so far opened.
#[derive(Default)]
struct ErrorScan {
    /// The failing command validates code (see `error_lines`).
    validation: bool,
    found: Found,

    // A runner's failure report.
    /// The failure heading whose details are being read.
    heading: Option<OpenHeading>,
    /// Inside a section whose rows each name a failure (Surefire's results).
    in_report_section: bool,
    /// mocha's `N failing` was read: its list of failures follows, read by the mocha steps.
    mocha_failures: bool,
    /// The JUnit console launcher's `Finished:` test, whose failure may be on the next line.
    finished_test: Option<String>,

    // Blocks whose lines are skipped.
    /// pytest's `=== PASSES ===` section (`-rA`): what passing tests logged.
    in_passes_section: bool,
    /// The line that closes the captured output being skipped (deno's `----- output end -----`).
    captured_output_end: Option<&'static str>,
    /// Under a pytest frame: the source lines it quotes (`    rv = self.handle(e)`).
    in_pytest_frame: bool,
    /// Inside a Python traceback: its frames are skipped until the exception line.
    in_traceback: bool,

    // Error lines that go on in the lines after them.
    /// `ZeroDivisionError:` waiting for its message on the next line.
    bare_exception: Option<String>,
    /// The last line was an error line: rustc and ruff put its location (`--> src/main.rs:4:5`)
    /// on the next one.
    after_error: bool,
    /// The last error line is an exception whose message goes on on the next line.
    message_continues: bool,
    /// mocha's `1) suite` whose title lines (`test name:`) follow, with its indentation.
    mocha_title: Option<(String, usize)>,
    /// The file that ESLint and stylelint name once, on a line of its own, above its `3:7 error
    /// …` rows: it is kept with the first row so that the summary names the file.
    file_heading: Option<String>,
    /// The same for warnings.
    minor_heading: Option<String>,

    // Runners that report a test after its output (bun's `(fail) name`).
    /// Where the current test's error lines start in `found.primary`.
    test_block_start: usize,
    /// Such a runner reported a failed test: a later pass line drops what its test logged.
    results_after_output: bool,
}

impl ErrorScan {
    fn new(validation: bool) -> ErrorScan {
        ErrorScan {
            validation,
            ..ErrorScan::default()
        }
    }

    /// Whether the lines still to come can no longer change the answer: past the first error
    /// lines, only a report still to come (Surefire's results close the log) can.
    fn has_enough(&self) -> bool {
        self.found.report.len() >= MAX_ERROR_LINES || self.primary_full() && !self.validation
    }

    /// Enough error lines were found, unless a runner that reports a test after its output may
    /// yet drop the lines read since that test started.
    fn primary_full(&self) -> bool {
        let found = self.found.primary.len();
        let block_open = self.results_after_output && self.test_block_start < found;
        found >= MAX_ERROR_LINES && !(block_open && found < 4 * MAX_ERROR_LINES)
    }

    /// One line of output, through the steps in order; the first that takes the line ends it.
    fn read(&mut self, raw_line: &str) {
        let visible = visible_text(raw_line);
        let line = visible.trim();
        let taken = self.takes_junit_failure(line)
            || self.takes_report_line(&visible, line)
            || self.skips_blank_or_surplus(line)
            || self.skips_pytest_section(line)
            || self.skips_captured_output(line)
            || self.skips_pytest_frame(&visible, line)
            || self.takes_bare_exception(line)
            || self.takes_traceback(&visible, line)
            || self.takes_pytest_test_title(line)
            || self.takes_location_under_error(line)
            || self.takes_message_continuation(line)
            || self.takes_mocha_title(&visible, line)
            || self.drops_passed_test_output(line);
        if !taken {
            self.keep_by_signal(line);
        }
    }

    /// The JUnit console launcher's `--details=flat` names a test on `Finished:` and puts its
    /// failure on the next line, `=> Exception: …`: the two go to the report.
    fn takes_junit_failure(&mut self, line: &str) -> bool {
        if let Some(failure) = line.strip_prefix(JUNIT_FAILURE_START) {
            if let Some(test) = self.finished_test.take() {
                push_unique(&mut self.found.report, test);
                push_unique(&mut self.found.report, collapse_whitespace(failure));
                return true;
            }
        }
        self.finished_test = line.strip_prefix(JUNIT_FINISHED_START).map(|test| {
            collapse_whitespace(test.split(JUNIT_ENGINE_ID_START).next().unwrap_or(test))
        });
        false
    }

    /// A line of a runner's failure report. mocha's list of failures (after its `N failing`
    /// count) is left to the mocha steps, which join each title and assertion across their
    /// lines.
    fn takes_report_line(&mut self, visible: &str, line: &str) -> bool {
        self.mocha_failures |= is_mocha_failing_count(line);
        (self.validation || self.heading.is_some())
            && !self.mocha_failures
            && read_report_line(
                visible,
                self.validation,
                &mut self.heading,
                &mut self.in_report_section,
                &mut self.found.report,
            )
    }

    /// A blank line, which ends what an error line opened; and, once enough error lines are
    /// found, every line the report steps did not take.
    fn skips_blank_or_surplus(&mut self, line: &str) -> bool {
        let skipped = line.is_empty() || self.primary_full();
        if skipped {
            self.after_error = false;
        }
        skipped
    }

    /// A pytest section header, which ends a traceback, and the whole `PASSES` section.
    fn skips_pytest_section(&mut self, line: &str) -> bool {
        if let Some(section) = pytest_section(line) {
            self.in_passes_section = section == PYTEST_PASSES_SECTION;
            self.in_traceback = false;
            return true;
        }
        self.in_passes_section
    }

    /// What a test printed while it ran (deno), from the line that opens it to the one that
    /// closes it.
    fn skips_captured_output(&mut self, line: &str) -> bool {
        if let Some((_, end)) = CAPTURED_OUTPUT_BLOCKS.iter().find(|(s, _)| line == *s) {
            self.captured_output_end = Some(end);
            return true;
        }
        let Some(end) = self.captured_output_end else {
            return false;
        };
        if line == end {
            self.captured_output_end = None;
        }
        true
    }

    /// A pytest frame and the indented source lines under it.
    fn skips_pytest_frame(&mut self, visible: &str, line: &str) -> bool {
        if is_pytest_frame(line) {
            self.in_pytest_frame = true;
            return true;
        }
        if self.in_pytest_frame && visible.starts_with(char::is_whitespace) {
            return true;
        }
        self.in_pytest_frame = false;
        false
    }

    /// `ZeroDivisionError:` alone on its line (RSpec, minitest), kept with the message on the
    /// next line.
    fn takes_bare_exception(&mut self, line: &str) -> bool {
        if let Some(exception) = self.bare_exception.take() {
            let error = format!("{exception} {}", collapse_whitespace(line));
            push_unique(&mut self.found.primary, error);
            return true;
        }
        if is_bare_exception(line) {
            self.bare_exception = Some(line.to_string());
            return true;
        }
        false
    }

    /// A Python traceback: its header and indented frames are skipped, the first line that is
    /// not indented is the exception, an error line.
    fn takes_traceback(&mut self, visible: &str, line: &str) -> bool {
        if self.in_traceback {
            if !visible.starts_with(char::is_whitespace) {
                self.in_traceback = false;
                push_unique(&mut self.found.primary, collapse_whitespace(line));
                self.after_error = true;
            }
            return true;
        }
        if line.starts_with(TRACEBACK_HEADER) {
            self.in_traceback = true;
            return true;
        }
        false
    }

    /// pytest's `____ test_add ____`: the failing test's name, an error line.
    fn takes_pytest_test_title(&mut self, line: &str) -> bool {
        if !self.validation {
            return false;
        }
        let Some(name) = pytest_test_title(line) else {
            return false;
        };
        push_unique(&mut self.found.primary, name.to_string());
        true
    }

    /// rustc's and ruff's `--> src/main.rs:4:5`, right under an error line.
    fn takes_location_under_error(&mut self, line: &str) -> bool {
        let location = self.after_error && line.starts_with(LOCATION_UNDER_ERROR_START);
        self.after_error = false;
        if location {
            push_unique(&mut self.found.primary, collapse_whitespace(line));
        }
        location
    }

    /// The rest of an exception's message, when the error line ended with `:` (node's
    /// `AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:` then `6 !== 7`):
    /// appended to it when it is short and no error line of its own.
    fn takes_message_continuation(&mut self, line: &str) -> bool {
        if !std::mem::take(&mut self.message_continues) {
            return false;
        }
        let plain = line_signal(line, self.validation).is_none() && !is_stack_frame(line);
        if !plain || line.chars().count() > MAX_MESSAGE_CONTINUATION_CHARS {
            return false;
        }
        if let Some(last) = self.found.primary.last_mut() {
            last.push(' ');
            last.push_str(&collapse_whitespace(line));
        }
        true
    }

    /// A line of a mocha failure's title (see `mocha_failure_title`); a complete title is an
    /// error line.
    fn takes_mocha_title(&mut self, visible: &str, line: &str) -> bool {
        if !self.validation {
            return false;
        }
        let indent = visible.len() - visible.trim_start().len();
        let signalled = self.mocha_title.is_some() && line_signal(line, self.validation).is_some();
        match mocha_failure_title(&mut self.mocha_title, line, indent, signalled) {
            MochaTitle::Complete(title) => {
                push_unique(&mut self.found.primary, title);
                true
            }
            MochaTitle::Pending => true,
            MochaTitle::Started | MochaTitle::None => false,
        }
    }

    /// A runner that reports a test after its output reports a pass: whatever the passing test
    /// logged (an exception it caught) is dropped.
    fn drops_passed_test_output(&mut self, line: &str) -> bool {
        let passed = PASSED_AFTER_OUTPUT_STARTS
            .iter()
            .any(|s| line.starts_with(s));
        if passed {
            self.found.primary.truncate(self.test_block_start);
        }
        passed
    }

    /// A line that no step took: kept by its signal, or remembered as the file heading of the
    /// findings below it.
    fn keep_by_signal(&mut self, line: &str) {
        let found = &mut self.found;
        match line_signal(line, self.validation) {
            Some(Signal::Primary) => {
                push_finding(&mut found.primary, &mut self.file_heading, line);
                self.after_error = true;
                self.message_continues = starts_with_exception(line) && line.ends_with(':');
                if FAILED_AFTER_OUTPUT_STARTS
                    .iter()
                    .any(|s| line.starts_with(s))
                {
                    self.test_block_start = found.primary.len();
                    self.results_after_output = true;
                }
            }
            Some(Signal::Minor) if found.minor.len() < MAX_ERROR_LINES => {
                push_finding(&mut found.minor, &mut self.minor_heading, line);
            }
            Some(Signal::Minor) => {}
            // Only the first few are ever used: a log of runner reports costs no more.
            Some(Signal::RunnerReport) if found.runner_reports.len() < MAX_ERROR_LINES => {
                push_unique(&mut found.runner_reports, collapse_whitespace(line));
            }
            Some(Signal::RunnerReport) => {}
            None if is_file_heading(line) || is_located_heading(line) => {
                self.file_heading = Some(line.to_string());
                self.minor_heading = Some(line.to_string());
                let listed = self.validation && is_file_heading(line);
                if listed && found.listed_files.len() < MAX_ERROR_LINES {
                    push_unique(&mut found.listed_files, line.to_string());
                }
            }
            None => {}
        }
    }

    /// The answer: a runner's own failure report first; then error lines, warnings, listed
    /// files, and the runner's one-line reports.
    fn finish(self) -> Vec<String> {
        let Found {
            report,
            mut primary,
            minor,
            listed_files,
            runner_reports,
        } = self.found;
        if self.in_traceback {
            // The output ended inside the traceback: its header is all there is.
            push_unique(&mut primary, TRACEBACK_HEADER.to_string());
        }
        let mut lines = [report, primary, minor, listed_files]
            .into_iter()
            .find(|lines| !lines.is_empty())
            .unwrap_or(runner_reports);
        lines.truncate(MAX_ERROR_LINES);
        lines
    }
}

/// Pushes the finding `line`, after the file heading above it when the line is a row listed
/// under its file (`3:7 error …`, shellcheck's `^-- SC2086`); the heading is used once.
fn push_finding(lines: &mut Vec<String>, file_heading: &mut Option<String>, line: &str) {
    if starts_with_position(line) || line.starts_with('^') {
        if let Some(file) = file_heading.take() {
            push_unique(lines, file);
        }
    }
    push_unique(lines, collapse_whitespace(line));
}

// ─── Line classification ─────────────────────────────────────────────────────────────────────

/// What an error line tells.
enum Signal {
    /// The failure itself.
    Primary,
    /// A runner saying that its child failed (`npm error code 1`): a fallback.
    RunnerReport,
    /// A finding below error (`warning: …`, `SC2086 (info)`): a fallback before runner reports.
    Minor,
}

fn line_signal(line: &str, validation: bool) -> Option<Signal> {
    // Most lines carry no signal: find that out first, and cheaply (see `prefilter`).
    if !prefilter::may_signal(line) {
        return None;
    }
    let signalled = is_strong_error(line) || validation && is_validation_error(line);
    if !signalled {
        return None;
    }
    let lower = line.to_ascii_lowercase();
    if is_noise(line, &lower) {
        let only_minor = has_minor_severity(&lower) && !is_noise_of_any_severity(line, &lower);
        return only_minor.then_some(Signal::Minor);
    }
    let runner_report = RUNNER_REPORT_PREFIXES.iter().any(|p| lower.starts_with(p))
        || RUNNER_REPORT_FRAGMENTS.iter().any(|f| lower.contains(f));
    Some(if runner_report {
        Signal::RunnerReport
    } else {
        Signal::Primary
    })
}

fn is_noise(line: &str, lower: &str) -> bool {
    is_noise_of_any_severity(line, lower) || has_minor_severity(lower)
}

fn is_noise_of_any_severity(line: &str, lower: &str) -> bool {
    NOISE_PREFIXES
        .iter()
        .any(|prefix| lower.starts_with(prefix))
        || NOISE_FRAGMENTS
            .iter()
            .any(|fragment| lower.contains(fragment))
        || is_stack_frame(lower)
        || is_backtrace_line(line)
        || is_bare_marker(lower)
        || is_heading(lower) && !names_unformatted_file(line)
        || is_count_summary(lower)
        || is_progress_bar(line)
        || TEST_PASSED_STARTS
            .iter()
            .any(|start| line.starts_with(start))
        || is_passed_tap_test(line)
        || is_code_excerpt(line)
        || is_pytest_frame(lower)
        || is_passed_step(lower)
}

/// Signals that count for any command.
fn is_strong_error(line: &str) -> bool {
    // One automaton for every fragment, built once: it reads the line once, where a search per
    // fragment (`str::contains` also sets one up each time) would read it 28 times.
    static FRAGMENT_SEARCH: LazyLock<AhoCorasick> = LazyLock::new(|| {
        let fragments = STRONG_FRAGMENTS
            .iter()
            .chain(&UNRESOLVED_DEPENDENCY_FRAGMENTS)
            .chain(NATIVE_AND_SCRIPT_ERROR_FRAGMENTS);
        AhoCorasick::new(fragments).expect("fixed fragments build an automaton")
    });
    mentions_typescript_error(line)
        || FRAGMENT_SEARCH.is_match(line)
        || STRONG_STARTS_ANY_CASE.iter().any(|start| {
            line.get(..start.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(start))
        })
        || STRONG_STARTS.iter().any(|start| line.starts_with(start))
        || starts_with_exception(line)
        || starts_with_test_failure(line)
        || is_native_or_script_error(line)
}

/// Signals that count only for validation commands.
fn is_validation_error(line: &str) -> bool {
    has_loose_error_word(line)
        || VALIDATION_STARTS.iter().any(|start| line.starts_with(start))
        // pytest's `E       assert 3 == 4`, but not its `E        +  where …` explanations
        || line.strip_prefix(PYTEST_DETAIL_START).is_some_and(|detail| {
            let detail = detail.trim_start();
            !detail.is_empty()
                && !detail.starts_with('+')
                && !detail.chars().all(|c| matches!(c, '^' | '~' | ' '))
        })
        || is_located_diagnostic(line)
        || starts_with_lint_code(line)
        || is_rubocop_simple_row(line)
        // shellcheck's `^-- SC2086 (info): …` under the code it points at
        || line.starts_with('^') && starts_with_lint_code(line.trim_start_matches(['^', '-', ' ']))
        || names_unformatted_file(line)
}

/// Whether a word of `line` (a run of ASCII letters and digits) is a loose error word, in
/// any case. Split as bytes, not chars: a non-ASCII char ends a word either way, and this runs
/// on every line of a failed command's output.
fn has_loose_error_word(line: &str) -> bool {
    line.as_bytes()
        .split(|b| !b.is_ascii_alphanumeric())
        .filter(|word| (5..=10).contains(&word.len()))
        .any(|word| {
            LOOSE_ERROR_WORDS
                .iter()
                .any(|loose| word.eq_ignore_ascii_case(loose.as_bytes()))
        })
}

/// `Error: x`, `TypeError: x`, `ModuleNotFoundError: x`, `requests.exceptions.HTTPError: x`,
/// `AssertionError [ERR_ASSERTION]: x`, `Uncaught Error: x`.
fn starts_with_exception(line: &str) -> bool {
    let line = EXCEPTION_PREFIXES
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix))
        .unwrap_or(line);
    let name_length = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
        .unwrap_or(line.len());
    let (name, rest) = line.split_at(name_length);
    if !is_exception_name(name) {
        return false;
    }
    let rest = match rest.strip_prefix(" [") {
        Some(code) => match code.find(']') {
            Some(end) => &code[end + 1..],
            None => return false,
        },
        None => rest,
    };
    rest.starts_with(':')
}

/// `TypeError`, `NullPointerException`: a name that ends like an exception's.
fn is_exception_name(name: &str) -> bool {
    EXCEPTION_NAME_ENDS.iter().any(|end| name.ends_with(end))
}

/// `FAIL src/a.test.ts`, `FAIL: test_x (…)`, `FAILED tests/x.py::t - …`, `not ok 3 - name`,
/// `--- FAIL: TestX (0.00s)`.
fn starts_with_test_failure(line: &str) -> bool {
    TEST_FAILURE_WORDS.iter().any(|marker| {
        line.strip_prefix(marker)
            .is_some_and(|rest| rest.starts_with([' ', '\t', ':']))
    }) || line
        .strip_prefix(TAP_FAILED_START)
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        || TEST_FAILED_STARTS
            .iter()
            .any(|start| line.starts_with(start))
}

/// `path/file.ext:LINE: message` or `path/file.ext:LINE:COL: message`, the shape of compiler,
/// linter and test diagnostics (gcc, mypy, flake8, go vet, `go test`'s `x_test.go:8: …`).
fn is_located_diagnostic(line: &str) -> bool {
    let Some((path, rest)) = line.split_once(':') else {
        return false;
    };
    let has_extension = path.rsplit_once('.').is_some_and(|(stem, extension)| {
        !stem.is_empty()
            && extension.starts_with(|c: char| c.is_ascii_alphabetic())
            && extension.chars().all(|c| c.is_ascii_alphanumeric())
    });
    if path.contains(' ') || !has_extension {
        return false;
    }
    let digits =
        |text: &str| text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let line_digits = digits(rest);
    if line_digits == 0 {
        return false;
    }
    let mut rest = &rest[line_digits..];
    if let Some(after_colon) = rest.strip_prefix(':') {
        let column_digits = digits(after_colon);
        if column_digits > 0 {
            rest = &after_colon[column_digits..];
        }
    }
    rest.strip_prefix(": ")
        .is_some_and(|message| !message.trim().is_empty())
}

/// Ruff's `F401 [*] \`os\` imported but unused`, pycodestyle's `E501 …`.
fn starts_with_lint_code(line: &str) -> bool {
    let letters = line.len()
        - line
            .trim_start_matches(|c: char| c.is_ascii_uppercase())
            .len();
    let rest = &line[letters..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    (1..=3).contains(&letters)
        && (3..=4).contains(&digits)
        && rest[digits..].starts_with([' ', ':'])
}

/// `3:7 error …`: a finding listed under its file.
fn starts_with_position(line: &str) -> bool {
    let Some((row, rest)) = line.split_once(':') else {
        return false;
    };
    let column = rest.split(char::is_whitespace).next().unwrap_or("");
    let is_number = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    is_number(row) && is_number(column)
}

/// A line that is only a file path (`/home/u/app/src/index.js`).
fn is_file_heading(line: &str) -> bool {
    !line.contains(char::is_whitespace)
        && line.contains(['/', '\\'])
        && named_files(line).first().map(String::as_str) == Some(line)
}

/// A formatter naming a file it would change: one of `UNFORMATTED_FILE_STARTS`, then a path
/// with an extension and nothing else but a `:LINE:` suffix. deno's `from …:` must be a path
/// with a directory, since "from" starts plenty of prose.
fn names_unformatted_file(line: &str) -> bool {
    UNFORMATTED_FILE_STARTS.iter().any(|start| {
        let Some(rest) = line.strip_prefix(start) else {
            return false;
        };
        let mut path = rest.trim_end_matches(':');
        while let Some((head, tail)) = path.rsplit_once(':') {
            if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
                break;
            }
            path = head;
        }
        let has_extension = path
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && ext.starts_with(char::is_alphabetic));
        let needs_directory = UNFORMATTED_FILE_STARTS_WITH_DIRECTORY.contains(start);
        !path.contains(char::is_whitespace)
            && has_extension
            && (!needs_directory || path.contains(['/', '\\']))
    })
}

/// shellcheck's `In scripts/deploy.sh line 5:` above the findings in that file.
fn is_located_heading(line: &str) -> bool {
    line.strip_prefix(LOCATED_HEADING_START)
        .and_then(|rest| rest.strip_suffix(':'))
        .and_then(|rest| rest.rsplit_once(LOCATED_HEADING_LINE))
        .is_some_and(|(path, number)| {
            !path.contains(' ') && !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
        })
}

/// TAP's `ok 2 - name`, a passed test.
fn is_passed_tap_test(line: &str) -> bool {
    line.strip_prefix(TAP_PASSED_START)
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// A line of source quoted under a diagnostic: `4 |   try { … console.error(e) }`.
fn is_code_excerpt(line: &str) -> bool {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0 && line[digits..].trim_start().starts_with('|')
}

/// A frame of pytest's traceback: `/venv/lib/flask/app.py:902: in dispatch_request`.
fn is_pytest_frame(lower: &str) -> bool {
    lower
        .split_once(PYTEST_FRAME_FUNCTION)
        .is_some_and(|(location, function)| {
            let line_number = location.rsplit_once(':').map_or("", |(_, n)| n);
            !line_number.is_empty()
                && line_number.bytes().all(|b| b.is_ascii_digit())
                && !function.is_empty()
                && !function.contains(char::is_whitespace)
        })
}

/// The name of a pytest section header (`=== FAILURES ===`, `=== PASSES ===`).
fn pytest_section(line: &str) -> Option<&str> {
    let name = line
        .strip_prefix(PYTEST_SECTION_RULE)?
        .strip_suffix(PYTEST_SECTION_RULE)?;
    let name = name.trim_matches('=').trim();
    (!name.is_empty() && !name.contains('=')).then_some(name)
}

/// The test named by pytest's `____ test_add ____` above its failure (or `____ ERROR
/// collecting tests/test_x.py ____`).
fn pytest_test_title(line: &str) -> Option<&str> {
    let name = line
        .strip_prefix(PYTEST_TITLE_RULE)?
        .strip_suffix(PYTEST_TITLE_RULE)?;
    let name = name.trim_matches('_').trim();
    (!name.is_empty()).then_some(name)
}

/// A step reported done: Django's `Applying auth.0007_…_error_messages... OK`, unittest's
/// `test_x (…) ... ok`, deno's `name ... ok (3ms)` and the `name ...` that starts it.
fn is_passed_step(lower: &str) -> bool {
    lower.ends_with(STEP_STARTED_END)
        || lower
            .rsplit_once(STEP_PASSED_MARK)
            .is_some_and(|(_, rest)| {
                let rest = rest.trim();
                rest.is_empty() || rest.starts_with('(')
            })
}

/// What a line does to mocha's failure title.
enum MochaTitle {
    None,
    /// The line may open a title (`1) cart`); it is read as any other line too.
    Started,
    /// The line was part of a title still being read.
    Pending,
    /// The title is complete: `1) cart adds two numbers:`.
    Complete(String),
}

/// mocha lists each failure as `1) suite` and, indented below, the rest of the title ending in
/// `:` (`     adds two numbers:`); a title without a suite is `1) adds two numbers:`. The
/// progress lines above (`  1) adds two numbers`, no colon) are followed by no such line, and
/// a line with an error signal (RSpec's `Failure/Error: …` under `1) Calc adds`) is no title.
fn mocha_failure_title(
    pending: &mut Option<(String, usize)>,
    line: &str,
    indent: usize,
    signalled: bool,
) -> MochaTitle {
    if let Some((title, title_indent)) = pending.take() {
        if indent > title_indent && !signalled && title.split(' ').count() < 24 {
            let title = format!("{title} {line}");
            if line.ends_with(':') {
                return MochaTitle::Complete(title);
            }
            *pending = Some((title, title_indent));
            return MochaTitle::Pending;
        }
    }
    let number = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if number == 0 || !line[number..].starts_with(NUMBERED_TITLE_MARK) {
        return MochaTitle::None;
    }
    if line.ends_with(':') {
        return MochaTitle::Complete(line.to_string());
    }
    *pending = Some((line.to_string(), indent));
    MochaTitle::Started
}

/// mocha's count of failed tests, `2 failing`, after which it lists them.
fn is_mocha_failing_count(line: &str) -> bool {
    line.strip_suffix(MOCHA_FAILING_COUNT_END)
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// JavaScript and Java stack frames: `at f (/x.js:3:9)`, `at com.x.Y(Y.java:3)`.
fn is_stack_frame(lower: &str) -> bool {
    lower.starts_with(STACK_FRAME_START) && (lower.contains('(') || lower.contains(':'))
}

/// The line's first severity word is below error (`warning: unused`, `5:1 warning …`,
/// `Warning: failed to fetch`, mypy's `a.py:3: note: …`), while `TypeError: warning is
/// undefined` is an error.
fn has_minor_severity(lower: &str) -> bool {
    for word in lower.split(|c: char| !c.is_ascii_alphabetic()) {
        if MINOR_SEVERITY_WORDS.contains(&word) {
            return true;
        }
        if ERROR_SEVERITY_WORDS.contains(&word)
            || ERROR_SEVERITY_ENDS.iter().any(|end| word.ends_with(end))
        {
            return false;
        }
    }
    false
}

/// A marker with nothing after it: `FAIL`, `=== FAILURES ===`, `npm ERR!`, `error: |-`.
fn is_bare_marker(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    BARE_MARKERS.contains(&words.as_slice())
}

/// A short title over a list: `Failed examples:`, `Failures:`, `Summary of failures:`.
fn is_heading(lower: &str) -> bool {
    lower.ends_with(':')
        && lower.split_whitespace().count() <= 3
        && !lower.contains(|c: char| c.is_ascii_digit())
}

fn is_count_summary(lower: &str) -> bool {
    // `3 == 4` is an assertion, not a count.
    if ASSERTION_OPERATORS
        .iter()
        .any(|operator| lower.contains(operator))
    {
        return false;
    }
    let mut words = lower.split_whitespace();
    let opens_count = words
        .next()
        .is_some_and(|word| COUNT_OPENING_WORDS.contains(&word));
    if opens_count && words.next().is_some_and(|w| w == NO_COUNT || is_number(w)) {
        return true;
    }
    let mut counted = false;
    let words = lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'));
    for word in words
        .map(|word| word.trim_matches('.'))
        .filter(|w| !w.is_empty())
    {
        if word == NO_COUNT || is_number(word) {
            counted = true;
        } else if !COUNT_WORDS.contains(&word) {
            return false;
        }
    }
    counted
}

/// `3`, `0.12`, `45ms`, `1.5s`.
fn is_number(word: &str) -> bool {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &word[digits.len()..];
    digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && COUNT_NUMBER_UNITS.contains(&unit)
}

fn is_progress_bar(line: &str) -> bool {
    let mut run = 0;
    for c in line.chars() {
        run = if PROGRESS_GLYPHS.contains(&c) {
            run + 1
        } else {
            0
        };
        if run >= 3 {
            return true;
        }
    }
    // `[=====>    ] 45%`
    line.contains('%')
        && line.contains('[')
        && PROGRESS_BAR_FILLS.iter().any(|fill| line.contains(fill))
}

/// The text a terminal would show: the last carriage-return overwrite, without ANSI escapes.
fn visible_text(line: &str) -> Cow<'_, str> {
    let line = line
        .rsplit('\r')
        .find(|part| !part.trim().is_empty())
        .unwrap_or("");
    if !line.contains('\x1b') {
        return Cow::Borrowed(line);
    }
    let mut text = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            text.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters, then one final byte in @..~
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            // OSC (hyperlinks, titles): up to BEL or ESC \
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' {
                        break;
                    }
                    if c == '\x1b' {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    Cow::Owned(text)
}

fn collapse_whitespace(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn push_unique(items: &mut Vec<String>, item: String) {
    if !items.contains(&item) {
        items.push(item);
    }
}

/// The first `max - 1` chars, cut back to a word boundary in their second half if there is
/// one, then "…".
fn cut_with_ellipsis(line: &str, max: usize) -> String {
    let end = line
        .char_indices()
        .nth(max - 1)
        .map_or(line.len(), |(index, _)| index);
    let mut cut = &line[..end];
    if let Some(space) = cut.rfind(' ') {
        if cut[..space].chars().count() >= max / 2 {
            cut = &cut[..space];
        }
    }
    format!("{}…", cut.trim_end())
}

// ─── Failure reports ─────────────────────────────────────────────────────────────────────────

/// How the lines under a failure heading are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Details {
    /// Up to the next heading; blank lines inside are skipped (RSpec, minitest, PHPUnit).
    AcrossBlanks,
    /// Up to the first blank line (Gradle, CTest, CMake, the JUnit console launcher).
    UntilBlank,
    /// Valgrind: the first stack frame that names a source line.
    SourceFrame,
}

/// A failure heading being read: how, how many details are still taken, and whether the test's
/// name is still to come.
struct OpenHeading {
    details: Details,
    left: usize,
    name_pending: bool,
}

/// The heading a line opens, with the text to keep (None: the name comes on the next line).
fn failure_heading(visible: &str) -> Option<(Option<String>, Details)> {
    let indent = visible.len() - visible.trim_start().len();
    let line = visible.trim();
    if let Some(text) = numbered_heading(line).filter(|_| indent <= 2) {
        let name = (!NAMELESS_HEADINGS.contains(&text)).then(|| collapse_whitespace(line));
        return Some((name, Details::AcrossBlanks));
    }
    if let Some(error) = valgrind_error(line) {
        return Some((Some(collapse_whitespace(error)), Details::SourceFrame));
    }
    let gradle_test = line.ends_with(GRADLE_FAILED_END) && line.contains(GRADLE_TEST_SEPARATOR);
    let ctest_failure = CTEST_FAILURE_MARKS.iter().all(|mark| line.contains(mark));
    if gradle_test || ctest_failure {
        return Some((Some(collapse_whitespace(line)), Details::UntilBlank));
    }
    FAILURE_HEADING_STARTS
        .iter()
        .find(|(start, _)| line.starts_with(start))
        .map(|(_, details)| (Some(collapse_whitespace(line)), *details))
}

/// `1) Calc adds two numbers` → `Calc adds two numbers`.
fn numbered_heading(line: &str) -> Option<&str> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let text = line[digits..].strip_prefix(NUMBERED_TITLE_MARK)?;
    (digits > 0 && !text.trim().is_empty()).then(|| text.trim())
}

/// `==4242== Invalid write of size 1` → `Invalid write of size 1`; also a definite leak.
fn valgrind_error(line: &str) -> Option<&str> {
    let rest = valgrind_body(line)?.trim();
    let known = VALGRIND_ERRORS.iter().any(|error| rest.starts_with(error))
        || rest.contains(VALGRIND_DEFINITE_LEAK);
    known.then_some(rest)
}

/// What follows valgrind's `==PID==` prefix.
fn valgrind_body(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(VALGRIND_MARK)?;
    let pid = rest.find(VALGRIND_MARK)?;
    rest[..pid]
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| &rest[pid + VALGRIND_MARK.len()..])
}

/// One line under a heading: what to do with it.
enum Detail {
    Keep(String),
    Skip,
    End,
}

fn detail(visible: &str, details: Details) -> Detail {
    if details == Details::SourceFrame {
        let frame = valgrind_body(visible.trim()).unwrap_or("").trim();
        return if frame.is_empty() {
            Detail::End
        } else if names_source_line(frame) {
            Detail::Keep(collapse_whitespace(frame))
        } else {
            Detail::Skip
        };
    }
    let line = visible
        .trim()
        .trim_start_matches(TESTDOX_DETAIL_MARK)
        .trim_start();
    let line = line.strip_prefix(JUNIT_DETAIL_START).unwrap_or(line);
    let lower = line.to_ascii_lowercase();
    if line.is_empty() || DETAILS_SKIPPED_STARTS.iter().any(|s| line.starts_with(s)) {
        Detail::Skip
    } else if DETAILS_END_LINES.contains(&line)
        || DETAILS_END_STARTS.iter().any(|s| line.starts_with(s))
        || is_count_summary(&lower)
        || is_bare_marker(&lower)
    {
        Detail::End
    } else if is_stack_frame(&lower) || is_backtrace_line(line) {
        Detail::Skip
    } else {
        Detail::Keep(collapse_whitespace(line))
    }
}

/// Frames of Ruby (`# ./spec/a_spec.rb:5:in \`block'`, `from a.rb:4:in \`<main>'`), Java as
/// the JUnit console launcher prints them (`org.x.Y.z(Y.java:151)`, `(Native Method)`), and
/// PHP's bare `/app/src/Cart.php:17`.
fn is_backtrace_line(line: &str) -> bool {
    let ruby_frame = line.find(RUBY_FRAME_METHOD).is_some_and(|at| {
        let method = &line[at + RUBY_FRAME_METHOD.len()..];
        method
            .find('\'')
            .is_some_and(|end| method[end + 1..].trim().is_empty())
    });
    let java_frame = line.ends_with(')')
        && !line.contains(' ')
        && (JAVA_FRAME_FILES.iter().any(|file| line.contains(file)) || line.contains(NATIVE_FRAME));
    let bare_location = !line.contains(' ')
        && line
            .rsplit_once(':')
            .is_some_and(|(path, number)| path.contains('.') && is_number_text(number));
    ruby_frame || java_frame || line.ends_with(NATIVE_FRAME) || bare_location
}

fn is_number_text(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `main (uaf.c:6)`: a frame whose parentheses hold `file.ext:LINE`.
fn names_source_line(frame: &str) -> bool {
    frame
        .rsplit_once('(')
        .and_then(|(_, inside)| inside.strip_suffix(')'))
        .and_then(|inside| inside.rsplit_once(':'))
        .is_some_and(|(file, line)| file.contains('.') && is_number_text(line))
}

/// A section heading whose rows each name a failure (Surefire's results, CTest's list).
fn report_section_heading(line: &str) -> bool {
    REPORT_SECTION_HEADINGS.contains(&without_log_level(line).trim())
}

/// A row of a report section: indented under the heading, after Maven's `[ERROR]`.
fn report_section_row(visible: &str) -> Option<String> {
    let rest = without_log_level(visible.trim_end());
    let indented = rest.starts_with([' ', '\t']) && !rest.trim().is_empty();
    indented.then(|| collapse_whitespace(rest))
}

fn without_log_level(line: &str) -> &str {
    let trimmed = line.trim_start();
    LOG_LEVEL_PREFIXES
        .iter()
        .find_map(|prefix| trimmed.strip_prefix(prefix))
        .map(|rest| rest.strip_prefix(' ').unwrap_or(rest))
        .unwrap_or(line)
}

/// RuboCop's `--format simple`: `== style.rb ==` over rows `C:  1:  5: Naming/MethodName: …`.
fn is_rubocop_simple_row(line: &str) -> bool {
    let (title_start, title_end) = RUBOCOP_FILE_TITLE;
    let file_title = line
        .strip_prefix(title_start)
        .and_then(|rest| rest.strip_suffix(title_end))
        .is_some_and(|file| !file.contains(' ') && file.contains('.'));
    let mut cells = line.splitn(4, ':').map(str::trim);
    let offence = cells
        .next()
        .is_some_and(|s| RUBOCOP_SEVERITIES.contains(&s))
        && cells.next().is_some_and(is_number_text)
        && cells.next().is_some_and(is_number_text)
        && cells.next().is_some_and(|message| !message.is_empty());
    file_title || offence
}

/// `ZeroDivisionError:` alone on its line, its message on the next (RSpec, minitest).
fn is_bare_exception(line: &str) -> bool {
    line.strip_suffix(':')
        .is_some_and(|name| !name.contains(' ') && starts_with_exception(line))
}

/// Linkers, sanitizers, aborts, PHP's fatal errors, Ruby's syntax errors and uncaught
/// exceptions (`a.rb:2:in \`<main>': undefined method … (NoMethodError)`), and the shell's
/// report of a program killed by a signal. (Its fragments, `NATIVE_AND_SCRIPT_ERROR_FRAGMENTS`,
/// are searched with the others in `is_strong_error`.)
fn is_native_or_script_error(line: &str) -> bool {
    NATIVE_AND_SCRIPT_ERROR_STARTS
        .iter()
        .any(|start| line.starts_with(start))
        || is_ruby_uncaught_exception(line)
        || is_signal_report(line)
}

fn is_ruby_uncaught_exception(line: &str) -> bool {
    let Some(at) = line.find(RUBY_FRAME_METHOD) else {
        return false;
    };
    let after = &line[at..];
    let exception = after
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once('('))
        .map(|(_, name)| name);
    after.contains(RUBY_MESSAGE_START)
        && exception.is_some_and(|name| !name.contains(' ') && is_exception_name(name))
}

/// `bash: line 1: 4242 Aborted                 ./app`
fn is_signal_report(line: &str) -> bool {
    let Some((shell, rest)) = line.split_once(SHELL_LINE_MARK) else {
        return false;
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    !shell.contains(' ')
        && words.len() >= 3
        && words[0]
            .trim_end_matches(':')
            .bytes()
            .all(|b| b.is_ascii_digit())
        && is_number_text(words[1])
        && SIGNAL_REPORTS.iter().any(|signal| rest.contains(signal))
}

/// Reads one line into the failure report: a heading, a detail under it, a section heading
/// or row. False when the line is no part of a report and is left to the line rules.
fn read_report_line(
    visible: &str,
    validation: bool,
    heading: &mut Option<OpenHeading>,
    in_report_section: &mut bool,
    report: &mut Vec<String>,
) -> bool {
    let line = visible.trim();
    if validation {
        if let Some((name, details)) = failure_heading(visible) {
            let name_pending = name.is_none();
            if let Some(name) = name {
                push_unique(report, name);
            }
            *heading = Some(OpenHeading {
                details,
                left: MAX_DETAILS,
                name_pending,
            });
            *in_report_section = false;
            return true;
        }
    }
    if let Some(open) = heading.as_mut() {
        let blank = line.is_empty() || valgrind_body(line).is_some_and(|b| b.trim().is_empty());
        if blank && open.details == Details::AcrossBlanks {
            return true;
        }
        match detail(visible, open.details) {
            Detail::Keep(text) if open.name_pending => {
                push_unique(report, text);
                open.name_pending = false;
                return true;
            }
            Detail::Keep(text) => {
                // RSpec puts an exception's message on the line after its name.
                match report.last_mut() {
                    Some(last) if open.left < MAX_DETAILS && is_bare_exception(last) => {
                        last.push(' ');
                        last.push_str(&text);
                    }
                    _ => {
                        push_unique(report, text);
                        open.left -= 1;
                    }
                }
                if open.left == 0 || open.details == Details::SourceFrame {
                    *heading = None;
                }
                return true;
            }
            Detail::Skip if !blank => return true,
            _ => *heading = None,
        }
    }
    if !validation {
        return false;
    }
    if report_section_heading(line) {
        *in_report_section = true;
        return true;
    }
    if *in_report_section {
        match report_section_row(visible) {
            Some(row) => {
                push_unique(report, row);
                return true;
            }
            None => *in_report_section = false,
        }
    }
    false
}

// ─── Masking ─────────────────────────────────────────────────────────────────────────────────

/// The volatile part at the start of `text`, if any: its length in bytes and its mask.
/// `previous` is the char before `text`.
fn volatile_part(text: &str, previous: Option<char>) -> Option<(usize, &'static str)> {
    if let Some(length) = temp_path_length(text, previous) {
        return Some((length, "<tmp>"));
    }
    if previous.is_some_and(is_word_char) {
        return None;
    }
    let word_length = text.find(|c: char| !is_word_char(c)).unwrap_or(text.len());
    let word = &text[..word_length];
    if let Some(length) = uuid_length(text) {
        Some((length, "<uuid>"))
    } else if is_hex_id(word) {
        Some((word_length, "<hex>"))
    } else if let Some(length) = duration_length(text) {
        Some((length, "<duration>"))
    } else if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        Some((word_length, "N"))
    } else {
        None
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Length of the temporary path at the start of `text`: a temp directory not inside a longer
/// path (`/home/u/tmp/x` is no temp path), up to a delimiter.
fn temp_path_length(text: &str, previous: Option<char>) -> Option<usize> {
    if previous.is_some_and(|c| is_word_char(c) || matches!(c, '.' | '-' | '/' | '\\' | '~')) {
        return None;
    }
    let starts_path = text.starts_with('/') || text.starts_with(|c: char| c.is_ascii_alphabetic());
    if !starts_path {
        return None;
    }
    let path_length = text
        .find(|c: char| c.is_whitespace() || "'\"()[]<>,|".contains(c))
        .unwrap_or(text.len());
    let path = &text[..path_length];
    if TEMP_DIRECTORIES.iter().any(|dir| path.starts_with(dir)) {
        // A `:line:col` suffix is not part of the path.
        return Some(path.find(':').unwrap_or(path_length));
    }
    let windows_temp = path.contains('\\')
        && path
            .as_bytes()
            .windows(WINDOWS_TEMP_DIRECTORY.len())
            .any(|window| window.eq_ignore_ascii_case(WINDOWS_TEMP_DIRECTORY.as_bytes()));
    if !windows_temp {
        return None;
    }
    let drive = if path.as_bytes().get(1) == Some(&b':') {
        2
    } else {
        0
    };
    Some(
        path[drive..]
            .find(':')
            .map_or(path_length, |colon| drive + colon),
    )
}

/// `550e8400-e29b-41d4-a716-446655440000`
fn uuid_length(text: &str) -> Option<usize> {
    let mut length = 0;
    for (index, group) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if index > 0 {
            text[length..].strip_prefix('-')?;
            length += 1;
        }
        let hex = text[length..]
            .bytes()
            .take_while(u8::is_ascii_hexdigit)
            .count();
        if hex != group {
            return None;
        }
        length += group;
    }
    (!text[length..].starts_with(is_word_char)).then_some(length)
}

/// `0x7ffd1234`, or 7+ hex characters holding both a digit and a letter (`3f2a9c1d`); plain
/// words (`deadbeef`, `accepted`) and plain numbers are no hex ids.
fn is_hex_id(word: &str) -> bool {
    if let Some(digits) = word.strip_prefix("0x") {
        return !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit());
    }
    word.len() >= 7
        && word.bytes().all(|b| b.is_ascii_hexdigit())
        && word.bytes().any(|b| b.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Length of the duration at the start of `text`: `12ms`, `1.5s`, `0.23 s`, `3 minutes`.
fn duration_length(text: &str) -> Option<usize> {
    let digits = |from: usize| text[from..].bytes().take_while(u8::is_ascii_digit).count();
    let mut length = digits(0);
    if length == 0 {
        return None;
    }
    if text[length..].starts_with('.') && digits(length + 1) > 0 {
        length += 1 + digits(length + 1);
    }
    if text[length..].starts_with(' ') {
        length += 1;
    }
    let unit = DURATION_UNITS.iter().find(|unit| {
        text[length..]
            .strip_prefix(**unit)
            .is_some_and(|after| !after.starts_with(is_word_char))
    })?;
    Some(length + unit.len())
}

// ─── File names ──────────────────────────────────────────────────────────────────────────────

/// Bytes a path is made of. Non-ASCII bytes count, so that runs always end on a char boundary.
fn is_path_byte(byte: u8) -> bool {
    byte >= 0x80
        || byte.is_ascii_alphanumeric()
        || matches!(byte, b'_' | b'.' | b'/' | b'\\' | b'@' | b'+' | b'~' | b'-')
}

/// The colon of a Windows drive (`C:\x`), right after a one-letter run.
fn is_drive_colon(bytes: &[u8], start: usize, index: usize) -> bool {
    index == start + 1
        && bytes[index] == b':'
        && bytes[start].is_ascii_alphabetic()
        && matches!(bytes.get(index + 1), Some(b'\\' | b'/'))
}

fn source_path<'a>(candidate: &'a str, before: &str, after: &str) -> Option<&'a str> {
    if !candidate.as_bytes().contains(&b'.') {
        return None; // most words: checked first, as this runs on every word of the output
    }
    if before.ends_with(':') && candidate.starts_with("//") {
        return None; // a URL
    }
    let name = candidate.rsplit(['/', '\\']).next().unwrap_or(candidate);
    let (stem, extension) = name.rsplit_once('.')?;
    let valid_extension = (1..=10).contains(&extension.len())
        && extension.starts_with(|c: char| c.is_ascii_alphabetic())
        && extension.chars().all(|c| c.is_ascii_alphanumeric());
    if !valid_extension || stem.trim_matches('.').is_empty() {
        return None;
    }
    let has_directory = candidate.contains(['/', '\\']);
    let starts_with_digit = |text: &str| text.starts_with(|c: char| c.is_ascii_digit());
    let has_line = after
        .strip_prefix([':', '('])
        .is_some_and(starts_with_digit)
        || after.starts_with(PYTHON_FRAME_LINE);
    (has_directory || has_line).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|line| line.to_string()).collect()
    }

    #[test]
    fn loose_error_words_are_whole_words_in_any_case() {
        // The search skips words outside these lengths.
        assert!(LOOSE_ERROR_WORDS
            .iter()
            .all(|w| (5..=10).contains(&w.len())));
        for line in [
            "Build FAILED.",
            "3 errors found",
            "Exception",
            "no such file: error",
            "é→failure←é",
            "Failures: 2",
        ] {
            assert!(has_loose_error_word(line), "{line}");
        }
        for line in [
            "errorless run",
            "terror",
            "failedover",
            "0 errs",
            "",
            "éééé",
        ] {
            assert!(!has_loose_error_word(line), "{line}");
        }
    }

    #[test]
    fn typecheck_failure_keeps_only_the_diagnostic() {
        let output = "\n> demo@1.0.0 typecheck\n> node check.js\n\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\nnpm notice\nnpm notice New minor version of npm available! 11.19.1 -> 11.21.2\nnpm notice Changelog: https://github.com/npm/cli/releases/tag/v11.21.2\nnpm notice To update run: npm install -g npm@11.21.2\nnpm notice\n";
        assert_eq!(
            error_lines(output, true),
            ["src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'."]
        );
        assert_eq!(named_files(output), ["src/index.ts"]);
    }

    #[test]
    fn tap_failure_keeps_the_test_and_its_assertion() {
        let output = "\n> demo@1.0.0 test\n> node test.js\n\nnot ok 1 - adds numbers\n  AssertionError [ERR_ASSERTION]: 3 == 4\n# tests 1\n# fail 1\n";
        assert_eq!(
            error_lines(output, true),
            [
                "not ok 1 - adds numbers",
                "AssertionError [ERR_ASSERTION]: 3 == 4"
            ]
        );
    }

    #[test]
    fn missing_file_is_no_runtime_error() {
        let output = "cat: nonexistent.json: No such file or directory\n";
        assert!(error_lines(output, false).is_empty());
    }

    #[test]
    fn cargo_build_failure() {
        let output = "   Compiling demo v0.1.0 (/home/u/demo)\nerror[E0308]: mismatched types\n --> src/main.rs:4:5\n  |\n3 | fn n() -> i32 {\n  |           --- expected `i32` because of return type\n4 |     \"x\"\n  |     ^^^ expected `i32`, found `&str`\n\nFor more information about this error, try `rustc --explain E0308`.\nerror: could not compile `demo` (bin \"demo\") due to 1 previous error\n";
        assert_eq!(
            error_lines(output, true),
            [
                "error[E0308]: mismatched types",
                "--> src/main.rs:4:5",
                "error: could not compile `demo` (bin \"demo\") due to 1 previous error",
            ]
        );
        assert_eq!(named_files(output), ["src/main.rs"]);
    }

    #[test]
    fn pytest_failure() {
        let output = "============================= test session starts ==============================\ncollected 1 item\n\ntests/test_math.py F                                                     [100%]\n\n=================================== FAILURES ===================================\n___________________________________ test_add ___________________________________\n\n    def test_add():\n>       assert add(1, 2) == 4\nE       assert 3 == 4\nE        +  where 3 = add(1, 2)\n\ntests/test_math.py:4: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_math.py::test_add - assert 3 == 4\n============================== 1 failed in 0.03s ===============================\n";
        assert_eq!(
            error_lines(output, true),
            [
                "test_add",
                "E assert 3 == 4",
                "tests/test_math.py:4: AssertionError",
                "FAILED tests/test_math.py::test_add - assert 3 == 4",
            ]
        );
        assert_eq!(named_files(output), ["tests/test_math.py"]);
    }

    #[test]
    fn formatters_in_check_mode_name_the_files_they_would_change() {
        let cases = [
            (
                "Checking formatting...\n[warn] src/app.js\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.\n",
                vec!["[warn] src/app.js"],
            ),
            (
                "would reformat pkg/cfg.py\n\nOh no! 💥 💔 💥\n1 file would be reformatted.\n",
                vec!["would reformat pkg/cfg.py"],
            ),
            (
                "Diff in /home/u/demo/src/lib.rs:1:\n-pub fn add(a:i32,b:i32)->i32{a+b}\n+pub fn add(a: i32, b: i32) -> i32 {\n",
                vec!["Diff in /home/u/demo/src/lib.rs:1:"],
            ),
            (
                "\nfrom /home/u/demo/ugly.ts:\n1 | -export const  a = {b:1,\n\nerror: Found 1 not formatted file in 1 file\n",
                vec!["from /home/u/demo/ugly.ts:", "error: Found 1 not formatted file in 1 file"],
            ),
            (
                "--- pkg/app.py\n+++ pkg/app.py\n@@ -1,3 +1,5 @@\n import os\n\n1 file would be reformatted\n",
                vec!["+++ pkg/app.py"],
            ),
            (
                "unformatted: File would be reformatted\n --> pkg/cfg.py:1:6\n  |\n  - x = {  \"a\":1 }\n",
                vec!["unformatted: File would be reformatted", "--> pkg/cfg.py:1:6"],
            ),
            // `prettier --list-different` prints only the paths.
            ("src/app.js\nsrc/util.ts\n", vec!["src/app.js", "src/util.ts"]),
        ];
        for (output, expected) in cases {
            assert_eq!(error_lines(output, true), expected, "{output}");
        }
        // Decoys: prose that starts like a formatter line is no finding.
        let prose =
            "from the cache: 3 files\n[warn] Code style issues found in 2 files.\nfrom scratch\n";
        assert!(error_lines(prose, true).is_empty());
    }

    #[test]
    fn warnings_are_the_failure_only_when_nothing_else_is() {
        let warnings = "scripts/clean.sh:2:9: warning: In POSIX sh, == in place of = is undefined. [SC3014]\nscripts/clean.sh:3:10: note: Double quote to prevent globbing. [SC2086]\n";
        assert_eq!(
            error_lines(warnings, true),
            [
                "scripts/clean.sh:2:9: warning: In POSIX sh, == in place of = is undefined. [SC3014]",
                "scripts/clean.sh:3:10: note: Double quote to prevent globbing. [SC2086]",
            ]
        );
        let with_error = format!("{warnings}scripts/deploy.sh:2:10: error: Iterating over ls output is fragile. [SC2045]\n");
        assert_eq!(
            error_lines(&with_error, true),
            ["scripts/deploy.sh:2:10: error: Iterating over ls output is fragile. [SC2045]"]
        );
        // Not for a plain program run, and never a count of warnings.
        assert!(error_lines(warnings, false).is_empty());
        assert!(error_lines("Found 2 warnings\n", true).is_empty());
    }

    #[test]
    fn shellcheck_findings_keep_the_file_they_are_in() {
        let output = "\nIn scripts/deploy.sh line 2:\nfor f in $(ls *.txt); do\n         ^---------^ SC2045 (error): Iterating over ls output is fragile. Use globs.\n              ^-- SC2035 (info): Use ./*glob* or -- *glob* so names with dashes won't become options.\n\nFor more information:\n  https://www.shellcheck.net/wiki/SC2045 -- Iterating over ls output is fragi...\n";
        assert_eq!(
            error_lines(output, true),
            [
                "In scripts/deploy.sh line 2:",
                "^---------^ SC2045 (error): Iterating over ls output is fragile. Use globs.",
            ]
        );
    }

    #[test]
    fn passing_tests_and_what_they_logged_are_never_errors() {
        // bun prints a test's result after its output: the passing test's caught exception goes.
        let bun = "src/cart.test.ts:\nerror: expect(received).toBe(expected)\n\nExpected: 7\nReceived: 6\n\n      at <anonymous> (/home/u/demo/src/cart.test.ts:6:43)\n(fail) cart > sums prices [3.91ms]\ncannot parse cart: 1 | export const total = 1;\n4 |   try { return JSON.parse(text); } catch (e) { console.error(\"cannot parse cart:\", e); }\nSyntaxError: JSON Parse error: Expected '}'\n      at parse (/home/u/demo/src/cart.ts:4:21)\n\n(pass) cart > logs an error and returns null [0.31ms]\n\n 1 pass\n 1 fail\n";
        assert_eq!(
            error_lines(bun, true),
            [
                "error: expect(received).toBe(expected)",
                "Expected: 7",
                "Received: 6",
                "(fail) cart > sums prices [3.91ms]",
            ]
        );
        // node's spec reporter, pytest's `-rA` PASSES section, deno's captured output, Django's
        // migrations: names and logs that say "error" of steps that passed.
        let cases = [
            "✔ logs an error and still passes (1.2ms)\n﹣ reports errors (0.1ms) # SKIP\nok 2 - handles errors\n",
            "==================================== PASSES ====================================\n___ test_parse_logs_bad_input ___\nERROR    calc:calc.py:14 cannot parse 'x'\nTraceback (most recent call last):\n  File \"/home/u/calc.py\", line 12, in parse\nValueError: invalid literal for int() with base 10: 'x'\n=========================== short test summary info ============================\n",
            "logs an error ...\n------- output -------\nError: cannot parse cart\n----- output end -----\nlogs an error ... ok (7ms)\n",
            "  Applying auth.0007_alter_validators_add_error_messages... OK\ntest_errors (shop.tests.T.test_errors) ... ok\n",
        ];
        for output in cases {
            assert!(error_lines(output, true).is_empty(), "{output}");
        }
    }

    #[test]
    fn failing_tests_are_named_with_their_assertion() {
        let mocha = "  cart\n    1) sums prices\n    ✔ logs errors\n\n  1 passing (9ms)\n  1 failing\n\n  1) cart\n       sums prices:\n\n      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n6 !== 7\n\n      at Context.<anonymous> (test/cart.spec.js:6:12)\n";
        assert_eq!(
            error_lines(mocha, true),
            [
                "1) cart sums prices:",
                "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 6 !== 7",
            ]
        );
        let node_spec = "✖ sums prices (15.6ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n  \n  6 !== 7\n  \n      at TestContext.<anonymous> (/home/u/demo/t.test.js:6:10)\n✔ parses (4.3ms)\n";
        assert_eq!(
            error_lines(node_spec, true),
            [
                "✖ sums prices (15.6ms)",
                "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 6 !== 7",
            ]
        );
        // RSpec's `1) Calc adds` is its failure report: the example's name, then its error.
        let rspec = "  1) Calc adds\n     Failure/Error: expect(add(1, 2)).to eq(4)\n";
        assert_eq!(
            error_lines(rspec, true),
            ["1) Calc adds", "Failure/Error: expect(add(1, 2)).to eq(4)"]
        );
        // pytest: the failing test's title, its frames' source lines skipped.
        let pytest = "___________________ test_missing_user ___________________\n/venv/lib/flask/app.py:917: in full_dispatch_request\n    rv = self.handle_user_exception(e)\n         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nE       KeyError: 2\n\napp.py:9: KeyError\n";
        assert_eq!(
            error_lines(pytest, true),
            ["test_missing_user", "E KeyError: 2", "app.py:9: KeyError"]
        );
    }

    #[test]
    fn unresolvable_dependencies_are_errors_of_any_command() {
        let go = "go: finding module for package github.com/google/uuid\nexample.com/app imports\n\tgithub.com/google/uuid: cannot find module providing package github.com/google/uuid: module lookup disabled by GOPROXY=off\n";
        assert_eq!(
            error_lines(go, false),
            ["github.com/google/uuid: cannot find module providing package github.com/google/uuid: module lookup disabled by GOPROXY=off"]
        );
        let uv = "error: No solution found when resolving dependencies\n  cause: Because flask was not found in the cache and you require flask>=99, we can conclude that your requirements are unsatisfiable.\n\nhint: Packages were unavailable because the network was disabled.\n";
        assert_eq!(
            error_lines(uv, false),
            [
                "error: No solution found when resolving dependencies",
                "cause: Because flask was not found in the cache and you require flask>=99, we can conclude that your requirements are unsatisfiable.",
            ]
        );
    }

    #[test]
    fn runtime_traceback_keeps_the_exception_line() {
        let output = "Starting migration\nTraceback (most recent call last):\n  File \"/app/scripts/migrate.py\", line 10, in <module>\n    main()\n  File \"/app/scripts/migrate.py\", line 6, in main\n    raise ValueError(\"bad config\")\nValueError: bad config\n";
        assert_eq!(error_lines(output, false), ["ValueError: bad config"]);
        assert_eq!(named_files(output), ["/app/scripts/migrate.py"]);
        let cut_short =
            "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n";
        assert_eq!(error_lines(cut_short, false), [TRACEBACK_HEADER]);
        assert_eq!(named_files(cut_short), ["x.py"]);
    }

    #[test]
    fn node_crash_prefers_the_error_to_npm_reports() {
        let output = "\n> app@1.0.0 start\n> node index.js\n\n/app/index.js:3\n  throw new Error(\"boom\");\n  ^\n\nError: boom\n    at Object.<anonymous> (/app/index.js:3:9)\n    at node:internal/main/run_main_module:28:49\n\nNode.js v22.3.0\nnpm error code 1\nnpm error path /app\nnpm error command failed\nnpm error command sh -c node index.js\nnpm error A complete log of this run can be found in: /home/u/.npm/_logs/x.log\n";
        assert_eq!(error_lines(output, false), ["Error: boom"]);
        let npm_only =
            "npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\n";
        assert_eq!(
            error_lines(npm_only, false),
            [
                "npm error code ERESOLVE",
                "npm error ERESOLVE unable to resolve dependency tree"
            ]
        );
    }

    #[test]
    fn eslint_failure_skips_warnings_and_totals() {
        let output = "\n/home/u/proj/src/index.js\n  3:7  error    'x' is assigned a value but never used  no-unused-vars\n  5:1  warning  Unexpected console statement            no-console\n\n✖ 2 problems (1 error, 1 warning)\n";
        assert_eq!(
            error_lines(output, true),
            [
                "/home/u/proj/src/index.js",
                "3:7 error 'x' is assigned a value but never used no-unused-vars",
            ]
        );
        assert_eq!(named_files(output), ["/home/u/proj/src/index.js"]);
    }

    #[test]
    fn go_test_failure() {
        let output = "--- FAIL: TestAdd (0.00s)\n    add_test.go:8: Add(1, 2) = 4; want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\nFAIL\n";
        assert_eq!(
            error_lines(output, true),
            [
                "--- FAIL: TestAdd (0.00s)",
                "add_test.go:8: Add(1, 2) = 4; want 3",
                "FAIL example.com/calc 0.002s",
            ]
        );
        assert_eq!(named_files(output), ["add_test.go"]);
    }

    #[test]
    fn jest_failure() {
        let output = "FAIL src/sum.test.js\n  ● adds 1 + 2 to equal 3\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 3\n    Received: 4\n\n      3 | test('adds 1 + 2 to equal 3', () => {\n    > 4 |   expect(sum(1, 2)).toBe(3);\n        |                     ^\n\n      at Object.toBe (src/sum.test.js:4:21)\n\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 1 total\nSnapshots:   0 total\nTime:        0.512 s\nRan all test suites.\n";
        assert_eq!(
            error_lines(output, true),
            [
                "FAIL src/sum.test.js",
                "● adds 1 + 2 to equal 3",
                "Expected: 3",
                "Received: 4",
            ]
        );
        assert_eq!(named_files(output), ["src/sum.test.js"]);
    }

    #[test]
    fn unittest_failure_keeps_the_test_and_the_exception() {
        let output = "F.\n======================================================================\nFAIL: test_add (test_math.TestMath.test_add)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File \"/app/test_math.py\", line 6, in test_add\n    self.assertEqual(add(1, 2), 4)\nAssertionError: 3 != 4\n\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n";
        assert_eq!(
            error_lines(output, true),
            [
                "FAIL: test_add (test_math.TestMath.test_add)",
                "AssertionError: 3 != 4"
            ]
        );
    }

    #[test]
    fn cargo_test_failure() {
        let output = "running 1 test\ntest tests::adds ... FAILED\n\nfailures:\n\n---- tests::adds stdout ----\n\nthread 'tests::adds' panicked at src/lib.rs:10:9:\nassertion `left == right` failed\n  left: 3\n right: 4\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n    tests::adds\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nerror: test failed, to rerun pass `--lib`\n";
        assert_eq!(
            error_lines(output, true),
            [
                "test tests::adds ... FAILED",
                "thread 'tests::adds' panicked at src/lib.rs:10:9:",
                "assertion `left == right` failed",
                "error: test failed, to rerun pass `--lib`",
            ]
        );
    }

    #[test]
    fn checker_notes_and_totals_are_not_errors() {
        let mypy = "src/app.py:12: error: Argument 1 to \"f\" has incompatible type \"str\"  [arg-type]\nsrc/app.py:20: note: Revealed type is \"builtins.int\"\nFound 1 error in 1 file (checked 3 source files)\n";
        assert_eq!(
            error_lines(mypy, true),
            ["src/app.py:12: error: Argument 1 to \"f\" has incompatible type \"str\" [arg-type]"]
        );
        let tsc = "src/a.ts:10:3 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n10   const n: number = 'x';\n           ~\n\n\nFound 1 error in src/a.ts:10\n";
        assert_eq!(
            error_lines(tsc, true),
            ["src/a.ts:10:3 - error TS2322: Type 'string' is not assignable to type 'number'."]
        );
        let rspec = "Failures:\n\n  1) Calc adds\n     Failure/Error: expect(add(1, 2)).to eq(4)\n\n1 example, 1 failure\n\nFailed examples:\n\nrspec ./spec/calc_spec.rb:4 # Calc adds\n";
        assert_eq!(
            error_lines(rspec, true),
            ["1) Calc adds", "Failure/Error: expect(add(1, 2)).to eq(4)"]
        );
    }

    #[test]
    fn a_failure_report_names_each_test_and_what_failed() {
        // A passing test's log glued to PHPUnit's progress dots is no failure of its own.
        let phpunit = "FFError: connection refused (retrying)\n.   3 / 3 (100%)\n\nThere were 2 failures:\n\n1) OrderTest::testStatus\norder 42 should be shipped\nFailed asserting that two strings are equal.\n--- Expected\n+++ Actual\n\n/app/tests/OrderTest.php:9\n\nFAILURES!\nTests: 3, Assertions: 3, Failures: 2.\n";
        assert_eq!(
            error_lines(phpunit, true),
            [
                "1) OrderTest::testStatus",
                "order 42 should be shipped",
                "Failed asserting that two strings are equal."
            ]
        );
        let rspec = "  1) Calc divides\n     Failure/Error: a / b\n\n     ZeroDivisionError:\n       divided by 0\n     # ./lib/calc.rb:7:in `divide'\n";
        assert_eq!(
            error_lines(rspec, true),
            [
                "1) Calc divides",
                "Failure/Error: a / b",
                "ZeroDivisionError: divided by 0"
            ]
        );
        let minitest =
            "  1) Failure:\nCalcTest#test_add [test/calc_test.rb:6]:\nExpected: 3\n  Actual: 4\n";
        assert_eq!(
            error_lines(minitest, true),
            [
                "CalcTest#test_add [test/calc_test.rb:6]:",
                "Expected: 3",
                "Actual: 4"
            ]
        );
        // Deeper-indented numbers are a spec tree's entries, not headings; nor do headings
        // count for a plain program run.
        let tree = "  Calc\n    1) adds\n    ✓ subtracts\n";
        assert!(error_lines(tree, true).is_empty());
        assert!(error_lines("  1) Calc adds\n", false).is_empty());
    }

    #[test]
    fn report_sections_and_tool_headings() {
        let surefire = "[ERROR] depositWorks(a.T)  Time elapsed: 0.03 s  <<< FAILURE!\njava.lang.AssertionError: x\n[INFO] Results:\n[ERROR] Failures: \n[ERROR]   T.depositWorks:11 balance expected:<50> but was:<51>\n[INFO] \n";
        assert_eq!(
            error_lines(surefire, true),
            ["T.depositWorks:11 balance expected:<50> but was:<51>"]
        );
        let valgrind = "==42== Invalid write of size 1\n==42==    at 0x10917F: free (in /usr/lib/vg.so)\n==42==    by 0x10917F: main (uaf.c:6)\n==42== \n==42== ERROR SUMMARY: 1 errors from 1 contexts\n";
        assert_eq!(
            error_lines(valgrind, true),
            ["Invalid write of size 1", "by 0x10917F: main (uaf.c:6)"]
        );
        let cmake = "CMake Error at CMakeLists.txt:3 (find_package):\n  Could NOT find Boost\nCall Stack (most recent call first):\n  x.cmake:1 (y)\n";
        assert_eq!(
            error_lines(cmake, true),
            [
                "CMake Error at CMakeLists.txt:3 (find_package):",
                "Could NOT find Boost"
            ]
        );
    }

    #[test]
    fn native_and_script_errors_count_for_any_command() {
        for line in [
            "a.cpp:(.text+0xa): undefined reference to `scale(int)'",
            "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6",
            "ub.cpp:3:49: runtime error: signed integer overflow",
            "app: a.c:2: main: Assertion `n > 0' failed.",
            "bash: line 1: 4242 Aborted                 ./app",
            "PHP Fatal error:  Uncaught Error: Call to undefined method A::b()",
            "Parse error: syntax error, unexpected token \"}\" in a.php on line 4",
            "a.rb:2:in `<main>': undefined method `[]' for nil:NilClass (NoMethodError)",
            "a.rb:4: syntax error, unexpected end-of-input, expecting `end'",
        ] {
            assert_eq!(error_lines(line, false).len(), 1, "{line}");
        }
        for decoy in [
            "\tfrom raise.rb:4:in `<main>'",
            "# ./spec/calc_spec.rb:5:in `block (2 levels) in <top (required)>'",
            "bash: line 1: cd: build: No such file or directory",
            "PHP Warning:  Undefined variable $x in /app/w.php on line 4",
            "Aborted by user, nothing changed",
        ] {
            assert!(error_lines(decoy, false).is_empty(), "{decoy}");
        }
    }

    #[test]
    fn missing_program_is_a_runtime_error() {
        let output = "bash: line 1: pytest: command not found\n";
        assert_eq!(
            error_lines(output, false),
            ["bash: line 1: pytest: command not found"]
        );
    }

    #[test]
    fn loose_words_count_only_for_validation() {
        let output = "GET /health 200\nrequest failed: upstream timeout\n";
        assert!(error_lines(output, false).is_empty());
        assert_eq!(
            error_lines(output, true),
            ["request failed: upstream timeout"]
        );
    }

    #[test]
    fn noise_is_never_an_error() {
        let output = "npm warn deprecated glob@7: no longer supported\nwarning: unused variable `x`\n0 errors\nno errors\nFound 0 errors. Watching for file changes.\n# fail 1\n\u{1b}[32m████████░░░░\u{1b}[0m 60% error\n=== FAILURES ===\n    at Object.<anonymous> (/x.js:3:9)\n";
        assert!(
            error_lines(output, true).is_empty(),
            "{:?}",
            error_lines(output, true)
        );
    }

    #[test]
    fn colors_carriage_returns_and_duplicates_are_cleaned() {
        let output = "\u{1b}[31merror\u{1b}[0m: boom\nprogress 10%\rerror: boom\nerror: boom\n";
        assert_eq!(error_lines(output, false), ["error: boom"]);
    }

    #[test]
    fn long_output_is_read_by_its_whole_head_and_tail_lines() {
        let noise = "compiling module ok\n".repeat(20_000);
        let output = format!(
            "error: bad config at start\n{noise}src/a.rs:3:1: error[E0308]: mismatched types\n"
        );
        let read = bounded_output(&output);
        assert!(read.len() <= OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES + 1);
        assert!(read
            .lines()
            .all(|l| l == "compiling module ok" || l.contains("error")));
        assert_eq!(
            error_lines(&read, true),
            [
                "error: bad config at start",
                "src/a.rs:3:1: error[E0308]: mismatched types"
            ]
        );
        // Short output is read whole; a cut inside a multi-byte char moves to its boundary.
        assert!(matches!(bounded_output("x\ny"), Cow::Borrowed("x\ny")));
        assert_eq!(head_lines("ééé", 3), "é");
        assert_eq!(tail_lines("ééé", 3), "é");
        assert_eq!(head_lines("ab\ncd\nef", 7), "ab\ncd");
        assert_eq!(tail_lines("ab\ncd\nef", 7), "cd\nef");
    }

    #[test]
    fn at_most_five_lines() {
        let output: String = (1..=9)
            .map(|n| format!("error: bad input in step {n}\n"))
            .collect();
        let lines = error_lines(&output, false);
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[4], "error: bad input in step 5");
    }

    #[test]
    fn summary_joins_whole_lines_within_the_limit() {
        assert_eq!(summarize(&[]), "");
        assert_eq!(summarize(&strings(&["a", "b"])), "a | b");
        let long = "x".repeat(268);
        let summary = summarize(&strings(&["first", &long, "third"]));
        assert_eq!(summary, format!("first | {long}"));
        let summary = summarize(&strings(&["first", &"x".repeat(200), "third"]));
        assert_eq!(summary, format!("first | {} | third", "x".repeat(200)));
        let too_long = "y".repeat(90);
        let summary = summarize(&strings(&[&long, &too_long, "z"]));
        assert_eq!(summary, long, "a line that does not fit ends the summary");
    }

    #[test]
    fn summary_cuts_a_long_first_line_at_a_word() {
        let line = format!("{} tail", "word ".repeat(60));
        let summary = summarize(&strings(&[&line]));
        assert!(
            summary.chars().count() <= 280,
            "{}",
            summary.chars().count()
        );
        assert!(summary.ends_with("word…"), "{summary}");
        let unbroken = "é".repeat(400);
        let summary = summarize(&strings(&[&unbroken]));
        assert_eq!(summary.chars().count(), 280);
        assert!(summary.ends_with('…'));
    }

    #[test]
    fn masking_hides_what_changes_between_runs() {
        let cases = [
            (
                "src/a.ts(10,3): error TS2345: x",
                "src/a.ts(N,N): error TS2345: x",
            ),
            ("--> src/main.rs:10:5", "--> src/main.rs:N:N"),
            ("at line 10", "at line N"),
            ("Line 10, column 3", "Line N, column N"),
            ("Found 2 errors", "Found N errors"),
            ("# fail 1", "# fail N"),
            ("1 failed, 2 passed", "N failed, N passed"),
            ("error[E0308]: mismatched", "error[E0308]: mismatched"),
            ("a.py:1:8: F401 unused", "a.py:N:N: F401 unused"),
            (
                "AssertionError [ERR_ASSERTION]: 3 == 4",
                "AssertionError [ERR_ASSERTION]: N == N",
            ),
            ("commit 3f2a9c1d failed", "commit <hex> failed"),
            ("at 0x7ffd1234", "at <hex>"),
            ("deadbeef stays", "deadbeef stays"),
            ("id 550e8400-e29b-41d4-a716-446655440000", "id <uuid>"),
            ("open /tmp/jest_x1/a.txt: denied", "open <tmp>: denied"),
            ("in /var/folders/x1/T/y (a)", "in <tmp> (a)"),
            ("/private/var/folders/a/b.log", "<tmp>"),
            (r"C:\Users\me\AppData\Local\Temp\x1\a.ts", "<tmp>"),
            (
                "took 12ms, then 1.5s and 0.23 s (45 ms) in 3.2s",
                "took <duration>, then <duration> and <duration> (<duration>) in <duration>",
            ),
            (
                "--- FAIL: TestAdd (0.00s)",
                "--- FAIL: TestAdd (<duration>)",
            ),
            ("x86_64 v20 TS2322 utf8", "x86_64 v20 TS2322 utf8"),
        ];
        for (summary, masked) in cases {
            assert_eq!(mask_volatile(summary), masked, "{summary}");
        }
    }

    #[test]
    fn fingerprints_ignore_volatile_parts_only() {
        let first = fingerprint(
            Category::Typecheck,
            "src/a.ts(10,3): error TS2345: Argument | Found 1 error in 0.5s",
        );
        let again = fingerprint(
            Category::Typecheck,
            "src/a.ts(12,7): error TS2345: Argument | Found 3 error in 1.25s",
        );
        assert_eq!(first, again);
        assert_eq!(first.len(), 12);
        assert!(first
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        let other_code = fingerprint(
            Category::Typecheck,
            "src/a.ts(10,3): error TS2322: Argument | Found 1 error in 0.5s",
        );
        assert_ne!(first, other_code);
        let other_category = fingerprint(
            Category::Build,
            "src/a.ts(10,3): error TS2345: Argument | Found 1 error in 0.5s",
        );
        assert_ne!(first, other_category);
        let go_again = fingerprint(
            Category::Test,
            "--- FAIL: TestAdd (0.12s) | add_test.go:9: bad",
        );
        let go_first = fingerprint(
            Category::Test,
            "--- FAIL: TestAdd (0.00s) | add_test.go:8: bad",
        );
        assert_eq!(go_first, go_again);
    }

    #[test]
    fn fingerprint_is_sha256_of_category_and_masked_summary() {
        // sha256("test:") = 5aff61a9e847…
        assert_eq!(fingerprint(Category::Test, ""), "5aff61a9e847");
    }

    #[test]
    fn named_files_accepts_paths_with_a_directory_or_a_line() {
        let text = "at foo (/abs/bar.ts:10:5)\nC:\\proj\\src\\a.ts:3:4 - error\nsee https://example.com/docs/x.html\nnode check.js failed at Object.is v1.2.3 demo@1.0.0\nmain.c:3:5: error: x\nsrc/a.rs:3:5 and src/a.rs:9:1, then ./lib/util.js.\nFile \"x.py\", line 3";
        assert_eq!(
            named_files(text),
            [
                "/abs/bar.ts",
                "C:\\proj\\src\\a.ts",
                "main.c",
                "src/a.rs",
                "./lib/util.js",
                "x.py"
            ]
        );
    }
}
