//! The table of credential formats: every rule the scrubber applies, and the checks some
//! rules make on what they matched.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

use super::placeholders::{is_not_placeholder, looks_like_secret};
use super::prefilter::Triggers;

/// One credential format.
pub(super) struct Rule {
    /// Reported as `[REDACTED:<kind>]` and by `secret_kinds`.
    pub(super) kind: &'static str,
    /// The rule applies only to text that contains one of these.
    pub(super) triggers: Triggers,
    /// Where it has a group named `secret`, only that value is replaced (see
    /// `redactions::value_range`).
    pub(super) pattern: &'static str,
    /// A last check on the text that would be replaced.
    pub(super) accepts: fn(&str) -> bool,
}

/// `<one of $names>`, an optional closing quote, `:`/`=`/`:=`/`==`/`=>`, then the value. The
/// name may have any prefix (`DB_PASSWORD`, `github_token`) and `_`/`.`/`-` suffixes
/// (`TOKEN_LIMIT`) but no glued ones (`author`, `tokenizer`); only the value is replaced. A
/// quoted value runs to its closing quote, an unquoted one to a quote or a delimiter of the
/// code around it; neither contains whitespace.
macro_rules! assignment {
    ($names:literal) => {
        concat!(
            "(?:",
            $names,
            r")(?:[_.-][a-z0-9]+)*",
            r#"["']?[ \t]*(?::=|:|={1,3}>?)[ \t]*"#,
            r#"(?<secret>"[^"\s]+"|'[^'\s]+'|["']?[^\s"'`,;&)\]}]+)"#,
        )
    };
}

/// `<one of $labels>`, an optional closing quote, an ASCII or full-width colon, then the value:
/// quoted, or running to whitespace or a quote.
macro_rules! labelled {
    ($labels:literal) => {
        concat!(
            "(?:",
            $labels,
            r#")["']?[ \t]*(?::|：)[ \t]*"#,
            r#"(?<secret>"[^"\s]+"|'[^'\s]+'|["']?[^\s"'`]+)"#,
        )
    };
}

