use std::path::Path;

use proptest::prelude::*;

use super::super::{
    error_lines_of, is_error_line, is_strong_error, is_validation_error, visible_text,
};
use super::*;

fn signals(line: &str) -> bool {
    is_strong_error(line) || is_validation_error(line)
}

/// Every text file under `dir`, recursively.
fn texts(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            texts(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push(text);
        }
    }
}

/// Every text of the tests' files, and again with escaped line breaks and tabs read as such:
/// JSON fixtures hold outputs that way.
fn fixture_texts() -> Vec<String> {
    let mut all = Vec::new();
    texts(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"),
        &mut all,
    );
    let unescaped: Vec<String> = all
        .iter()
        .map(|text| text.replace("\\n", "\n").replace("\\t", "\t"))
        .collect();
    all.extend(unescaped);
    all
}

#[test]
fn every_signalling_line_of_the_fixtures_passes_the_prefilter() {
    let (mut lines, mut signalling, mut skipped) = (0, 0, 0);
    for text in &fixture_texts() {
        for raw in text.lines() {
            let visible = visible_text(raw);
            let line = visible.trim();
            lines += 1;
            if signals(line) {
                signalling += 1;
                assert!(may_signal(line), "the prefilter drops {line:?}");
            } else if !may_signal(line) {
                skipped += 1;
            }
        }
    }
    // The fixtures hold plenty of both, so the check means something.
    assert!(
        lines > 50_000 && signalling > 2_000,
        "{lines} lines, {signalling} signalling"
    );
    assert!(
        skipped * 2 > lines,
        "only {skipped} of {lines} lines skipped"
    );
}

#[test]
fn error_lines_of_a_whole_text_are_those_of_each_line() {
    let mut all = fixture_texts();
    // Escapes, carriage returns, indentation and a text without a final line break too.
    all.push("ok\r\x1b[31merror: boom\x1b[0m\n  E   assert 1 == 2\n^-- SC2086\nfile.rs:3:1".into());
    all.push("\u{3000}C: 3: 5: Style/Foo\n  W:  12:  1: Lint\nat 12:30:01 ok\nduration_ms: 0.5\na b.c:1: x".into());
    let mut errors = 0;
    for text in &all {
        let lines: Vec<&str> = text.lines().collect();
        let each: Vec<bool> = lines.iter().map(|line| is_error_line(line)).collect();
        assert_eq!(
            error_lines_of(text, &lines),
            each,
            "{}",
            &text[..text.len().min(200)]
        );
        errors += each.iter().filter(|e| **e).count();
    }
    assert!(errors > 1_000, "{errors}");
}

#[test]
fn plain_lines_are_skipped_and_signals_of_every_kind_are_not() {
    for plain in [
        "test adds_1 ... ok",
        "ok 12 - formats dates",
        "   Compiling serde v1.0.219",
        "src/pip/_internal/cli/main.py",
        "=== RUN   TestSum",
        "added 120 packages in 3s",
    ] {
        assert!(!may_signal(plain), "{plain}");
        assert!(!signals(plain), "{plain}");
    }
    for signal in [
        "src/index.ts(10,3): error TS2345: Argument of type",
        "TypeError: x is not a function",
        "E   assert 3 == 4",
        "^-- SC2086 (info): Double quote",
        "F401 [*] `os` imported but unused",
        "src/a.c:3:47: warning: unused",
        "C:  3:  5: Style/Foo: bar",
        "not ok 3 - reads config",
        "✖ adds (1.2ms)",
        "would reformat a.py",
        "bash: line 1: 4242 Aborted ./app",
        "Segmentation fault (core dumped)",
    ] {
        assert!(may_signal(signal), "{signal}");
    }
}

/// Lines made of the extractor's own words and shapes, with noise around them.
fn line_like_output() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "error",
        "Error:",
        "FAIL",
        "failed",
        "ERR!",
        "panic:",
        "TS2322",
        "E ",
        "^",
        ":",
        ":12:",
        " ",
        "  ",
        "a",
        "src/a.rs",
        "(1,2)",
        "●",
        "✖ ",
        "not ok 1",
        "Expected:",
        "from ",
        "+++ ",
        "[warn] ",
        "F401 ",
        "== a.rb ==",
        ":in `x': y (NameError)",
        ": line 3: 9 Killed",
        "ok 3",
        "0",
        "é",
        "\t",
        "warning",
        "TypeError: x",
        "undefined reference to",
        "what():",
    ]);
    prop::collection::vec(pieces, 1..8).prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn the_prefilter_never_drops_a_signal(line in line_like_output()) {
        let trimmed = line.trim();
        prop_assert!(!signals(trimmed) || may_signal(trimmed), "{:?}", trimmed);
    }

    #[test]
    fn the_prefilter_never_drops_a_signal_of_any_text(line in "\\PC{0,40}") {
        let trimmed = line.trim();
        prop_assert!(!signals(trimmed) || may_signal(trimmed), "{:?}", trimmed);
    }
}
