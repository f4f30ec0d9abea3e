//! Pruning on real long outputs (tests/fixtures/prune/, made by `capture.sh` there): every
//! line that names a failure is kept, under the full limits and the halved ones, and the
//! outputs shrink.

use std::path::Path;

use ocmem::domain::shell::extract::is_error_line;
use ocmem::domain::shell::prune::{prune, Limits, LIMITS};

/// Each fixture, its tool, and lines picked by hand that a reader of the failure needs. For a
/// `bash` output every error line is needed too; the lines of a search or a listing are results,
/// whatever words they hold.
const MUST_KEEP: &[(&str, &str, &[&str])] = &[
    ("cargo-test-failing.txt", "bash", &[
        "test parses_config ... FAILED",
        "test rounds_money ... FAILED",
        "rate table loaded",
        "test result: FAILED. 600 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.13s",
        "error: test failed, to rerun pass `--lib`",
    ]),
    ("cargo-build-warnings.txt", "bash", &[
        "error[E0308]: mismatched types",
        "error: could not compile `cargobuild` (bin \"cargobuild\") due to 1 previous error; 300 warnings emitted",
    ]),
    ("go-test-failing.txt", "bash", &[
        "    sums_test.go:703: parse(\"12\") = 0, want 12",
        "--- FAIL: TestParse (0.00s)",
        "--- FAIL: TestLimit (0.00s)",
        "panic: assignment to entry in nil map [recovered]",
        "FAIL\texample.com/sums\t0.017s",
    ]),
    ("node-test-failing.txt", "bash", &[
        "not ok 801 - formats dates",
        "not ok 802 - reads config",
        "not ok 803 - greets",
        "  error: \"Expected property name or '}' in JSON at position 1\"",
        "# fail 3",
    ]),
    ("pytest-failing.txt", "bash", &[
        "E   assert (1 / 3) == 0.33",
        "E           json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "E   AssertionError: assert ['ada', 'bob'] == ['ada', 'rob']",
        "FAILED test_sums.py::test_ratio - assert (1 / 3) == 0.33",
        "FAILED test_sums.py::test_names - AssertionError: assert ['ada', 'bob'] == ['...",
    ]),
    ("npm-install-verbose.txt", "bash", &["npm info ok"]),
    ("find-listing.txt", "glob", &[]),
    ("cargo-clippy-lints.txt", "bash", &[
        "error: approximate value of `f{32, 64}::consts::PI` found",
        "  --> src/main.rs:61:32",
        "warning: `clippylints` (bin \"clippylints\") generated 180 warnings",
        "error: could not compile `clippylints` (bin \"clippylints\") due to 1 previous error; 180 warnings emitted",
    ]),
    ("eslint-problems.txt", "bash", &[
        "/tmp/work/eslint/src/cart17.js",
        "  9:57   error    'ratePerKilo' is not defined                        no-undef",
        "✖ 721 problems (1 error, 720 warnings)",
    ]),
    ("jest-failing.txt", "bash", &[
        "  ● prices 5 › reads the rate table",
        "    TypeError: Cannot read properties of undefined (reading 'rates')",
        "  ● prices 3 › rounds half up",
        "    Expected: 2.6",
        "    Received: 2.5",
        "Test Suites: 2 failed, 4 passed, 6 total",
        "Tests:       2 failed, 600 passed, 602 total",
    ]),
    ("make-gcc-warnings.txt", "bash", &[
        "src/scale61.c:3:47: error: expected ‘;’ before ‘return’",
        "    3 |   for (int i = 0; text[i]; i++) sum += text[i]",
        "make: *** [Makefile:7: build/scale61.o] Error 1",
    ]),
    ("ruff-check.txt", "bash", &["Found 300 errors.", "[*] 300 fixable with `--fix`."]),
    ("git-log-stat.txt", "bash", &[
        "commit 1233e140650699c7c9318c12e68f8de8e8d28b4e",
        "    Update part 0 of module 3 (step 120)",
    ]),
    ("rg-raise-matches.txt", "grep", &[
        "pip/_internal/build_env.py:311:        raise NotImplementedError()",
        "pip/_vendor/webencodings/tests.py:26:        raise AssertionError('Did not raise %s.' % exception)",
    ]),
    ("ls-recursive.txt", "list", &["pip:", "pip/_internal:"]),
];

/// Outputs of only errors (at least one line in five), each with its source lines: nothing may
/// go, so they stay whole.
const ALL_ERRORS: &[&str] = &["tsc-errors.txt", "mypy-errors.txt"];

/// Below the limits: left as it is.
const UNDER_LIMITS: &str = "pip-install-verbose.txt";

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/prune")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn assert_needed_lines_kept(limits: Limits) {
    for (name, tool, picked) in MUST_KEEP {
        let output = fixture(name);
        let pruned = prune(tool, &output, limits).unwrap_or_else(|| panic!("{name} not pruned"));
        let kept: std::collections::HashSet<&str> = pruned.text.lines().collect();
        for line in picked.iter() {
            assert!(
                output.lines().any(|l| l == *line),
                "{name}: {line:?} is not in the fixture"
            );
            assert!(kept.contains(line), "{name}: lost {line:?} ({limits:?})");
        }
        if *tool == "bash" {
            for line in output.lines().filter(|l| is_error_line(l)) {
                assert!(
                    kept.contains(line),
                    "{name}: lost error line {line:?} ({limits:?})"
                );
            }
        }
    }
}

#[test]
fn every_error_line_and_every_hand_picked_line_is_kept() {
    assert_needed_lines_kept(LIMITS);
}

#[test]
fn halved_limits_keep_them_too() {
    assert_needed_lines_kept(LIMITS.halved());
}

#[test]
fn an_output_of_only_errors_is_left_whole() {
    for name in ALL_ERRORS {
        let output = fixture(name);
        assert!(output.lines().count() > LIMITS.lines && output.len() > LIMITS.bytes);
        let errors = output.lines().filter(|l| is_error_line(l)).count();
        assert!(
            errors * 5 >= output.lines().count(),
            "{name}: {errors} errors"
        );
        assert_eq!(prune("bash", &output, LIMITS), None, "{name}");
        assert_eq!(prune("bash", &output, LIMITS.halved()), None, "{name}");
    }
}

#[test]
fn outputs_shrink_to_at_most_two_fifths_on_average() {
    let mut shares = Vec::new();
    for (name, tool, _) in MUST_KEEP {
        let output = fixture(name);
        let pruned = prune(tool, &output, LIMITS).unwrap();
        shares.push(pruned.text.len() as f64 / output.len() as f64);
    }
    let average = shares.iter().sum::<f64>() / shares.len() as f64;
    assert!(
        average <= 0.4,
        "average kept share {average:.2}: {shares:?}"
    );
}

#[test]
fn an_output_under_the_limits_is_left_alone() {
    let output = fixture(UNDER_LIMITS);
    assert!(output.lines().count() < LIMITS.lines && output.len() < LIMITS.bytes);
    assert_eq!(prune("bash", &output, LIMITS), None);
}