/// Every rule, in priority order (see the module documentation).
///
/// Patterns are compiled for bytes with Unicode off, which makes compiling them several times
/// faster: `\b`, `\s` and classes are ASCII-only, a class cannot name a non-ASCII character
/// (write `(?::|：)`, not `[:：]`), and a non-ASCII character simply is not a delimiter, so a
/// value runs through it. A value then ends at whitespace or full-width punctuation (see
/// `redactions::value_range`), which CJK text puts straight after it.
pub(super) const RULES: &[Rule] = &[
    // The END line may be missing (a truncated paste): then the key runs to the end of the text.
    Rule {
        kind: "private-key",
        triggers: Triggers::Exact(&["-----BEGIN"]),
        pattern: r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
        accepts: anything,
    },
    // Before `openai`, whose `sk-` prefix it shares.
    Rule {
        kind: "anthropic",
        triggers: Triggers::Exact(&["sk-ant-"]),
        pattern: r"\bsk-ant-[A-Za-z0-9_-]{20,}",
        accepts: anything,
    },
    Rule {
        kind: "openai",
        triggers: Triggers::Exact(&["sk-"]),
        pattern: r"\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}",
        accepts: is_random_key,
    },
    Rule {
        kind: "aws",
        triggers: Triggers::Exact(&["AKIA", "ASIA"]),
        pattern: r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
        accepts: anything,
    },
    Rule {
        kind: "aws",
        triggers: Triggers::Name(&["aws_secret", "awssecret"]),
        pattern: r#"aws_?secret_?access_?key["']?[ \t]*[:=][ \t]*["']?(?<secret>[a-z0-9/+=]{40,})"#,
        accepts: anything,
    },
    Rule {
        kind: "github",
        triggers: Triggers::Exact(&["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]),
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        accepts: anything,
    },
    Rule {
        kind: "gitlab",
        triggers: Triggers::Exact(&["glpat-"]),
        pattern: r"\bglpat-[A-Za-z0-9_-]{20,}",
        accepts: anything,
    },
    Rule {
        kind: "slack",
        triggers: Triggers::Exact(&["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe"]),
        pattern: r"\b(?:xox[bpars]-|xoxe\.xox[bp]-|xoxe-)[A-Za-z0-9-]{10,}",
        accepts: anything,
    },
    // App-level tokens: `xapp-<digit>-<app id>-<digits>-<hex>`.
    Rule {
        kind: "slack",
        triggers: Triggers::Exact(&["xapp-"]),
        pattern: r"\bxapp-[0-9]+-[A-Z0-9]+-[0-9]+-[A-Za-z0-9]{20,}",
        accepts: anything,
    },
    // The path is the credential; the host stays to say what it was.
    Rule {
        kind: "slack",
        triggers: Triggers::Exact(&["hooks.slack.com/services/"]),
        pattern: r"hooks\.slack\.com/services/(?<secret>[A-Za-z0-9_/-]+)",
        accepts: anything,
    },
    Rule {
        kind: "stripe",
        triggers: Triggers::Exact(&["sk_live_", "sk_test_", "rk_live_", "rk_test_"]),
        pattern: r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",
        accepts: anything,
    },
    Rule {
        kind: "google",
        triggers: Triggers::Exact(&["AIza"]),
        pattern: r"\bAIza[A-Za-z0-9_-]{35,}",
        accepts: anything,
    },
    Rule {
        kind: "npm",
        triggers: Triggers::Exact(&["npm_"]),
        pattern: r"\bnpm_[A-Za-z0-9]{36,}",
        accepts: anything,
    },
    Rule {
        kind: "huggingface",
        triggers: Triggers::Exact(&["hf_"]),
        pattern: r"\bhf_[A-Za-z0-9]{30,}",
        accepts: is_random_key,
    },
    Rule {
        kind: "sendgrid",
        triggers: Triggers::Exact(&["SG."]),
        pattern: r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}",
        accepts: anything,
    },
    Rule {
        kind: "digitalocean",
        triggers: Triggers::Exact(&["dop_v1_", "doo_v1_", "dor_v1_"]),
        pattern: r"\bdo[opr]_v1_[0-9a-f]{64}",
        accepts: anything,
    },
    Rule {
        kind: "shopify",
        triggers: Triggers::Exact(&["shpat_", "shpca_", "shppa_", "shpss_"]),
        pattern: r"\bshp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}",
        accepts: anything,
    },
    // A macaroon: its base64 starts with `AgE` (version 2, location follows).
    Rule {
        kind: "pypi",
        triggers: Triggers::Exact(&["pypi-AgE"]),
        pattern: r"\bpypi-AgE[A-Za-z0-9_-]{50,}",
        accepts: anything,
    },
    Rule {
        kind: "docker",
        triggers: Triggers::Exact(&["dckr_pat_", "dckr_oat_"]),
        pattern: r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}",
        accepts: anything,
    },
    // `<bot id>:<35 characters starting with A>`, also inside `api.telegram.org/bot<token>/`.
    Rule {
        kind: "telegram",
        triggers: Triggers::Exact(&[":A"]),
        pattern: r"(?:\b|bot)(?<secret>[0-9]{5,16}:A[A-Za-z0-9_-]{34})(?:[^A-Za-z0-9_\x80-\xff-]|[\xc0-\xff][\x80-\xbf]+|\z)",
        accepts: is_telegram_token,
    },
    // `<the bot's numeric id in base64>.<6>.<27 or more>`; the id is checked by decoding it.
    Rule {
        kind: "discord",
        triggers: Triggers::Word(&["MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"]),
        pattern: r"\b[MNO][A-Za-z0-9]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}",
        accepts: is_discord_bot_token,
    },
    // The path (webhook id and token) is the credential; the host stays.
    Rule {
        kind: "discord",
        triggers: Triggers::Exact(&["discord.com/api/", "discordapp.com/api/"]),
        pattern: r"\bdiscord(?:app)?\.com/api/(?:v[0-9]+/)?webhooks/(?<secret>[0-9]{5,}/[A-Za-z0-9_-]{20,})",
        accepts: anything,
    },
    Rule {
        kind: "mailgun",
        triggers: Triggers::Word(&["key-"]),
        pattern: r"\bkey-[0-9a-f]{32}\b",
        accepts: anything,
    },
    // Newer keys (`<32 hex>-<8 hex>-<8 hex>`) have no prefix: only next to a mailgun name.
    Rule {
        kind: "mailgun",
        triggers: Triggers::Name(&["mailgun"]),
        pattern: r#"mailgun[a-z0-9_.-]*["']?[ \t]*(?::|=)[ \t]*["']?(?<secret>[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})\b"#,
        accepts: anything,
    },
    Rule {
        kind: "square",
        triggers: Triggers::Exact(&["EAAA", "sq0atp-", "sq0csp-"]),
        pattern: r"\b(?:EAAA[A-Za-z0-9_-]{60,}|sq0atp-[A-Za-z0-9_-]{22,}|sq0csp-[A-Za-z0-9_-]{43,})",
        accepts: anything,
    },
    Rule {
        kind: "vault",
        triggers: Triggers::Exact(&["hvs.", "hvb.", "hvr."]),
        pattern: r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}",
        accepts: anything,
    },
    // Tokens from before Vault 1.10: `s.` and 24 base62 characters.
    Rule {
        kind: "vault",
        triggers: Triggers::Word(&["s."]),
        pattern: r"\bs\.[A-Za-z0-9]{24}\b",
        accepts: is_random_key,
    },
    // Bech32 (upper case): digits but 1, letters but B, I and O.
    Rule {
        kind: "age",
        triggers: Triggers::Exact(&["AGE-SECRET-KEY-1"]),
        pattern: r"\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}",
        accepts: anything,
    },
    Rule {
        kind: "linear",
        triggers: Triggers::Exact(&["lin_api_"]),
        pattern: r"\blin_api_[A-Za-z0-9]{40}",
        accepts: anything,
    },
    Rule {
        kind: "newrelic",
        triggers: Triggers::Exact(&["NRAK-", "NRAA-", "NRRA-", "NRII-", "NRJS-"]),
        pattern: r"\bNR(?:AK|AA|RA|II|JS)-[A-Za-z0-9_-]{19,}",
        accepts: anything,
    },
    Rule {
        kind: "postman",
        triggers: Triggers::Exact(&["PMAK-"]),
        pattern: r"\bPMAK-[0-9a-fA-F]{24}-[0-9a-fA-F]{34}",
        accepts: anything,
    },
    // Cloud tokens (base64 of a JSON), service-account tokens, and the older API keys: base64
    // of `{"k":"…`, which `jwt` would otherwise look at.
    Rule {
        kind: "grafana",
        triggers: Triggers::Exact(&["glc_", "glsa_", "eyJrIjoi"]),
        pattern: r"\b(?:glc_[A-Za-z0-9+/]{32,}={0,3}|glsa_[A-Za-z0-9]{32}_[0-9a-fA-F]{8}|eyJrIjoi[A-Za-z0-9+/]{40,}={0,3})",
        accepts: anything,
    },
    Rule {
        kind: "atlassian",
        triggers: Triggers::Exact(&["ATATT3"]),
        pattern: r"\bATATT3[A-Za-z0-9_=-]{100,}",
        accepts: anything,
    },
    // API key SIDs; an account SID (`AC…`) is an identifier, but its auth token follows it.
    Rule {
        kind: "twilio",
        triggers: Triggers::Word(&["SK"]),
        pattern: r"\bSK[0-9a-fA-F]{32}\b",
        accepts: anything,
    },
    Rule {
        kind: "twilio",
        triggers: Triggers::Word(&["AC"]),
        pattern: r#"\bAC[0-9a-fA-F]{32}["']?[ \t]*[,:][ \t]*["']?(?<secret>[0-9a-fA-F]{32})\b"#,
        accepts: anything,
    },
    Rule {
        kind: "sentry",
        triggers: Triggers::Exact(&["sntryu_", "sntrys_"]),
        pattern: r"\b(?:sntryu_[0-9a-f]{64}|sntrys_[A-Za-z0-9+/=_]{60,})",
        accepts: anything,
    },
    // A DSN with the legacy secret: `https://<public key>:<secret>@….sentry….`
    Rule {
        kind: "sentry",
        triggers: Triggers::Exact(&["sentry"]),
        pattern: r"\bhttps?://[0-9a-f]{32}:(?<secret>[0-9a-f]{32})@[A-Za-z0-9.-]*sentry",
        accepts: anything,
    },
    // Storage account and service bus connection strings.
    Rule {
        kind: "azure",
        triggers: Triggers::Name(&["accountkey", "sharedaccesskey"]),
        pattern: r"(?:account|sharedaccess)key[ \t]*=[ \t]*(?<secret>[a-z0-9+/]{20,}={0,2})",
        accepts: anything,
    },
    Rule {
        kind: "jwt",
        triggers: Triggers::Exact(&["eyJ"]),
        pattern: r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}",
        accepts: anything,
    },
    // `scheme://user:password@host`: only the password goes.
    Rule {
        kind: "url-password",
        triggers: Triggers::Exact(&["://"]),
        pattern: r"[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\[\]]*:(?<secret>[^\s/?#@]+)@",
        accepts: is_not_placeholder,
    },
    // `Authorization: Bearer <value>`, `Authorization: Basic <value>`, `Authorization: <value>`.
    Rule {
        kind: "authorization",
        triggers: Triggers::Name(&["authorization"]),
        pattern: r#"authorization["']?[ \t]*[:=][ \t]*["']?(?:[a-z][a-z0-9_-]*[ \t]+)?(?<secret>[^\s"'`,;]+)"#,
        accepts: looks_like_secret,
    },
    Rule {
        kind: "authorization",
        triggers: Triggers::AnyCase(&["bearer ", "bearer\t"]),
        pattern: r"\bbearer[ \t]+(?<secret>[a-z0-9._~+/=\[:-]+)",
        accepts: looks_like_secret,
    },
    Rule {
        kind: "password",
        triggers: Triggers::Name(&["password", "passwd", "passphrase", "passcode", "pwd"]),
        pattern: assignment!("pass(?:word|wd|phrase|code)|pwd"),
        accepts: looks_like_secret,
    },
    Rule {
        kind: "secret",
        triggers: Triggers::Name(&["secret", "private_key", "private-key", "privatekey"]),
        pattern: assignment!("secret|private[_-]?key"),
        accepts: looks_like_secret,
    },
    Rule {
        kind: "api-key",
        triggers: Triggers::Name(&[
            "api_key",
            "api-key",
            "apikey",
            "access_key",
            "access-key",
            "accesskey",
        ]),
        pattern: assignment!("api[_-]?key|access[_-]?key"),
        accepts: looks_like_secret,
    },
    Rule {
        kind: "token",
        triggers: Triggers::Name(&["token", "auth"]),
        pattern: assignment!("token|auth"),
        accepts: looks_like_secret,
    },
    // Credentials given to a program as separate arguments, as a failing command line stores
    // them: `--password VALUE` (`--password=VALUE` is an assignment above), `curl -u user:pw`,
    // `mysql -pVALUE`, `sshpass -p VALUE`.
    Rule {
        kind: "password",
        triggers: Triggers::AnyCase(&["-password ", "-passwd ", "-passphrase "]),
        pattern: r#"(?:^|[ \t])--?(?:[a-z0-9]+-)*pass(?:word|wd|phrase) +(?<secret>"[^"\s]+"|'[^'\s]+'|[^\s"'`;&|)]+)"#,
        accepts: is_not_placeholder,
    },
    Rule {
        kind: "token",
        triggers: Triggers::AnyCase(&["-token ", "-secret ", "-api-key ", "-apikey "]),
        pattern: r#"(?:^|[ \t])--?(?:[a-z0-9]+-)*(?:token|secret|api-?key) +(?<secret>"[^"\s]+"|'[^'\s]+'|[^\s"'`;&|)]+)"#,
        accepts: looks_like_secret,
    },
    Rule {
        kind: "password",
        triggers: Triggers::Exact(&["-u ", "--user "]),
        pattern: r#"(?:^|[ \t])(?:-u|--user) +["']?[^\s:"'@]+:(?<secret>[^\s"'@]+)"#,
        accepts: is_not_placeholder,
    },
    Rule {
        kind: "password",
        triggers: Triggers::Exact(&["mysql", "mariadb"]),
        pattern: r#"\b(?:mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?[ \t]-p(?<secret>[^\s"'`;&|]+)"#,
        accepts: is_not_placeholder,
    },
    Rule {
        kind: "password",
        triggers: Triggers::Exact(&["sshpass"]),
        pattern: r#"\bsshpass[ \t]+-p[ \t]*(?<secret>"[^"\s]+"|'[^'\s]+'|[^\s"'`;&|]+)"#,
        accepts: is_not_placeholder,
    },
    // English `password:` is an assignment above; these are the other languages' labels.
    Rule {
        kind: "password",
        triggers: Triggers::Name(&["密码", "密碼", "口令", "パスワード", "비밀번호", "암호"]),
        pattern: labelled!("密码|密碼|口令|パスワード|비밀번호|암호"),
        accepts: looks_like_secret,
    },
    // A PIN is 4 to 12 digits.
    Rule {
        kind: "pin",
        triggers: Triggers::Name(&[
            "pin",
            "pin code",
            "pin 번호",
            "pin번호",
            "pin码",
            "暗証番号",
        ]),
        pattern: r#"(?:\bpin(?: ?code| ?번호|码)?|暗証番号)"? *(?::|：) *"?(?<secret>[0-9]{4,12})\b"#,
        accepts: anything,
    },
    Rule {
        kind: "username",
        triggers: Triggers::Name(&[
            "username",
            "user name",
            "user_name",
            "user-name",
            "login",
            "用户名",
            "用戶名",
            "账号",
            "帳號",
            "ユーザー名",
            "ユーザ名",
            "사용자 이름",
            "사용자이름",
            "아이디",
        ]),
        pattern: labelled!(
            r"\b(?:user[ _-]?name|login)|用户名|用戶名|账号|帳號|ユーザー名|ユーザ名|사용자 ?이름|아이디"
        ),
        accepts: is_not_placeholder,
    },
];

