//! Several secrets in one text: order, overlaps, rejected values and the single pass.

use std::borrow::Cow;

use crate::domain::guard::secrets::redactions::{find_redactions, replace};
use crate::domain::guard::secrets::{scrub, secret_kinds};

use super::{assert_scrubs, fake_key};

#[test]
fn several_secrets_in_one_text_are_all_replaced_in_order() {
    let github = format!("ghp_{}", fake_key(36));
    let openai = format!("sk-proj-{}", fake_key(40));
    let text = format!(
        "export GITHUB_TOKEN={github}\nexport OPENAI_API_KEY={openai}\n\
         psql postgres://app:S3cretPw!@db/x\npassword: Hunter2024! and again {github}"
    );
    assert_scrubs(
        &text,
        "export GITHUB_TOKEN=[REDACTED:github]\nexport OPENAI_API_KEY=[REDACTED:openai]\n\
         psql postgres://app:[REDACTED:url-password]@db/x\n\
         password: [REDACTED:password] and again [REDACTED:github]",
        &["github", "openai", "url-password", "password"],
    );
}

#[test]
fn a_secret_starting_inside_another_and_running_past_it_goes_whole() {
    let text = format!(
        "token=Abc123-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY----- done",
        fake_key(64)
    );
    assert_scrubs(&text, "token=[REDACTED:token] done", &["token"]);
}

#[test]
fn a_secret_inside_a_rejected_value_is_still_found() {
    assert_scrubs(
        "password=load_password(password=Hunter2024!)",
        "password=load_password(password=[REDACTED:password])",
        &["password"],
    );
    // Not a reference: a reference is followed by nothing but a default.
    assert_scrubs(
        "password=$DB_PASSWORD=Hunter2024!",
        "password=[REDACTED:password]",
        &["password"],
    );
}

/// Texts where a careless pattern finds more once its neighbour is replaced.
#[test]
fn one_pass_finds_everything_in_known_hard_cases() {
    let key = fake_key(36);
    for text in [
        format!("Bearer a1b2c3d4.ghp_{key}"),
        format!(
            "aws_secret_access_key={}eyJabcdefgh.ijkl.mnopqrst",
            "A".repeat(40)
        ),
        "password=$DB_PASSWORD=Hunter2024!".to_string(),
    ] {
        assert_one_pass_is_enough(&text);
    }
}

/// A key glued to the end of another (found by the property tests): the second shows only once
/// the first is replaced, so it takes a second pass; `scrub` makes it, and names the kinds in
/// the order of their replacements.
#[test]
fn a_key_glued_to_the_end_of_another_is_found_by_the_next_pass() {
    let linear = "lin_api_0AA0AaaaA00AAa0aa0aaaaaaaAaAAaaaaa0aA000";
    let text = format!("{linear}sk-a00a0a000AaA00A0A00a");
    let once = replace(&text, &find_redactions(&text));
    assert_eq!(once, "[REDACTED:linear]sk-a00a0a000AaA00A0A00a");
    let scrubbed = scrub(&text);
    assert!(!scrubbed.contains("sk-a00a"), "{scrubbed}");
    assert!(find_redactions(&scrubbed).is_empty());
    let text = format!("{linear}sk-a000AaA00A0A00ahooks.slack.com/services/password");
    let scrubbed = scrub(&text);
    let mut at: Vec<(usize, &str)> = secret_kinds(&text)
        .into_iter()
        .map(|kind| (scrubbed.find(&format!("[REDACTED:{kind}]")).unwrap(), kind))
        .collect();
    let listed: Vec<&str> = at.iter().map(|(_, kind)| *kind).collect();
    at.sort();
    let in_text: Vec<&str> = at.iter().map(|(_, kind)| *kind).collect();
    assert!(listed.len() >= 2, "{scrubbed}: {listed:?}");
    assert_eq!(listed, in_text, "{scrubbed}");
}

#[track_caller]
fn assert_one_pass_is_enough(text: &str) {
    let once = replace(text, &find_redactions(text));
    let again = find_redactions(&once);
    assert!(
        again.is_empty(),
        "{text:?} -> {once:?} still has {:?}",
        again[0].kind
    );
}

#[test]
fn text_without_secrets_is_borrowed() {
    let text = "cargo test: 3 passed, 1 failed (src/lib.rs:12)";
    assert!(matches!(scrub(text), Cow::Borrowed(t) if std::ptr::eq(t, text)));
    assert!(matches!(scrub(""), Cow::Borrowed("")));
}
