//! Pruning on real long outputs (tests/fixtures/prune/, made by `capture.sh` there): every
//! line that names a failure is kept, and the outputs shrink.

use std::path::Path;

use ocmem::domain::extract::is_error_line;
use ocmem::domain::prune::{prune, LIMITS};

/// Each fixture, its tool, and lines picked by hand that a reader of the failure needs.
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
];

/// Below the limits: left as it is.
const UNDER_LIMITS: &str = "pip-install-verbose.txt";

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/prune")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_error_line_and_every_hand_picked_line_is_kept() {
    for (name, tool, picked) in MUST_KEEP {
        let output = fixture(name);
        let pruned = prune(tool, &output, LIMITS).unwrap_or_else(|| panic!("{name} not pruned"));
        let kept: std::collections::HashSet<&str> = pruned.text.lines().collect();
        for line in picked.iter() {
            assert!(
                output.lines().any(|l| l == *line),
                "{name}: {line:?} is not in the fixture"
            );
            assert!(kept.contains(line), "{name}: lost {line:?}");
        }
        for line in output.lines().filter(|l| is_error_line(l)) {
            assert!(kept.contains(line), "{name}: lost error line {line:?}");
        }
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