/// The compiled regex of `RULES[index]`, compiled on first use.
pub(super) fn rule_regex(index: usize) -> &'static Regex {
    static COMPILED: [OnceLock<Regex>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];
    #[cfg(test)]
    super::tests::count_rule_regex_use();
    COMPILED[index].get_or_init(|| {
        RegexBuilder::new(RULES[index].pattern)
            .unicode(false)
            .build()
            .expect("every rule pattern is tested to compile")
    })
}

fn anything(_: &str) -> bool {
    true
}

/// Upper case, lower case and digits, as in every randomly generated key: tells `sk-…` and
/// `hf_…` keys from hyphenated words and identifiers that share the prefix.
fn is_random_key(key: &str) -> bool {
    key.bytes().any(|b| b.is_ascii_uppercase())
        && key.bytes().any(|b| b.is_ascii_lowercase())
        && key.bytes().any(|b| b.is_ascii_digit())
}

/// The part after the bot id mixes cases and digits, as random keys do (`clm12345:Agency…`
/// is an XML type name).
fn is_telegram_token(token: &str) -> bool {
    token
        .split_once(':')
        .is_some_and(|(_, key)| is_random_key(key))
}

/// Whether the first part of `token` is the base64 of 17 to 20 decimal digits, as a bot's
/// user id is.
pub(super) fn is_discord_bot_token(token: &str) -> bool {
    let id = token.split('.').next().unwrap_or_default();
    let mut decoded = Vec::with_capacity(id.len());
    let (mut bits, mut count) = (0u32, 0);
    for b in id.bytes() {
        let value = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            _ => return false,
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            decoded.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    (17..=20).contains(&decoded.len()) && decoded.iter().all(u8::is_ascii_digit)
}
