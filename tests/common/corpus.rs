//! What the corpus tests share: reading a corpus, setting its held-out cases apart, naming
//! every case the rules get wrong, and scoring the rules group by group (a language, a split,
//! a set) into a printed table whose counts each test holds to its own thresholds.

use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// The languages the message corpora (explicit, forget, supersede, recall, user-scope) have a
/// file for.
pub const LANGUAGES: &[&str] = &[
    "en", "zh-hans", "zh-hant", "ja", "ko", "es", "de", "fr", "pt",
];

/// Each line of a JSON-lines text as a `T`; `name` says where the text comes from.
pub fn parse_jsonl<T: DeserializeOwned>(name: &str, text: &str) -> Vec<T> {
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{name} line {}: {e}", index + 1))
        })
        .collect()
}

/// The lines of `tests/fixtures/<corpus>/<language>.jsonl`.
pub fn language_file(corpus: &str, language: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(corpus)
        .join(format!("{language}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_jsonl(&path.display().to_string(), &text)
}

/// The lines of `tests/fixtures/<corpus>/<language>.jsonl`, each of which must name its
/// source, with whether each is held out: every third line of a file is, the rules were
/// written from the others.
pub fn held_out_split(corpus: &str, language: &str) -> Vec<(Value, bool)> {
    language_file(corpus, language)
        .into_iter()
        .enumerate()
        .map(|(index, case)| {
            assert!(
                case["source"].as_str().is_some_and(|s| !s.is_empty()),
                "{case}"
            );
            (case, index % 3 == 2)
        })
        .collect()
}

/// The rows of a tab-separated corpus, past its comments and blank lines: each row's line
/// number and its cells, of which every row has `width`.
pub fn tsv_rows(text: &str, width: usize) -> Vec<(usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.is_empty())
        .map(|(index, line)| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), width, "corpus line {}: {line:?}", index + 1);
            (index + 1, cells)
        })
        .collect()
}

/// Fails naming every case that `wrong` describes as wrong, if there is one.
pub fn assert_every_case<C>(
    cases: impl IntoIterator<Item = C>,
    mut wrong: impl FnMut(&C) -> Option<String>,
) {
    let failures: Vec<String> = cases.into_iter().filter_map(|case| wrong(&case)).collect();
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Each language, with those of its cases that `keep` keeps.
pub fn per_language<C>(
    cases: impl Fn(&str) -> Vec<C>,
    keep: impl Fn(&C) -> bool,
) -> Vec<(&'static str, Vec<C>)> {
    LANGUAGES
        .iter()
        .map(|&language| {
            let mut cases = cases(language);
            cases.retain(|case| keep(case));
            (language, cases)
        })
        .collect()
}

/// The cases of every language that `keep` keeps.
pub fn in_every_language<C>(cases: impl Fn(&str) -> Vec<C>, keep: impl Fn(&C) -> bool) -> Vec<C> {
    per_language(cases, keep)
        .into_iter()
        .flat_map(|(_, cases)| cases)
        .collect()
}

/// For each language, how many of its cases `expects` something, and how many are decoys.
pub fn expecting_and_decoys<C>(
    cases: impl Fn(&str) -> Vec<C>,
    expects: impl Fn(&C) -> bool,
) -> Vec<(&'static str, usize, usize)> {
    per_language(cases, |_| true)
        .into_iter()
        .map(|(language, cases)| {
            let expecting = cases.iter().filter(|case| expects(case)).count();
            (language, expecting, cases.len() - expecting)
        })
        .collect()
}

/// Named counts, in the order they were declared.
#[derive(Clone, Debug)]
pub struct Tally {
    counts: Vec<(&'static str, usize)>,
}

impl Tally {
    fn new(names: &[&'static str]) -> Tally {
        Tally {
            counts: names.iter().map(|&name| (name, 0)).collect(),
        }
    }

    /// Adds `n` to the count `name`, which must be one of those declared.
    pub fn add(&mut self, name: &str, n: usize) {
        let (_, count) = self
            .counts
            .iter_mut()
            .find(|(declared, _)| *declared == name)
            .unwrap_or_else(|| panic!("no count named {name}"));
        *count += n;
    }

    /// Adds one to the count `name` when `yes`.
    pub fn add_if(&mut self, name: &str, yes: bool) {
        self.add(name, usize::from(yes));
    }

    fn absorb(&mut self, other: &Tally) {
        for (name, n) in &other.counts {
            self.add(name, *n);
        }
    }
}

impl std::ops::Index<&str> for Tally {
    type Output = usize;

    fn index(&self, name: &str) -> &usize {
        self.counts
            .iter()
            .find(|(declared, _)| *declared == name)
            .map(|(_, count)| count)
            .unwrap_or_else(|| panic!("no count named {name}"))
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        f.write_str(&counts.join(", "))
    }
}

/// What one group of cases scored: its counts, and a line for each case it got wrong.
pub struct Group {
    pub name: String,
    pub tally: Tally,
    pub misses: Vec<String>,
}

/// What the rules scored on a corpus, group by group and in total.
pub struct Scores {
    pub groups: Vec<Group>,
    pub total: Tally,
}

/// Scores each group of cases: `judge` counts each case into its group's tally, where every
/// count of `counts` starts at zero, and notes each thing it got wrong as a line.
pub fn score<N: fmt::Display, C>(
    counts: &[&'static str],
    groups: impl IntoIterator<Item = (N, Vec<C>)>,
    mut judge: impl FnMut(&C, &mut Tally, &mut Vec<String>),
) -> Scores {
    let mut total = Tally::new(counts);
    let groups = groups
        .into_iter()
        .map(|(name, cases)| {
            let mut tally = Tally::new(counts);
            let mut misses = Vec::new();
            for case in &cases {
                judge(case, &mut tally, &mut misses);
            }
            total.absorb(&tally);
            Group {
                name: name.to_string(),
                tally,
                misses,
            }
        })
        .collect();
    Scores { groups, total }
}

impl Scores {
    /// The group named `name`.
    pub fn group(&self, name: &str) -> &Group {
        self.groups
            .iter()
            .find(|group| group.name == name)
            .unwrap_or_else(|| panic!("no group named {name}"))
    }

    /// Every group's misses.
    pub fn misses(&self) -> Vec<String> {
        self.groups
            .iter()
            .flat_map(|group| group.misses.iter().cloned())
            .collect()
    }

    /// Each group's misses, then its counts.
    pub fn report(&self) -> String {
        let mut lines = Vec::new();
        for group in &self.groups {
            lines.extend(group.misses.iter().cloned());
            lines.push(format!("{}: {}", group.name, group.tally));
        }
        lines.join("\n")
    }

    /// Prints the report and the total on stderr (seen with `--nocapture`).
    pub fn print(&self) {
        eprintln!("{}\ntotal: {}", self.report(), self.total);
    }
}
