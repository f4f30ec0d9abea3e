//! Every row of `tests/fixtures/team-gate/corpus.tsv`: each fact a team shares passes the gate
//! of the team file, and each text that holds, or still looks like, a secret or an instruction
//! is refused for the reason the row names.

mod common;

use common::corpus;
use ocmem::domain::memory::team::gate::{refusal, Refusal};

const CORPUS: &str = include_str!("fixtures/team-gate/corpus.tsv");

fn rows() -> Vec<(usize, &'static str, &'static str)> {
    corpus::tsv_rows(CORPUS, 3)
        .into_iter()
        .map(|(line, cells)| (line, cells[0], cells[1]))
        .collect()
}

fn class(refused: &Refusal) -> &'static str {
    match refused {
        Refusal::Secret(_) => "secret",
        Refusal::Redacted => "redacted",
        Refusal::LooksSecret(_) => "looks-secret",
        Refusal::Injection(_) => "injection",
    }
}

#[test]
fn each_row_passes_or_is_refused_for_its_reason() {
    let rows = rows();
    let passing = rows.iter().filter(|(_, e, _)| *e == "pass").count();
    assert!(
        passing >= 10 && rows.len() - passing >= 10,
        "corpus too small"
    );
    corpus::assert_every_case(rows, |&(line, expect, text)| {
        let got = refusal(text, None);
        let got_class = got.as_ref().map_or("pass", class);
        let want = expect.strip_prefix("refuse:").unwrap_or(expect);
        (got_class != want).then(|| format!("line {line}: want {want}, got {got:?}: {text}"))
    });
}

#[test]
fn a_refused_text_is_refused_as_a_rationale_too() {
    for (line, expect, text) in rows() {
        if expect != "pass" {
            assert!(
                refusal("Deploys go through the release job", Some(text)).is_some(),
                "line {line}: {text}"
            );
        }
    }
}
