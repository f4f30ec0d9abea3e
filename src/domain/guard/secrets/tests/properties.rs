//! Property tests: idempotence, one pass, kinds, triggers, and generated secrets among prose.

use std::borrow::Cow;

use proptest::prelude::*;

use crate::domain::guard::secrets::redactions::find_redactions;
use crate::domain::guard::secrets::rules::{rule_regex, RULES};
use crate::domain::guard::secrets::REDACTED_PREFIX;
use crate::domain::guard::secrets::{scrub, secret_kinds};

/// Pieces that combine into near-misses and look-alikes of every rule.
const FRAGMENTS: &[&str] = &[
    "password",
    "PASSWORD",
    "DB_",
    "_KEY",
    "token",
    "secret",
    "api_key",
    "auth",
    "Authorization",
    "Bearer ",
    "PIN",
    "pin",
    "login",
    "username",
    "user name",
    "密码",
    "用户名",
    "パスワード",
    "비밀번호",
    "暗証番号",
    "PIN码",
    ":",
    "：",
    "=",
    ":=",
    "=>",
    "\"",
    "'",
    "`",
    " ",
    "\t",
    "\n",
    "_",
    "-",
    ".",
    "@",
    "://",
    "postgres",
    "https",
    "sk-",
    "sk-ant-",
    "sk-proj-",
    "ghp_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "hooks.slack.com/services/",
    "sk_live_",
    "AIza",
    "npm_",
    "hf_",
    "AKIA",
    "eyJ",
    "aws_secret_access_key",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "[REDACTED:",
    "]",
    "[REDACTED:openai]",
    "$",
    "${",
    "}",
    "<",
    ">",
    "(",
    ")",
    "[",
    "*",
    "x",
    "Ab3dE5fG7h",
    "1234",
    "4829",
    "!",
    ",",
    ";",
    "&",
    "/",
    "?",
    "#",
    "%",
    "，",
    "é",
    "ſ",
    "a1b2c3d4.",
    "AAAAAAAAAAAAAAAAAAAA",
    "ユーザー名",
    "사용자 이름",
    "아이디",
    "PIN 번호",
    "pincode",
    "口令",
    "Login",
    "\"token\"",
    "Pässwörd",
    "\u{3000}",
    "！",
    "SG.",
    "dop_v1_",
    "shpat_",
    "pypi-AgE",
    "dckr_pat_",
    ":A",
    "bot",
    "MT",
    "Nz",
    "discord.com/api/webhooks/",
    "key-",
    "mailgun_key=",
    "EAAA",
    "sq0csp-",
    "hvs.",
    "s.",
    "AGE-SECRET-KEY-1",
    "lin_api_",
    "NRAK-",
    "PMAK-",
    "glc_",
    "glsa_",
    "eyJrIjoi",
    "xapp-1-",
    "ATATT3",
    "SK",
    "AC",
    "sntryu_",
    "sentry.io",
    "AccountKey=",
    "$(",
    "%(",
    "{{",
    "0123456789abcdef0123456789abcdef",
];

fn fragment_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
        2 => "[A-Za-z0-9]{1,45}",
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// Prose, including every documented non-secret, to put between secrets.
const PROSE: &[&str] = &[
    "rotate the token weekly",
    "the password policy requires 12 characters",
    "os.environ['API_KEY']",
    "os.getenv(\"TOKEN\")",
    "process.env.GITHUB_TOKEN",
    "${DB_PASSWORD}",
    "$SECRET",
    "get_token()",
    "password = input()",
    "token: string",
    "api_key=None",
    "password=<redacted>",
    "password: ********",
    "password: changeme",
    "TOKEN_LIMIT=4096",
    "the sk- prefix",
    "[REDACTED:openai]",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "id 123e4567-e89b-12d3-a456-426614174000",
    "token=<your-token>",
    "token=$(cat token.txt)",
    "password=%DB_PASSWORD%",
    "token: ${{ secrets.GH_TOKEN }}",
    "secret = config.auth.secret",
    "all tests. TASK done; key-value store",
    "错误：连接超时",
    "パスワードを忘れた",
    "cargo test failed",
    "",
];

