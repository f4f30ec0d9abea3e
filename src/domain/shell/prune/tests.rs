use super::*;

/// The counts the notes of `text` give, plus its shown lines: every line of the original is
/// shown, repeated or omitted, once.
fn accounted_lines(pruned: &Pruned) -> usize {
    let mut total = pruned.kept_lines;
    for line in pruned.text.lines() {
        let number = |after: &str| -> usize {
            line.split(after)
                .nth(1)
                .and_then(|rest| {
                    rest.split(|c: char| !c.is_ascii_digit())
                        .next()
                        .and_then(|n| n.parse().ok())
                })
                .unwrap_or(0)
        };
        let omitted = line.starts_with("[ocmem: ") && line.contains(" lines omitted");
        if omitted || line.contains("more lines like the one above]") {
            total += number("[ocmem: ");
        } else if line.contains(" more times (") {
            total += number("more times (");
        }
    }
    total
}

fn cargo_like_output() -> String {
    let mut out = String::from("   Compiling demo v0.1.0 (/home/dev/demo)\n");
    out.push_str("    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.2s\n");
    out.push_str("     Running unittests src/lib.rs\n\nrunning 402 tests\n");
    for i in 0..200 {
        out.push_str(&format!("test error_handling::case_{i} ... ok\n"));
    }
    out.push_str("test parse::rejects_empty ... FAILED\n");
    for i in 0..200 {
        out.push_str(&format!("test money::rounds_{i} ... ok\n"));
    }
    out.push_str("\nfailures:\n\n---- parse::rejects_empty stdout ----\n");
    out.push_str("thread 'parse::rejects_empty' panicked at src/parse.rs:41:9:\n");
    out.push_str("assertion `left == right` failed\n  left: 0\n right: 2\n\n");
    out.push_str("failures:\n    parse::rejects_empty\n\n");
    out.push_str("test result: FAILED. 401 passed; 1 failed; 0 ignored; finished in 0.31s\n");
    out
}

#[test]
fn outputs_within_the_limits_are_left_alone() {
    let short: String = (0..150).map(|i| format!("line {i}\n")).collect();
    assert_eq!(prune("bash", &short, LIMITS), None);
    let long: String = (0..250).map(|i| format!("line {i}\n")).collect();
    assert!(prune("bash", &long, LIMITS).is_some());
}

#[test]
fn read_edit_and_write_outputs_are_never_pruned() {
    let long: String = (0..5000).map(|i| format!("{i}: let x = {i};\n")).collect();
    for tool in ["read", "edit", "write", "apply_patch", "webfetch"] {
        assert_eq!(prune(tool, &long, LIMITS), None, "{tool}");
    }
    for tool in PRUNED_TOOLS {
        assert!(prune(tool, &long, LIMITS).is_some(), "{tool}");
    }
}

#[test]
fn error_lines_and_their_context_are_kept_and_passing_tests_collapse() {
    let output = cargo_like_output();
    let pruned = prune("bash", &output, LIMITS).unwrap();
    for must_keep in [
        "test parse::rejects_empty ... FAILED",
        "thread 'parse::rejects_empty' panicked at src/parse.rs:41:9:",
        "assertion `left == right` failed",
        "test result: FAILED. 401 passed; 1 failed; 0 ignored; finished in 0.31s",
        "running 402 tests",
    ] {
        assert!(
            pruned.text.lines().any(|l| l == must_keep),
            "lost {must_keep:?}"
        );
    }
    // A test named after errors is a decoy: its 200 passing lines become one and a count.
    assert!(
        pruned.text.contains(
            "test error_handling::case_0 ... ok\n[ocmem: 199 more lines like the one above]\n"
        ),
        "{}",
        pruned.text
    );
    assert!(!pruned.text.contains("case_57 "));
    assert!(pruned.text.len() * 4 < output.len());
    assert_eq!(accounted_lines(&pruned), output.lines().count());
    assert_eq!(pruned.lines, output.lines().count());
}

