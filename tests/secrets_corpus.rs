//! Every row of `tests/fixtures/secrets/corpus.tsv` (made-up credentials in each vendor's
//! format, and decoys; `generate.py` next to it says how they were made): each credential is
//! replaced and reports its kind, each decoy comes out unchanged, and scrubbing twice changes
//! nothing.

use std::borrow::Cow;

use ocmem::domain::guard::secrets::{scrub, secret_kinds};

const CORPUS: &str = include_str!("fixtures/secrets/corpus.tsv");

struct Row<'a> {
    line: usize,
    expect: &'a str,
    kind: &'a str,
    text: &'a str,
    hidden: &'a str,
}

fn rows() -> Vec<Row<'static>> {
    CORPUS
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.is_empty())
        .map(|(index, line)| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 4, "corpus line {}: {line:?}", index + 1);
            Row {
                line: index + 1,
                expect: cells[0],
                kind: cells[1],
                text: cells[2],
                hidden: cells[3],
            }
        })
        .collect()
}

#[test]
fn every_credential_in_the_corpus_is_replaced_with_its_kind() {
    let mut failures = Vec::new();
    for row in rows().iter().filter(|row| row.expect == "scrub") {
        let scrubbed = scrub(row.text);
        let marker = format!("[REDACTED:{}]", row.kind);
        let kinds = secret_kinds(row.text);
        if scrubbed.contains(row.hidden) || !scrubbed.contains(&marker) || kinds != [row.kind] {
            failures.push(format!(
                "line {} ({}): {:?} -> {:?}, kinds {:?}",
                row.line, row.kind, row.text, scrubbed, kinds
            ));
        } else if !matches!(scrub(&scrubbed), Cow::Borrowed(_)) {
            failures.push(format!(
                "line {}: scrubbing again changed {scrubbed:?}",
                row.line
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_decoy_in_the_corpus_is_left_alone() {
    let mut failures = Vec::new();
    for row in rows().iter().filter(|row| row.expect == "keep") {
        let scrubbed = scrub(row.text);
        if !matches!(scrubbed, Cow::Borrowed(_)) || !secret_kinds(row.text).is_empty() {
            failures.push(format!(
                "line {}: {:?} -> {:?}",
                row.line, row.text, scrubbed
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_corpus_has_credentials_and_decoys_of_every_new_format() {
    let rows = rows();
    assert!(rows
        .iter()
        .all(|row| matches!(row.expect, "scrub" | "keep")));
    for kind in [
        "sendgrid",
        "digitalocean",
        "shopify",
        "pypi",
        "docker",
        "telegram",
        "discord",
        "mailgun",
        "square",
        "vault",
        "age",
        "linear",
        "newrelic",
        "postman",
        "grafana",
        "slack",
        "atlassian",
        "twilio",
        "azure",
        "sentry",
        "password",
        "token",
        "secret",
    ] {
        assert!(
            rows.iter().any(|row| row.kind == kind),
            "no {kind} credential in the corpus"
        );
    }
    assert!(rows.iter().filter(|row| row.expect == "keep").count() >= 40);
}