/// Key characters without `x`, which would read as a mask like `xxxx`: always some upper
/// case, lower case and digits.
fn key_body(len: usize) -> impl Strategy<Value = String> {
    let pattern = format!("[A-WYZ][a-wyz][0-9][A-WYZa-wyz0-9]{{{}}}", len - 3);
    proptest::string::string_regex(&pattern).expect("a valid pattern")
}

/// A password-like value: a capitalised word, digits and maybe a symbol.
fn password_value() -> impl Strategy<Value = String> {
    "[A-WZ][a-wyz]{4,7}[0-9]{3,4}[!^*+]?"
}

/// A secret in context, the part of it that must disappear, and the kind it reports.
fn secret() -> impl Strategy<Value = (String, String, &'static str)> {
    let whole = |prefix: &'static str, len: usize, kind: &'static str| {
        key_body(len).prop_map(move |body| {
            let key = format!("{prefix}{body}");
            (key.clone(), key, kind)
        })
    };
    let value = |template: &'static str, kind: &'static str| {
        password_value().prop_map(move |value| (template.replace('#', &value), value, kind))
    };
    prop_oneof![
        whole("sk-proj-", 40, "openai"),
        whole("sk-", 48, "openai"),
        whole("sk-ant-api03-", 60, "anthropic"),
        "AKIA[A-Z0-9]{16}".prop_map(|key| (key.clone(), key, "aws")),
        key_body(40).prop_map(|body| (format!("aws_secret_access_key = {body}"), body, "aws")),
        whole("ghp_", 36, "github"),
        whole("github_pat_", 82, "github"),
        whole("glpat-", 20, "gitlab"),
        whole("xoxb-", 40, "slack"),
        key_body(24).prop_map(|body| (
            format!("https://hooks.slack.com/services/T0AB3CD5E/B0FG7HI9J/{body}"),
            body,
            "slack"
        )),
        whole("sk_live_", 24, "stripe"),
        whole("AIza", 35, "google"),
        whole("npm_", 36, "npm"),
        whole("hf_", 34, "huggingface"),
        (key_body(20), key_body(43)).prop_map(|(claims, signature)| {
            let jwt = format!("eyJhbGciOiJIUzI1NiJ9.eyJ{claims}.{signature}");
            (jwt.clone(), jwt, "jwt")
        }),
        value("postgres://app:#@db:5432/app", "url-password"),
        key_body(32).prop_map(|token| (
            format!("Authorization: Bearer {token}"),
            token,
            "authorization"
        )),
        key_body(32).prop_map(|token| (format!("Bearer {token}"), token, "authorization")),
        value("DB_PASSWORD=\"#\"", "password"),
        value("{\"password\": \"#\"}", "password"),
        value("client_secret: #", "secret"),
        value("API_KEY=#", "api-key"),
        value("github_token=#", "token"),
        value("密码：#", "password"),
        value("パスワード：#", "password"),
        value("비밀번호: #", "password"),
        (key_body(22), key_body(43)).prop_map(|(id, key)| {
            let token = format!("SG.{id}.{key}");
            (token.clone(), token, "sendgrid")
        }),
        whole("hvs.", 90, "vault"),
        "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}".prop_map(|key| (key.clone(), key, "age")),
        ("[1-9][0-9]{8}", key_body(33)).prop_map(|(id, key)| {
            let token = format!("{id}:AA{key}");
            (token.clone(), token, "telegram")
        }),
        value("password=$#", "password"),
        value("token=(#)", "token"),
        value("secret=<#>", "secret"),
        value("password=#&#", "password"),
        "[0-9]{8,12}".prop_map(|pin| (format!("PIN：{pin}"), pin, "pin")),
        "[a-w]{5,8}[0-9]{2}".prop_map(|name| (format!("用户名：{name}"), name, "username")),
        key_body(64).prop_map(|body| (
            format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----"),
            body,
            "private-key"
        )),
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&[" ", "\n", "\t", " \n"][..])
}

