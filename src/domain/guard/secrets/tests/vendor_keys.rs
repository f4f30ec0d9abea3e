//! Vendor keys, private keys, passwords in URLs and `Authorization` values.

use crate::domain::guard::secrets::rules::is_discord_bot_token;
use crate::domain::guard::secrets::scrub;

use super::{assert_scrubs, assert_untouched, fake_key};

#[test]
fn the_acceptance_example_loses_its_openai_key() {
    let key = format!("sk-proj-{}", &"q8Ry2LmZ0vTx".repeat(4)[..40]);
    let text = format!("API key is {key}");
    let scrubbed = scrub(&text);
    assert!(scrubbed.contains("[REDACTED:openai]"), "{scrubbed}");
    assert!(!scrubbed.contains(&key));
    assert_scrubs(&text, "API key is [REDACTED:openai]", &["openai"]);
}

#[test]
fn every_vendor_key_is_replaced_whole() {
    let examples = [
        (format!("sk-{}", fake_key(48)), "openai"),
        (format!("sk-proj-{}", fake_key(40)), "openai"),
        (format!("sk-svcacct-{}", fake_key(40)), "openai"),
        (format!("sk-ant-api03-{}", fake_key(80)), "anthropic"),
        (format!("AKIA{}", "Z9".repeat(8)), "aws"),
        (format!("ASIA{}", "Q7".repeat(8)), "aws"),
        (format!("ghp_{}", fake_key(36)), "github"),
        (format!("gho_{}", fake_key(36)), "github"),
        (format!("ghs_{}", fake_key(36)), "github"),
        (
            format!("github_pat_{}_{}", fake_key(22), fake_key(59)),
            "github",
        ),
        (format!("glpat-{}", fake_key(20)), "gitlab"),
        (
            format!("xoxb-1234567890-9876543210-{}", fake_key(24)),
            "slack",
        ),
        (format!("xoxp-{}", fake_key(30)), "slack"),
        (format!("sk_live_{}", fake_key(24)), "stripe"),
        (format!("rk_test_{}", fake_key(16)), "stripe"),
        (format!("AIza{}", fake_key(35)), "google"),
        (format!("npm_{}", fake_key(36)), "npm"),
        (format!("hf_{}", fake_key(34)), "huggingface"),
        (
            format!(
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{}",
                fake_key(43)
            ),
            "jwt",
        ),
    ];
    for (key, kind) in examples {
        let text = format!("the key ({key}) was printed to the log");
        let expected = format!("the key ([REDACTED:{kind}]) was printed to the log");
        assert_scrubs(&text, &expected, &[kind]);
    }
}

#[test]
fn anthropic_keys_are_not_reported_as_openai() {
    let text = format!("ANTHROPIC_API_KEY=sk-ant-api03-{}", fake_key(60));
    assert_scrubs(
        &text,
        "ANTHROPIC_API_KEY=[REDACTED:anthropic]",
        &["anthropic"],
    );
}

#[test]
fn aws_secret_access_keys_keep_their_name() {
    let text = format!("aws_secret_access_key = {}", fake_key(40));
    assert_scrubs(&text, "aws_secret_access_key = [REDACTED:aws]", &["aws"]);
    let env = format!("export AWS_SECRET_ACCESS_KEY=\"{}\"", fake_key(40));
    assert_scrubs(
        &env,
        "export AWS_SECRET_ACCESS_KEY=\"[REDACTED:aws]\"",
        &["aws"],
    );
}

#[test]
fn slack_webhooks_keep_their_host() {
    let text = format!(
        "curl -X POST https://hooks.slack.com/services/T0AB3CD5E/B0FG7HI9J/{}",
        fake_key(24)
    );
    assert_scrubs(
        &text,
        "curl -X POST https://hooks.slack.com/services/[REDACTED:slack]",
        &["slack"],
    );
}

#[test]
fn private_key_blocks_are_replaced_whole() {
    let block = format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n{}\n-----END RSA PRIVATE KEY-----",
        fake_key(64),
        fake_key(40)
    );
    let text = format!("key:\n{block}\nthen the deploy failed");
    assert_scrubs(
        &text,
        "key:\n[REDACTED:private-key]\nthen the deploy failed",
        &["private-key"],
    );
    for label in ["EC ", "OPENSSH ", "DSA ", "ENCRYPTED ", ""] {
        let block = format!(
            "-----BEGIN {label}PRIVATE KEY-----\n{}\n-----END {label}PRIVATE KEY-----",
            fake_key(64)
        );
        assert_scrubs(
            &format!("{block} ok"),
            "[REDACTED:private-key] ok",
            &["private-key"],
        );
    }
    let pgp = format!(
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{}\n-----END PGP PRIVATE KEY BLOCK-----",
        fake_key(64)
    );
    assert_scrubs(&pgp, "[REDACTED:private-key]", &["private-key"]);
}

