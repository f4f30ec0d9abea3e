//! Every row of `tests/fixtures/secrets/corpus.tsv` (made-up credentials in each vendor's
//! format, and decoys; `generate.py` next to it says how they were made): each credential is
//! replaced and reports its kind, each decoy comes out unchanged, and scrubbing twice changes
//! nothing.

use std::borrow::Cow;

use ocmem::domain::guard::secrets::{scrub, secret_kinds};

mod common;

use common::corpus;

const CORPUS: &str = include_str!("fixtures/secrets/corpus.tsv");

struct Row<'a> {
    line: usize,
    expect: &'a str,
    kind: &'a str,
    text: &'a str,
    hidden: &'a str,
}

fn rows() -> Vec<Row<'static>> {
    corpus::tsv_rows(CORPUS, 4)
        .into_iter()
        .map(|(line, cells)| Row {
            line,
            expect: cells[0],
            kind: cells[1],
            text: cells[2],
            hidden: cells[3],
        })
        .collect()
}

#[test]
fn every_credential_in_the_corpus_is_replaced_with_its_kind() {
    let credentials = rows().into_iter().filter(|row| row.expect == "scrub");
    corpus::assert_every_case(credentials, |row| {
        let scrubbed = scrub(row.text);
        let marker = format!("[REDACTED:{}]", row.kind);
        let kinds = secret_kinds(row.text);
        if scrubbed.contains(row.hidden) || !scrubbed.contains(&marker) || kinds != [row.kind] {
            Some(format!(
                "line {} ({}): {:?} -> {:?}, kinds {:?}",
                row.line, row.kind, row.text, scrubbed, kinds
            ))
        } else if !matches!(scrub(&scrubbed), Cow::Borrowed(_)) {
            Some(format!(
                "line {}: scrubbing again changed {scrubbed:?}",
                row.line
            ))
        } else {
            None
        }
    });
}

#[test]
fn every_decoy_in_the_corpus_is_left_alone() {
    let decoys = rows().into_iter().filter(|row| row.expect == "keep");
    corpus::assert_every_case(decoys, |row| {
        let scrubbed = scrub(row.text);
        (!matches!(scrubbed, Cow::Borrowed(_)) || !secret_kinds(row.text).is_empty())
            .then(|| format!("line {}: {:?} -> {:?}", row.line, row.text, scrubbed))
    });
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