#[test]
fn the_head_and_the_tail_are_kept_and_the_middle_is_counted() {
    // First and last words cycle with periods 7 and 5: no run of near-identical lines.
    let first = [
        "fetch", "unpack", "verify", "link", "build", "copy", "stamp",
    ];
    let last = ["done", "skipped", "cached", "retried", "queued"];
    let output: String = (0..1000)
        .map(|i| format!("{} item {i} of the archive {}\n", first[i % 7], last[i % 5]))
        .collect();
    let pruned = prune("bash", &output, LIMITS).unwrap();
    let lines: Vec<&str> = output.lines().collect();
    assert!(pruned.text.starts_with(lines[0]));
    assert!(pruned.text.contains(lines[39]));
    assert!(pruned.text.trim_end().ends_with(lines[999]));
    assert!(pruned.text.contains(lines[940]));
    assert!(!pruned.text.contains(&format!("{}\n", lines[500])));
    assert_eq!(accounted_lines(&pruned), 1000);
}

#[test]
fn repeated_blocks_collapse_with_their_count() {
    let mut output = String::from("TAP version 13\n");
    for i in 1..=300 {
        output.push_str(&format!(
            "ok {i} - sums {i}\n  ---\n  duration_ms: 0.{i}\n  ...\n"
        ));
    }
    output.push_str("1..300\n# pass 300\n# fail 0\n");
    let pruned = prune("bash", &output, LIMITS).unwrap();
    assert!(
        pruned.text.contains("[ocmem: the 4 lines above repeat "),
        "{}",
        pruned.text
    );
    assert!(pruned.text.lines().count() < 120);
    assert_eq!(accounted_lines(&pruned), output.lines().count());
}

#[test]
fn an_error_line_inside_a_run_breaks_it() {
    let mut output = String::new();
    for i in 0..300 {
        output.push_str(&format!("test money::rounds_{i} ... ok\n"));
        if i == 150 {
            output.push_str("error[E0308]: mismatched types\n");
        }
    }
    let pruned = prune("bash", &output, LIMITS).unwrap();
    assert!(pruned.text.contains("error[E0308]: mismatched types\n"));
    assert_eq!(accounted_lines(&pruned), 301);
}

#[test]
fn an_omitted_listing_is_summarized_by_folder() {
    let mut output = String::new();
    for i in 0..900 {
        output.push_str(&format!("/home/dev/demo/src/components/widget_{i}.tsx\n"));
    }
    for i in 0..300 {
        output.push_str(&format!("/home/dev/demo/tests/unit/case_{i}.test.ts\n"));
    }
    let pruned = prune("glob", &output, LIMITS).unwrap();
    assert!(
        pruned.text.contains("[ocmem: 1100 lines omitted; by folder: under /home/dev/demo/: src/components 860, tests/unit 240]"),
        "{}",
        pruned.text
    );
    // `find` output is a listing too, recognized by its lines.
    let relative = output.replace("/home/dev/demo/", "./");
    let found = prune("bash", &relative, LIMITS).unwrap();
    assert!(
        found
            .text
            .contains("by folder: under ./: src/components 860, tests/unit 240]"),
        "{}",
        found.text
    );
}

#[test]
fn halved_limits_prune_what_the_full_ones_leave() {
    let output: String = (0..150)
        .map(|i| format!("resolving dependency {i} of the graph, {}\n", i * 13 % 7))
        .collect();
    assert_eq!(prune("bash", &output, LIMITS), None);
    assert!(prune("bash", &output, LIMITS.halved()).is_some());
    assert_eq!(
        LIMITS.halved(),
        Limits {
            lines: 100,
            bytes: 8 * 1024
        }
    );
}

#[test]
fn long_lines_are_cut_but_error_lines_are_not() {
    let noise = "x".repeat(2000);
    let error = format!(
        "error: linking with `cc` failed: exit status: 1 {}",
        "y".repeat(2000)
    );
    let mut output = format!("{noise}\n");
    for i in 0..300 {
        output.push_str(&format!("note {i}\n"));
    }
    output.push_str(&error);
    let pruned = prune("bash", &output, LIMITS).unwrap();
    assert!(pruned
        .text
        .contains(&format!("{}… [1500 more chars]\n", "x".repeat(500))));
    assert!(pruned.text.contains(&error));
}