/// The kinds `[REDACTED:<kind>]` in `text` name, in order, deduplicated.
fn placeholder_kinds(text: &str) -> Vec<String> {
    let mut kinds: Vec<String> = Vec::new();
    for (start, _) in text.match_indices(REDACTED_PREFIX) {
        let rest = &text[start + REDACTED_PREFIX.len()..];
        let kind = rest.split(']').next().unwrap_or_default().to_string();
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

proptest! {
    #[test]
    fn scrub_is_idempotent_on_arbitrary_text(text in any::<String>()) {
        let once = scrub(&text).into_owned();
        prop_assert_eq!(scrub(&once), once.as_str());
    }

    #[test]
    fn scrub_is_idempotent_on_secret_look_alikes(text in fragment_soup()) {
        let once = scrub(&text).into_owned();
        let twice = scrub(&once);
        prop_assert!(matches!(twice, Cow::Borrowed(_)), "{:?} -> {:?} -> {:?}", text, once, twice);
    }

    #[test]
    fn scrubbing_leaves_nothing_to_find(text in fragment_soup()) {
        // One pass may not be enough (a key glued to the end of another only shows once the
        // first is replaced), but the passes of `scrub` always end with nothing left.
        let scrubbed = scrub(&text);
        let again = find_redactions(&scrubbed);
        prop_assert!(again.is_empty(), "{:?} -> {:?}", text, scrubbed);
    }

    #[test]
    fn secret_kinds_names_what_scrub_replaced(text in fragment_soup()) {
        // Only the placeholders scrub writes: none may be there before.
        let text = text.replace(REDACTED_PREFIX, "[REDACTED ");
        let scrubbed = scrub(&text);
        let kinds = secret_kinds(&text);
        prop_assert_eq!(kinds.is_empty(), matches!(scrubbed, Cow::Borrowed(_)));
        prop_assert_eq!(placeholder_kinds(&scrubbed), kinds);
    }

    #[test]
    fn every_match_contains_one_of_its_rules_triggers(text in fragment_soup()) {
        let lowercase = text.to_ascii_lowercase();
        for (index, rule) in RULES.iter().enumerate() {
            let haystack = rule.triggers.haystack(&text, &lowercase);
            for found in rule_regex(index).find_iter(haystack.as_bytes()) {
                let matched = haystack.get(found.range());
                prop_assert!(matched.is_some(), "{} split a character", rule.kind);
                let matched = matched.unwrap_or_default();
                prop_assert!(
                    rule.triggers.occur_in(matched, matched),
                    "{} matched {:?}", rule.kind, matched
                );
            }
        }
    }

    #[test]
    fn generated_secrets_among_prose_disappear(
        parts in prop::collection::vec(
            (prop::sample::select(PROSE), separator(), secret(), separator()),
            1..6,
        )
    ) {
        let mut text = String::new();
        let mut expected_kinds: Vec<&str> = Vec::new();
        for (prose, before, (secret, _, kind), after) in &parts {
            text.push_str(prose);
            text.push_str(before);
            text.push_str(secret);
            text.push_str(after);
            if !expected_kinds.contains(kind) {
                expected_kinds.push(kind);
            }
        }
        let scrubbed = scrub(&text);
        for (_, _, (_, hidden, _), _) in &parts {
            prop_assert!(!scrubbed.contains(hidden.as_str()), "{:?} left in {:?}", hidden, scrubbed);
        }
        prop_assert_eq!(secret_kinds(&text), expected_kinds);
        prop_assert!(matches!(scrub(&scrubbed), Cow::Borrowed(_)));
    }

    #[test]
    fn prose_alone_is_untouched(
        parts in prop::collection::vec((prop::sample::select(PROSE), separator()), 0..12)
    ) {
        let text: String = parts.iter().flat_map(|(prose, sep)| [*prose, *sep]).collect();
        prop_assert!(matches!(scrub(&text), Cow::Borrowed(_)), "{:?}", scrub(&text));
    }
}