#[test]
fn a_private_key_without_its_end_line_runs_to_the_end_of_the_text() {
    let text = format!(
        "pasted: -----BEGIN OPENSSH PRIVATE KEY-----\n{}\n{}",
        fake_key(70),
        fake_key(30)
    );
    assert_scrubs(&text, "pasted: [REDACTED:private-key]", &["private-key"]);
}

#[test]
fn public_keys_and_certificates_are_not_private_keys() {
    assert_untouched("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----");
    assert_untouched("-----BEGIN CERTIFICATE-----");
}

#[test]
fn url_passwords_keep_scheme_user_and_host() {
    assert_scrubs(
        "postgres://app:S3cretPw!@db:5432/x",
        "postgres://app:[REDACTED:url-password]@db:5432/x",
        &["url-password"],
    );
    assert_scrubs(
        "redis://:hunter2@cache:6379",
        "redis://:[REDACTED:url-password]@cache:6379",
        &["url-password"],
    );
    // A vendor key as the password reports its vendor.
    let key = fake_key(36);
    assert_scrubs(
        &format!("git clone https://bot:ghp_{key}@github.com/o/r.git"),
        "git clone https://bot:[REDACTED:github]@github.com/o/r.git",
        &["github"],
    );
}

#[test]
fn urls_without_a_password_are_left_alone() {
    assert_untouched("https://example.com:8443/path?q=1");
    assert_untouched("ssh://git@github.com/o/r.git");
    assert_untouched("postgres://app:${DB_PASSWORD}@db/x");
    assert_untouched("postgres://user:password@localhost/db");
    assert_untouched("mysql://root:****@db/x");
}

#[test]
fn authorization_headers_keep_the_label_and_scheme() {
    let token = fake_key(32);
    assert_scrubs(
        &format!("curl -H \"Authorization: Bearer {token}\" https://api"),
        "curl -H \"Authorization: Bearer [REDACTED:authorization]\" https://api",
        &["authorization"],
    );
    assert_scrubs(
        "authorization: Basic dXNlcjpodW50ZXIy",
        "authorization: Basic [REDACTED:authorization]",
        &["authorization"],
    );
    assert_scrubs(
        &format!("Authorization: Token {token}"),
        "Authorization: Token [REDACTED:authorization]",
        &["authorization"],
    );
    assert_scrubs(
        &format!("sent Bearer {token} to the proxy"),
        "sent Bearer [REDACTED:authorization] to the proxy",
        &["authorization"],
    );
}

#[test]
fn a_bearer_jwt_reports_jwt() {
    let jwt = format!(
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{}",
        fake_key(43)
    );
    assert_scrubs(
        &format!("Authorization: Bearer {jwt}"),
        "Authorization: Bearer [REDACTED:jwt]",
        &["jwt"],
    );
}

#[test]
fn prose_about_authorization_is_left_alone() {
    assert_untouched("the bearer token is rotated weekly");
    assert_untouched("Authorization: required for every endpoint");
    assert_untouched("Authorization: Bearer <token>");
    assert_untouched("Authorization: Bearer ${API_TOKEN}");
    assert_untouched("Bearer authentication failed");
}

#[test]
fn discord_bot_tokens_are_told_from_dotted_identifiers_by_their_id() {
    let id = "MTE4NzY1NDMyMTA5ODc2NTQzMg"; // base64 of 1187654321098765432
    let token = format!("{id}.GaBc3d.{}", fake_key(38));
    assert!(is_discord_bot_token(&token));
    assert_scrubs(
        &format!("client.run('{token}')"),
        "client.run('[REDACTED:discord]')",
        &["discord"],
    );
    assert!(!is_discord_bot_token("MyVeryLongClassNameHereX.method.x"));
    assert_untouched(&format!("MyVeryLongClassNameHereX.method.{}", fake_key(30)));
    assert_untouched(&format!("NotAnIdButLooksLikeOne12.aBcDeF.{}", fake_key(30)));
}
