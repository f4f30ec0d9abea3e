//! Real command runs (`tests/fixtures/errors/<ecosystem>/cases.jsonl`, one JSON object a line;
//! the README.md next to each says how its runs were made) through the open-error rules, as a
//! `bash` tool call would reach them.
//!
//! Every corpus has the fields `../record-run.py` writes: `id`; `split` (`rules`: the rules
//! were written from this run; `held-out`: only measured on it); `tool`; `command`; `exit`;
//! `output`; `expect`, the category the failure must be recorded under, or `nothing`; and
//! `summary_has`, fragments the recorded summary must hold. A failing case must record exactly
//! one error, under its category, whose summary holds every fragment; a case that expects
//! `nothing` (a passing run or a query) records nothing.
//!
//! A corpus is held to one of two bars: [`held_out_score`], where every `rules` case passes and
//! at least 95 % of the held-out failures are recorded with no false error; or
//! [`check_every_case`], where the corpus is well formed, every case of both splits passes, and
//! a passing run also clears what the same command recorded before.

use ocmem::domain::session::open_errors::{apply_bash, BashRun};
use ocmem::domain::session::state::OpenError;
use ocmem::domain::shell::command::Category;
use serde::Deserialize;

use super::corpus;

/// The splits a case may be in.
const SPLITS: [&str; 2] = ["rules", "held-out"];

const NOW_MS: i64 = 1_790_000_000_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub split: String,
    /// The tools and their versions the run was made with.
    pub tool: String,
    pub command: String,
    pub exit: i64,
    pub output: String,
    /// A category name, or "nothing".
    pub expect: String,
    pub summary_has: Vec<String>,
}

impl Case {
    /// The category the failure must be recorded under; None when nothing may be recorded.
    pub fn category(&self) -> Option<Category> {
        match self.expect.as_str() {
            "nothing" => None,
            name => {
                Some(Category::parse(name).unwrap_or_else(|| panic!("{}: expect {name}", self.id)))
            }
        }
    }

    fn run(&self) -> BashRun<'_> {
        BashRun {
            command: &self.command,
            output: &self.output,
            exit: Some(self.exit),
        }
    }
}

/// The cases of one corpus, in order.
pub fn load(jsonl: &str) -> Vec<Case> {
    jsonl
        .lines()
        .enumerate()
        .map(|(index, line)| {
            let case: Case =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", index + 1));
            case.category();
            case
        })
        .collect()
}

fn recorded(errors: &[OpenError]) -> Vec<String> {
    errors
        .iter()
        .map(|e| format!("{}: {}", e.category.as_str(), e.summary))
        .collect()
}

/// Ok when the run records exactly one error, under `expected`, naming every fragment.
fn records_the_failure(case: &Case, expected: Category) -> Result<(), String> {
    let mut errors = Vec::new();
    apply_bash(&mut errors, case.run(), NOW_MS);
    let [error] = errors.as_slice() else {
        return Err(format!(
            "expected one {} error, got {:?}",
            expected.as_str(),
            recorded(&errors)
        ));
    };
    let missing: Vec<&String> = case
        .summary_has
        .iter()
        .filter(|fragment| !error.summary.contains(fragment.as_str()))
        .collect();
    if error.category != expected || !missing.is_empty() {
        return Err(format!(
            "expected {} naming {missing:?}, got {:?}",
            expected.as_str(),
            recorded(&errors)
        ));
    }
    Ok(())
}

/// Ok when the run, reaching no error recorded before, records nothing.
fn records_nothing(case: &Case) -> Result<(), String> {
    let mut errors = Vec::new();
    apply_bash(&mut errors, case.run(), NOW_MS);
    match errors.as_slice() {
        [] => Ok(()),
        _ => Err(format!("false error {:?}", recorded(&errors))),
    }
}

