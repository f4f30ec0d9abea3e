//! The rule table as a whole, and the triggers that keep its regexes from being compiled.

use crate::domain::guard::secrets::prefilter::{occurs_as_name, occurs_at_word_start, Triggers};
use crate::domain::guard::secrets::rules::{rule_regex, RULES};
use crate::domain::guard::secrets::{scrub, secret_kinds};

use super::{assert_scrubs, assert_untouched, fake_key, rule_regex_uses};

/// Every kind a rule reports.
const KINDS: &[&str] = &[
    "private-key",
    "openai",
    "anthropic",
    "aws",
    "github",
    "gitlab",
    "slack",
    "stripe",
    "google",
    "npm",
    "huggingface",
    "jwt",
    "url-password",
    "authorization",
    "password",
    "secret",
    "token",
    "api-key",
    "pin",
    "username",
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
    "atlassian",
    "twilio",
    "sentry",
    "azure",
];

#[test]
fn every_rule_compiles_and_reports_a_known_kind() {
    for (index, rule) in RULES.iter().enumerate() {
        assert!(KINDS.contains(&rule.kind), "{}", rule.kind);
        rule_regex(index);
        let triggers = match rule.triggers {
            Triggers::Exact(literals) | Triggers::Word(literals) => literals,
            Triggers::AnyCase(words) | Triggers::Name(words) => {
                // Matched against lowercased text, so an upper-case letter never matches.
                for written in words.iter().chain([&rule.pattern]) {
                    assert_eq!(*written, written.to_ascii_lowercase(), "{}", rule.kind);
                }
                words
            }
        };
        assert!(!triggers.is_empty(), "{}", rule.kind);
    }
    for kind in KINDS {
        assert!(RULES.iter().any(|rule| rule.kind == *kind), "{kind}");
    }
}

#[test]
fn short_prefixes_trigger_only_at_the_start_of_a_word() {
    assert!(occurs_at_word_start("s.AbC", "s."));
    assert!(occurs_at_word_start("token=s.AbC", "s."));
    assert!(!occurs_at_word_start("all tests. done", "s."));
    assert!(!occurs_at_word_start("TASK", "SK"));
    let before = rule_regex_uses();
    assert_untouched("all tests passed. TASK-12 is done; see the docs.");
    assert_eq!(rule_regex_uses(), before);
    let legacy = format!("s.{}", fake_key(24));
    assert_scrubs(
        &format!("VAULT_TOKEN={legacy}"),
        "VAULT_TOKEN=[REDACTED:vault]",
        &["vault"],
    );
}

#[test]
fn plain_text_compiles_no_regex() {
    let before = rule_regex_uses();
    let plain = "Fixed the flaky retry loop; cargo build now runs in 12s on the CI machine.";
    assert_eq!(scrub(plain), plain);
    assert!(secret_kinds(plain).is_empty());
    assert_eq!(rule_regex_uses(), before);
}

#[test]
fn prose_about_secrets_compiles_no_regex() {
    let before = rule_regex_uses();
    for prose in [
        "rotate the token weekly",
        "the password policy requires 12 characters",
        "OAuth login uses short-lived tokens; the secret manager holds the rest",
        "3 passed; 0 failed; ping the user with the pinned mapping",
    ] {
        assert_untouched(prose);
    }
    assert_eq!(rule_regex_uses(), before);
}

#[test]
fn a_trigger_compiles_only_the_rules_it_triggers() {
    let text = "password: in the vault";
    let before = rule_regex_uses();
    scrub(text);
    let used = rule_regex_uses() - before;
    let triggered = RULES
        .iter()
        .filter(|rule| rule.triggers.occur_in(text, text))
        .count();
    assert_eq!(used, triggered);
    assert!(
        (1..RULES.len()).contains(&used),
        "{used} of {}",
        RULES.len()
    );
}

#[test]
fn a_name_trigger_needs_a_colon_or_equals_sign_after_the_name() {
    assert!(occurs_as_name("db_password_file = x", "password"));
    assert!(occurs_as_name("\"token\": 1", "token"));
    assert!(occurs_as_name("密码：x", "密码"));
    assert!(occurs_as_name("token token_a token_b: x", "token"));
    assert!(!occurs_as_name("the token is weekly: rotate it", "token"));
    assert!(!occurs_as_name("tokens, tokens", "token"));
    assert!(!occurs_as_name("token", "token"));
}

/// The byte-pair shortcut decides as the plain search would: on every text of the secrets
/// corpus and on prose, each rule's triggers occur in it alike.
#[test]
fn byte_pairs_never_hide_a_trigger() {
    use crate::domain::guard::secrets::prefilter::Haystacks;
    let corpus = include_str!("../../../../../tests/fixtures/secrets/corpus.tsv");
    let texts: Vec<String> = corpus
        .lines()
        .flat_map(|line| line.split('\t'))
        .map(str::to_owned)
        .chain(
            [
                "password: in the vault",
                "export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
                "Token: x",
                "api_key=\"sk-live-0000\"",
            ]
            .map(str::to_owned),
        )
        .collect();
    let mut triggered = 0;
    for text in &texts {
        let lowercase = text.to_ascii_lowercase();
        let haystacks = Haystacks::new(text, &lowercase);
        for rule in RULES {
            let plain = rule.triggers.occur_in(text, &lowercase);
            assert_eq!(
                rule.triggers.occur_in_haystacks(&haystacks),
                plain,
                "{text:?}"
            );
            triggered += usize::from(plain);
        }
    }
    assert!(triggered > 100, "only {triggered} triggers compared");
}

/// The shortcut is worth its pass over the text: a literal with a byte pair the text lacks is
/// ruled out without a search.
#[test]
fn byte_pairs_rule_out_literals_the_text_lacks() {
    use crate::domain::guard::secrets::prefilter::BytePairs;
    let pairs = BytePairs::of("the build passed in 3 s");
    assert!(pairs.may_hold("build") && pairs.may_hold("d p") && pairs.may_hold("x"));
    assert!(!pairs.may_hold("ghp_") && !pairs.may_hold("password") && !pairs.may_hold("sk-"));
}