#[test]
fn likeness_masks_numbers_and_names_between_the_first_and_last_word() {
    assert_eq!(
        likeness("   Compiling serde v1.0.219"),
        likeness("   Compiling libc v0.2.177")
    );
    assert_eq!(
        likeness("=== RUN   TestSum12"),
        likeness("=== RUN   TestSum7")
    );
    assert_ne!(likeness("test a ... ok"), likeness("test a ... FAILED"));
    assert_ne!(
        likeness("   Compiling serde v1"),
        likeness("Compiling serde v1")
    );
    assert_ne!(likeness("src/a.rs"), likeness("src/b.rs"));
}

#[test]
fn an_indented_error_line_keeps_the_file_it_belongs_to() {
    let mut output = String::new();
    for file in 0..30 {
        output.push_str(&format!("\n/home/dev/shop/src/cart{file}.js\n"));
        for line in 0..20 {
            output.push_str(&format!(
                "  {line}:50  warning  'unused{line}' is assigned a value but never used  no-unused-vars\n"
            ));
        }
        if file == 17 {
            output.push_str("  21:9  error  'ratePerKilo' is not defined  no-undef\n");
        }
    }
    output.push_str("\n✖ 601 problems (1 error, 600 warnings)\n");
    let pruned = prune("bash", &output, LIMITS).unwrap();
    let kept: Vec<&str> = pruned.text.lines().collect();
    let error = kept
        .iter()
        .position(|l| l.contains("'ratePerKilo' is not defined"))
        .expect("error line kept");
    let owner = kept[..error]
        .iter()
        .rposition(|l| !l.starts_with(' ') && !l.starts_with('['));
    assert_eq!(kept[owner.unwrap()], "/home/dev/shop/src/cart17.js");
    // The decoy: a file far from any error is not brought back.
    assert!(!kept.contains(&"/home/dev/shop/src/cart12.js"));
    assert_eq!(accounted_lines(&pruned), output.lines().count());
}

#[test]
fn search_matches_and_listed_paths_are_results_not_errors() {
    let matches: String = (0..600)
        .map(|i| {
            format!(
                "pkg/mod{}/parse.py:{i}:        raise ParseError(\"bad token\")\n",
                i % 7
            )
        })
        .collect();
    let output = format!("{matches}rg: pkg/locked: Permission denied (os error 13)\n");
    assert!(is_error_line(
        "pkg/mod1/parse.py:3:        raise ParseError(\"bad token\")"
    ));
    let pruned = prune("grep", &output, LIMITS).unwrap();
    assert!(pruned.text.len() * 5 < output.len(), "{}", pruned.text);
    assert!(pruned
        .text
        .contains("rg: pkg/locked: Permission denied (os error 13)"));
    assert!(pruned.text.contains("by folder: under pkg/: mod0 "));
    // The same lines from a build are errors, every one kept.
    assert_eq!(prune("bash", &output, LIMITS), None);

    let listing: String = (0..600).map(|i| format!("lib/v{i}/errors.py\n")).collect();
    assert!(is_error_line("lib/v1/errors.py"));
    let pruned = prune("glob", &listing, LIMITS).unwrap();
    assert!(pruned.text.len() * 5 < listing.len());
}

/// OpenCode's own `grep` tool (recorded from 1.18.33): `Found N matches`, then each file as a
/// heading with its matches under it as `  Line N: text`. Matches that mention errors are
/// results, not errors; a complaint of the tool itself still is one.
#[test]
fn matches_of_opencodes_grep_tool_are_results_not_errors() {
    let mut output = String::from("Found 400 matches\n");
    for file in 0..40 {
        output.push_str(&format!("/home/dev/demo/src/mod{file}/parse.ts:\n"));
        for line in 0..10 {
            output.push_str(&format!(
                "  Line {}: throw new Error(\"bad token {line}\");\n",
                line * 7 + 1
            ));
        }
        output.push('\n');
    }
    output.push_str("error: /home/dev/demo/vendor: permission denied\n");
    assert!(is_error_line("  Line 8: throw new Error(\"bad token 1\");"));
    let pruned = prune("grep", &output, LIMITS).unwrap();
    assert!(pruned.text.len() * 3 < output.len(), "{}", pruned.text);
    assert!(pruned
        .text
        .contains("error: /home/dev/demo/vendor: permission denied"));
    // The same lines in a bash output are errors, and nearly all are kept.
    let bash = prune("bash", &output, LIMITS).map_or(output.len(), |p| p.text.len());
    assert!(bash * 2 > output.len(), "{bash} of {}", output.len());
}