/// Ok when the run, after an earlier failure of the same command, records nothing and, if it
/// passed, clears that failure.
fn records_nothing_and_clears(case: &Case) -> Result<(), String> {
    let mut errors: Vec<OpenError> = Vec::new();
    let earlier = BashRun {
        command: &case.command,
        output: "error: earlier failure",
        exit: Some(1),
    };
    let seeded = apply_bash(&mut errors, earlier, NOW_MS - 1).added;
    let changes = apply_bash(&mut errors, case.run(), NOW_MS);
    if !changes.added.is_empty() || !changes.seen_again.is_empty() {
        return Err(format!("false error recorded: {:?}", recorded(&errors)));
    }
    // A command that records nothing (`find … | xargs php -l`) has nothing to clear.
    if case.exit == 0 && !seeded.is_empty() && !errors.is_empty() {
        return Err(format!(
            "a passing run left {} errors open (seeded {})",
            errors.len(),
            seeded.len()
        ));
    }
    Ok(())
}

/// Each split's score, with a case that expects nothing judged by `nothing`.
fn score(
    ecosystem: &str,
    cases: &[Case],
    nothing: fn(&Case) -> Result<(), String>,
) -> corpus::Scores {
    let groups = SPLITS.map(|split| {
        let in_split: Vec<&Case> = cases.iter().filter(|c| c.split == split).collect();
        (split, in_split)
    });
    let counts = ["failures", "recorded", "quiet", "false_errors"];
    corpus::score(&counts, groups, |case, tally, misses| {
        let outcome = match case.category() {
            Some(expected) => records_the_failure(case, expected),
            None => nothing(case),
        };
        if case.category().is_some() {
            tally.add("failures", 1);
            tally.add_if("recorded", outcome.is_ok());
        } else {
            tally.add("quiet", 1);
            tally.add_if("false_errors", outcome.is_err());
        }
        if let Err(why) = outcome {
            misses.push(format!(
                "{ecosystem}/{} ({}, {}, `{}`, exit {}): {why}",
                case.id, case.split, case.tool, case.command, case.exit
            ));
        }
    })
}

/// Checks a corpus against the held-out bar and returns its held-out score line.
pub fn held_out_score(ecosystem: &str, jsonl: &str) -> String {
    let cases = load(jsonl);
    assert!(
        cases.iter().all(|c| SPLITS.contains(&c.split.as_str())),
        "{ecosystem}: unknown split"
    );
    let scores = score(ecosystem, &cases, records_nothing);
    let (rules, held_out) = (scores.group("rules"), scores.group("held-out"));
    let counts = &held_out.tally;
    let score = format!(
        "{ecosystem}: held-out failures recorded {}/{}, false errors {}/{}",
        counts["recorded"], counts["failures"], counts["false_errors"], counts["quiet"]
    );
    assert!(
        rules.misses.is_empty()
            && counts["false_errors"] == 0
            && counts["recorded"] * 100 >= counts["failures"] * 95,
        "{score}\nrules rows failing:\n{}\nheld-out rows failing:\n{}",
        rules.misses.join("\n"),
        held_out.misses.join("\n")
    );
    score
}

/// Checks every case of a corpus and reports the counts per split on stderr
/// (`cargo test --test errors_<ecosystem> -- --nocapture`).
pub fn check_every_case(ecosystem: &str, jsonl: &str) {
    let cases = load(jsonl);
    assert_well_formed(ecosystem, &cases);
    let scores = score(ecosystem, &cases, records_nothing_and_clears);
    eprintln!("{ecosystem}:");
    scores.print();
    let failures = scores.misses();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn assert_well_formed(ecosystem: &str, cases: &[Case]) {
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(
        ids.len(),
        cases.len(),
        "{ecosystem}: case ids must be unique"
    );
    for case in cases {
        let where_from = format!("{ecosystem}/{}", case.id);
        assert!(!case.tool.is_empty(), "{where_from}: no tool");
        assert!(SPLITS.contains(&case.split.as_str()), "{where_from}: split");
        match case.category() {
            Some(_) => {
                assert_ne!(case.exit, 0, "{where_from}: a failure exits non-zero");
                assert!(
                    !case.summary_has.is_empty(),
                    "{where_from}: nothing expected"
                );
                for fragment in &case.summary_has {
                    assert!(
                        case.output.contains(fragment.as_str()),
                        "{where_from}: {fragment:?} is not in the output"
                    );
                }
            }
            None => assert!(case.summary_has.is_empty(), "{where_from}"),
        }
    }
    for split in SPLITS {
        for failing in [true, false] {
            assert!(
                cases
                    .iter()
                    .any(|c| c.split == split && c.category().is_some() == failing),
                "{ecosystem}: the {split} split needs failures and passes"
            );
        }
    }
}
