//! Secret scrubbing: every secret in a text becomes `[REDACTED:<kind>]`, before the text is
//! stored and again before it is rendered into a prompt.
//!
//! Every rule is one row of [`RULES`]: the kind it reports, the cheap literals (triggers) that
//! must occur in the text for it to apply, its pattern, and a last check on the matched value.
//! A rule's regex is compiled the first time one of its triggers occurs, so text that mentions
//! nothing secret-like compiles no regex at all. In a fresh process compiling one costs 0.05 to
//! 0.3 ms, so triggers are as narrow as the pattern allows: `password`, not `pass` (which
//! `3 passed` contains), and only where used as a name (`password:`, not "the password").
//!
//! - Where a pattern has a group named `secret`, only that group is replaced: names, separators,
//!   quotes, URL schemes, users and hosts, and `Authorization` schemes stay readable.
//! - Overlapping matches merge into one redaction. Its kind is that of the match that starts
//!   first or, at the same start, of the rule listed first; so `token: ghp_…` reports `github`
//!   and `sk-ant-…` reports `anthropic` rather than `openai`.
//! - A value that already contains `[REDACTED:` is never redacted again, which (with the
//!   patterns never matching inside a placeholder) makes `scrub` idempotent.
//!
//! For the generic `name = value` rules and the password labels a value counts as a secret
//! only if it has at least 8 characters that mix letters and digits or include a symbol, and
//! is not a placeholder (`********`, `<token>`, `${DB_PASSWORD}`, `$(cmd)`, `%VAR%`,
//! `{{ secrets.X }}`, `your_key`, `changeme`, …), code (`get_token()`, `settings.SECRET`,
//! `Option<String>`), a path or a URL. So a number (`TOKEN_LIMIT=4096`, also
//! `password=12345678`) or a single word (`password: changeme`, `token: TokenKind`) is left
//! alone; digits alone are a secret only after a PIN label. Looking like a placeholder or like
//! code takes more than the first character or a dot: what follows `$`, `%` or `{`, and each
//! part of a dotted value, must read as a name, and `<…>` or `(…)` must hold words, so
//! `$ecretP4ss`, `<Xk29vLq8ZrTm>` and `P4ss.w0rd2024` are secrets. A value runs on through `&`
//! unless a query parameter (`&name=`) follows.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

struct Rule {
    /// Reported as `[REDACTED:<kind>]` and by `secret_kinds`.
    kind: &'static str,
    /// The rule applies only to text that contains one of these.
    triggers: Triggers,
    /// Where it has a group named `secret`, only that value is replaced (see `value_range`).
    pattern: &'static str,
    /// A last check on the text that would be replaced.
    accepts: fn(&str) -> bool,
}

enum Triggers {
    /// Compared byte for byte; the pattern is matched against the text as it is. For vendor
    /// prefixes such as `ghp_`.
    Exact(&'static [&'static str]),
    /// Like `Exact`, but only where the literal starts a word (at the start of the text or after
    /// a byte that is not an ASCII letter, digit or `_`), as the pattern's `\b` requires: for
    /// prefixes short enough to occur inside words, such as `s.` (`tests.`) or `SK` (`TASK`).
    Word(&'static [&'static str]),
    /// Compared ignoring ASCII case; the pattern is matched against the text with its ASCII
    /// letters lowercased (same byte offsets). Triggers and pattern are written in lowercase:
    /// `(?i)` would make the regex several times slower to compile.
    AnyCase(&'static [&'static str]),
    /// Like `AnyCase`, for words used as a name or label: the word must be followed, after more
    /// name characters, an optional quote and spaces, by `:`, `=` or `：`. Prose that merely
    /// mentions a password or a token ("rotate the token weekly") then compiles nothing.
    Name(&'static [&'static str]),
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
/// `value_range`), which CJK text puts straight after it.
const RULES: &[Rule] = &[
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

/// The start of every replacement. A value containing it is never redacted again. Every value
/// that a check can reject admits `[`, letters and `:`, so one that runs into a replacement
/// contains it, rather than stopping short of it and passing a check it failed before.
const REDACTED_PREFIX: &str = "[REDACTED:";

/// Passes `scrub` makes at most. Replacing a secret can change what the text around it looks
/// like (a word boundary appears where a key ended), so a pass may find what the one before
/// could not; one pass finds everything in every case the tests know of, and the cap only
/// keeps a pathological text from costing more.
const MAX_PASSES: usize = 8;

/// `text` with every secret replaced by `[REDACTED:<kind>]`. Borrowed when nothing was found.
/// Idempotent: `scrub(scrub(x)) == scrub(x)`.
pub fn scrub(text: &str) -> Cow<'_, str> {
    scrub_and_report(text).0
}

/// The kinds of secret found in `text`, in order of appearance, deduplicated (for audits:
/// "entries that still contain a secret"): exactly the kinds `scrub` writes.
pub fn secret_kinds(text: &str) -> Vec<&'static str> {
    scrub_and_report(text).1
}

/// Scrubs until a pass finds nothing, so that the result is a fixed point.
fn scrub_and_report(text: &str) -> (Cow<'_, str>, Vec<&'static str>) {
    let mut scrubbed = Cow::Borrowed(text);
    let mut kinds = Vec::new();
    for _ in 0..MAX_PASSES {
        let redactions = find_redactions(&scrubbed);
        if redactions.is_empty() {
            break;
        }
        for redaction in &redactions {
            if !kinds.contains(&redaction.kind) {
                kinds.push(redaction.kind);
            }
        }
        scrubbed = Cow::Owned(replace(&scrubbed, &redactions));
    }
    (scrubbed, kinds)
}

fn replace(text: &str, redactions: &[Redaction]) -> String {
    let mut replaced = String::with_capacity(text.len());
    let mut copied_up_to = 0;
    for redaction in redactions {
        replaced.push_str(&text[copied_up_to..redaction.range.start]);
        replaced.push_str(REDACTED_PREFIX);
        replaced.push_str(redaction.kind);
        replaced.push(']');
        copied_up_to = redaction.range.end;
    }
    replaced.push_str(&text[copied_up_to..]);
    replaced
}

/// A stretch of text to replace with `[REDACTED:<kind>]`.
struct Redaction {
    range: Range<usize>,
    kind: &'static str,
}

/// What to replace, in order and without overlaps.
fn find_redactions(text: &str) -> Vec<Redaction> {
    let lowercase = text.to_ascii_lowercase();
    // (rule index, redaction): the index breaks ties between matches at the same start.
    let mut found: Vec<(usize, Redaction)> = Vec::new();
    for (index, rule) in RULES.iter().enumerate() {
        if !rule.triggers.occur_in(text, &lowercase) {
            continue;
        }
        let haystack = rule.triggers.haystack(text, &lowercase);
        let regex = rule_regex(index);
        let mut search_from = 0;
        while search_from <= haystack.len() {
            let Some(captures) = regex.captures_at(haystack.as_bytes(), search_from) else {
                break;
            };
            let whole = captures.get(0).expect("group 0 is the whole match");
            let secret = captures.name("secret");
            let range = secret.map_or(whole.range(), |value| {
                value_range(text, through_ampersands(text, value.range()))
            });
            match text.get(range.clone()) {
                Some(value)
                    if !value.is_empty()
                        && !value.contains(REDACTED_PREFIX)
                        && (rule.accepts)(value) =>
                {
                    search_from = range.end;
                    let redaction = Redaction {
                        range,
                        kind: rule.kind,
                    };
                    found.push((index, redaction));
                }
                // A match may start inside a rejected value (`$x=password$Abc123`); searching on
                // from its end would find it only once the text around it had been scrubbed.
                _ => {
                    let value_start = secret.map_or(whole.start(), |value| value.start());
                    search_from = value_start.max(next_char_boundary(text, whole.start()));
                }
            }
        }
    }
    found.sort_by_key(|(index, redaction)| (redaction.range.start, *index));
    let mut merged: Vec<Redaction> = Vec::with_capacity(found.len());
    for (_, redaction) in found {
        match merged.last_mut() {
            Some(last) if redaction.range.start < last.range.end => {
                last.range.end = last.range.end.max(redaction.range.end);
            }
            _ => merged.push(redaction),
        }
    }
    merged
}

/// The first character boundary after `index`, or past the end.
fn next_char_boundary(text: &str, index: usize) -> usize {
    (index + 1..=text.len())
        .find(|&next| text.is_char_boundary(next))
        .unwrap_or(text.len() + 1)
}

/// `range` of `text` extended over each `&…` that follows it and is not the next parameter of
/// a query string (`name=…`): `Tr0ub4dor&3` is one value, `abc&state=1` is `abc` and more.
/// Patterns cannot tell the two apart without looking ahead, so they stop at `&`.
fn through_ampersands(text: &str, range: Range<usize>) -> Range<usize> {
    const ENDS: &[u8] = b"\"'`,;&)]}";
    let bytes = text.as_bytes();
    let mut range = range;
    if range.is_empty() || matches!(bytes[range.end - 1], b'"' | b'\'') {
        return range;
    }
    while bytes.get(range.end) == Some(&b'&') {
        let rest = &text[range.end + 1..];
        let part = &rest[..rest
            .find(|c: char| c.is_ascii_whitespace() || (c.is_ascii() && ENDS.contains(&(c as u8))))
            .unwrap_or(rest.len())];
        if part.is_empty() || part.contains('=') || part.contains(REDACTED_PREFIX) {
            break;
        }
        range.end += 1 + part.len();
    }
    range
}

/// The value a `secret` group captured in `range` of `text`: without a leading or trailing
/// quote (quotes around a value stay) and ending before any whitespace or full-width
/// punctuation, which patterns cannot exclude (see `RULES`).
fn value_range(text: &str, range: Range<usize>) -> Range<usize> {
    const FULL_WIDTH_PUNCTUATION: &[char] = &[
        '，', '。', '；', '：', '、', '！', '？', '（', '）', '「', '」', '『', '』', '【', '】',
    ];
    let is_quote = |b: u8| b == b'"' || b == b'\'';
    let mut range = range;
    let value = text.get(range.clone()).unwrap_or_default();
    if let Some(end) =
        value.find(|c: char| c.is_whitespace() || FULL_WIDTH_PUNCTUATION.contains(&c))
    {
        range.end = range.start + end;
    }
    let bytes = text.as_bytes();
    if !range.is_empty() && is_quote(bytes[range.start]) {
        range.start += 1;
    }
    if !range.is_empty() && is_quote(bytes[range.end - 1]) {
        range.end -= 1;
    }
    range
}

impl Triggers {
    fn occur_in(&self, text: &str, lowercase_text: &str) -> bool {
        match self {
            Triggers::Exact(literals) => literals.iter().any(|literal| text.contains(literal)),
            Triggers::Word(literals) => literals
                .iter()
                .any(|literal| occurs_at_word_start(text, literal)),
            Triggers::AnyCase(words) => words.iter().any(|word| lowercase_text.contains(word)),
            Triggers::Name(words) => words
                .iter()
                .any(|word| occurs_as_name(lowercase_text, word)),
        }
    }

    /// What the rule's pattern is matched against.
    fn haystack<'t>(&self, text: &'t str, lowercase_text: &'t str) -> &'t str {
        match self {
            Triggers::Exact(_) | Triggers::Word(_) => text,
            Triggers::AnyCase(_) | Triggers::Name(_) => lowercase_text,
        }
    }
}

/// Whether `literal` occurs at the start of the text or after a byte that is not an ASCII
/// letter, digit or `_`.
fn occurs_at_word_start(text: &str, literal: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(literal)
        .any(|(at, _)| at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
}

/// Whether `word` occurs followed, after more name characters, an optional quote and spaces or
/// tabs, by `:`, `=` or `：`.
fn occurs_as_name(lowercase_text: &str, word: &str) -> bool {
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    // The end of the last run of name characters looked at: an occurrence inside it would
    // reach the same end, so each character is looked at once.
    let mut looked_up_to = 0;
    for (at, _) in lowercase_text.match_indices(word) {
        let word_end = at + word.len();
        if word_end <= looked_up_to {
            continue;
        }
        let after_word = &lowercase_text[word_end..];
        let after_name = after_word.trim_start_matches(is_name_char);
        looked_up_to = lowercase_text.len() - after_name.len();
        let after_quote = after_name.strip_prefix(['"', '\'']).unwrap_or(after_name);
        if after_quote
            .trim_start_matches([' ', '\t'])
            .starts_with([':', '=', '：'])
        {
            return true;
        }
    }
    false
}

/// The compiled regex of `RULES[index]`, compiled on first use.
fn rule_regex(index: usize) -> &'static Regex {
    static COMPILED: [OnceLock<Regex>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];
    #[cfg(test)]
    tests::count_rule_regex_use();
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
fn is_discord_bot_token(token: &str) -> bool {
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

/// Whether the value given to a secret-like name is a credential rather than a word, a
/// number, a placeholder, code, a path or a URL.
fn looks_like_secret(value: &str) -> bool {
    value.chars().count() >= 8
        && mixes_character_classes(value)
        && !is_placeholder(value)
        && !is_code(value)
        && !is_path(value)
        && !value.contains("://")
}

fn is_not_placeholder(value: &str) -> bool {
    !is_placeholder(value)
}

/// Letters and digits, or any symbol other than `_` and `-` (which join words in names).
fn mixes_character_classes(value: &str) -> bool {
    let letters = value.chars().any(char::is_alphabetic);
    let digits = value.chars().any(|c| c.is_ascii_digit());
    let symbols = value
        .chars()
        .any(|c| !c.is_alphanumeric() && c != '_' && c != '-');
    (letters && digits) || symbols
}

/// Masks (`********`, `xxxx-xxxx`), stand-ins (`<token>`, `(none)`, `[REDACTED:…]`,
/// `your_api_key`, `changeme`, `null`) and references to the environment or to a template
/// (see `is_reference`).
fn is_placeholder(value: &str) -> bool {
    const MASK_CHARS: &[char] = &['*', '•', '●', 'x', 'X', '.', '-', '_', '#', '?'];
    let first = value.chars().next();
    value.chars().all(|c| Some(c) == first)
        || value.chars().all(|c| MASK_CHARS.contains(&c))
        || value.starts_with('[')
        || is_stand_in(value)
        || is_reference(value)
}

fn is_stand_in(value: &str) -> bool {
    const STAND_IN_WORDS: &[&str] = &[
        "null",
        "none",
        "nil",
        "true",
        "false",
        "undefined",
        "pass",
        "passwd",
        "password",
        "secret",
        "token",
        "user",
        "username",
    ];
    const STAND_IN_PARTS: &[&str] = &["changeme", "example", "placeholder", "redacted", "xxxx"];
    let lowercase = value.to_ascii_lowercase();
    STAND_IN_WORDS.contains(&lowercase.as_str())
        || lowercase.starts_with("your")
        || STAND_IN_PARTS.iter().any(|part| lowercase.contains(part))
}

/// A reference to the environment or a template, or words standing in for a value:
/// - values made of environment references (`$NAME`, `${NAME}`, `${{ expr }}`, `$(command)`,
///   `%NAME%`, `%(name)s`) and of nothing secret around them (`$HOME/.token`, a default as in
///   `${DB_PASSWORD:-changeme}`);
/// - templates: `{name}`, `{{ expr }}`, `{name!r}`, `{config[…]}`;
/// - words in brackets: `<your-token>`, `(not set)`.
///
/// A closing bracket may be missing, as values end before `}` and `)`. A value that only
/// starts like one is a value: what follows `$`, `%` or `{` must read as a name (see
/// `is_name`), so `$ecretP4ss` and `{Xk29vLq8Zr}` are not references, a default or what
/// surrounds a reference must not look like a secret (`${DB_PASSWORD:-Hunter2024!}`), and
/// `<…>` or `(…)` must hold words: `<Xk29vLq8ZrTm>` is no stand-in.
fn is_reference(value: &str) -> bool {
    if value.starts_with('{') {
        let inner = value.trim_start_matches(['{', ' ']);
        let name_end = inner.find(|c| !is_name_char(c)).unwrap_or(inner.len());
        let (name, rest) = inner.split_at(name_end);
        let rest = rest.trim_start_matches(' ');
        return is_name(name)
            && (rest.is_empty() || rest.starts_with(['}', '[', '(', '!', '|', ':']));
    }
    if let Some(rest) = value.strip_prefix(['<', '(']) {
        let inner = rest.trim_end_matches(['>', ')']);
        let is_words = inner
            .chars()
            .all(|c| c.is_ascii_alphabetic() || matches!(c, '-' | '_' | '.' | ' '));
        return !inner.is_empty() && (is_words || is_stand_in(inner));
    }
    around_references(value)
        .is_some_and(|pieces| pieces.iter().all(|piece| !looks_like_secret(piece)))
}

/// The parts of `value` around its environment references, and their defaults; `None` when
/// it holds no reference.
fn around_references(value: &str) -> Option<Vec<&str>> {
    let mut pieces = Vec::new();
    let mut found = false;
    let (mut piece_start, mut at) = (0, 0);
    while let Some(offset) = value[at..].find(['$', '%']) {
        at += offset;
        match reference_at(value, at) {
            Some((end, default)) => {
                pieces.push(&value[piece_start..at]);
                pieces.extend(default);
                found = true;
                (piece_start, at) = (end, end);
            }
            None => at += 1,
        }
    }
    pieces.push(&value[piece_start..]);
    found.then(|| {
        pieces
            .into_iter()
            .filter(|piece| !piece.is_empty())
            .collect()
    })
}

/// The end of the environment reference at `at` of `value`, and its default if it has one.
fn reference_at(value: &str, at: usize) -> Option<(usize, Option<&str>)> {
    let rest = &value[at..];
    let shell_name_len = |text: &str| {
        text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len())
    };
    if let Some(command) = rest.strip_prefix("$(") {
        let end = command
            .find(')')
            .map_or(value.len(), |close| at + 3 + close);
        return Some((end, None));
    }
    if let Some(braced) = rest.strip_prefix("${") {
        // `${NAME}`, `${{ expr }}`, `${NAME:-default}`.
        let close = braced.find('}').unwrap_or(braced.len());
        let mut end = at + 2 + close;
        for _ in 0..2 {
            end += usize::from(value[end..].starts_with('}'));
        }
        let inner = braced[..close].trim_matches(['{', ' ']);
        let name_end = inner.find(|c| !is_name_char(c)).unwrap_or(inner.len());
        let (name, operation) = inner.split_at(name_end);
        if !is_name(name) {
            return None;
        }
        if operation.is_empty() {
            return Some((end, None));
        }
        let default = operation.strip_prefix(':').unwrap_or(operation);
        let default = default.strip_prefix(['-', '=', '?', '+'])?;
        return Some((end, Some(default)));
    }
    if let Some(parenthesised) = rest.strip_prefix("%(") {
        // `%(name)s`
        let name = &parenthesised[..shell_name_len(parenthesised)];
        let after = &parenthesised[name.len()..];
        if name.is_empty() || !is_name(name) || !(after.is_empty() || after.starts_with(')')) {
            return None;
        }
        let conversion = after.strip_prefix(')').map_or(0, |c| {
            1 + usize::from(c.starts_with(|c: char| c.is_ascii_alphabetic()))
        });
        return Some((at + 2 + name.len() + conversion, None));
    }
    let sigil = rest.as_bytes()[0];
    let name = &rest[1..1 + shell_name_len(&rest[1..])];
    let named = !name.is_empty() && is_name(name);
    match sigil {
        // `$NAME`, `$1`
        b'$' if named => Some((at + 1 + name.len(), None)),
        // `%NAME%`
        b'%' if named && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => {
            let closed = usize::from(rest[1 + name.len()..].starts_with('%'));
            Some((at + 1 + name.len() + closed, None))
        }
        _ => None,
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.')
}

/// Names of variables, settings and template values: `DB_PASSWORD`, `secrets.GH_TOKEN`,
/// `.Values.token`, `apiKey`, `db2`; empty when a template was cut off (`{{`). Each part
/// between `.` and `_` is letters with at most two digits at its end, and does not mix upper
/// case, lower case and digits: `ecretP4ss`, `Xk29vLq8Zr` and `abc123` read as values.
fn is_name(text: &str) -> bool {
    text.chars().all(is_name_char) && text.split(['.', '_']).all(is_word_like)
}

fn is_word_like(part: &str) -> bool {
    let letters_end = part
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(part.len());
    let digits = &part[letters_end..];
    digits.len() <= 2
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !(!digits.is_empty()
            && part.bytes().any(|b| b.is_ascii_uppercase())
            && part.bytes().any(|b| b.is_ascii_lowercase()))
}

/// An identifier path (`settings.SECRET`, `std::env::var`), or an identifier followed by a
/// call, an index or type arguments (`get_token(`, `os.environ[`, `Option<String>`): a value
/// that names or computes a secret rather than holding one.
fn is_code(value: &str) -> bool {
    let path_end = value
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':')))
        .unwrap_or(value.len());
    let (path, rest) = value.split_at(path_end);
    let path = path.replace("::", ".");
    let is_identifier = |segment: &str| {
        segment.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && !segment.contains(':')
    };
    if !path.split('.').all(is_identifier) {
        return false;
    }
    if rest.is_empty() {
        // A dotted value whose parts read as names; `P4ss.w0rd` and `abc123.def456` do not.
        path.contains('.') && is_name(&path)
    } else {
        rest.starts_with(['(', '[', '<'])
    }
}

/// `/etc/…`, `~/…`, `./…`, `../…`, `C:\…`.
fn is_path(value: &str) -> bool {
    let bytes = value.as_bytes();
    value.starts_with(['/', '\\'])
        || value.starts_with("~/")
        || value.starts_with("./")
        || value.starts_with("../")
        || (bytes.len() > 2
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && matches!(bytes[2], b'\\' | b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cell::Cell;

    thread_local! {
        /// How often this thread asked for a rule's regex (and so might have compiled one).
        /// Counted per thread, so tests running in parallel do not disturb a test's count.
        static RULE_REGEX_USES: Cell<usize> = const { Cell::new(0) };
    }

    pub(super) fn count_rule_regex_use() {
        RULE_REGEX_USES.with(|uses| uses.set(uses.get() + 1));
    }

    fn rule_regex_uses() -> usize {
        RULE_REGEX_USES.with(Cell::get)
    }

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

    /// `len` characters that mix upper case, lower case and digits, like a generated key.
    fn fake_key(len: usize) -> String {
        "Ab3dE5fG7h".repeat(len / 10 + 1)[..len].to_string()
    }

    /// `scrub(input)` is `expected`, reporting exactly `kinds`, and scrubbing again changes
    /// nothing.
    #[track_caller]
    fn assert_scrubs(input: &str, expected: &str, kinds: &[&str]) {
        assert_eq!(scrub(input), expected, "scrubbing {input:?}");
        assert_eq!(secret_kinds(input), kinds, "kinds in {input:?}");
        assert!(
            matches!(scrub(expected), Cow::Borrowed(_)),
            "scrubbing {expected:?} again changed it"
        );
        assert!(secret_kinds(expected).is_empty());
    }

    #[track_caller]
    fn assert_untouched(input: &str) {
        let scrubbed = scrub(input);
        assert!(
            matches!(scrubbed, Cow::Borrowed(_)),
            "{input:?} became {scrubbed:?}"
        );
        assert!(secret_kinds(input).is_empty(), "{input:?}");
    }

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
    fn assignments_keep_name_separator_and_quotes() {
        let key = fake_key(24);
        let cases = [
            (
                "DB_PASSWORD=\"Hunter2024!\"",
                "DB_PASSWORD=\"[REDACTED:password]\"",
                "password",
            ),
            (
                "password: p4ssw0rd-Blue",
                "password: [REDACTED:password]",
                "password",
            ),
            (
                "mysql --password=Hunter2024!",
                "mysql --password=[REDACTED:password]",
                "password",
            ),
            (
                "db.passwd = 'Tr0ub4dor&3'",
                "db.passwd = '[REDACTED:password]'",
                "password",
            ),
            (
                "pwd := \"Tr0ub4dor&3\"",
                "pwd := \"[REDACTED:password]\"",
                "password",
            ),
            (
                "{\"client_secret\": \"AbC123dEf456\"}",
                "{\"client_secret\": \"[REDACTED:secret]\"}",
                "secret",
            ),
            (
                "SECRET_KEY_BASE=9f8e7d6c5b4a",
                "SECRET_KEY_BASE=[REDACTED:secret]",
                "secret",
            ),
            (
                "private_key: a1b2c3d4e5f6",
                "private_key: [REDACTED:secret]",
                "secret",
            ),
            (
                "github_token=Qw3rTy7UiOp9",
                "github_token=[REDACTED:token]",
                "token",
            ),
            (
                "X-Auth-Token: 5f4dcc3b5aa765",
                "X-Auth-Token: [REDACTED:token]",
                "token",
            ),
            (
                "auth => 'Zx81Spectrum'",
                "auth => '[REDACTED:token]'",
                "token",
            ),
            (
                "api_key=Ab12Cd34Ef56",
                "api_key=[REDACTED:api-key]",
                "api-key",
            ),
            (
                "x-api-key: Ab12Cd34Ef56",
                "x-api-key: [REDACTED:api-key]",
                "api-key",
            ),
            (
                "apiKey = \"Ab12Cd34Ef56\";",
                "apiKey = \"[REDACTED:api-key]\";",
                "api-key",
            ),
            (
                "ACCESS_KEY=Ab12Cd34Ef56",
                "ACCESS_KEY=[REDACTED:api-key]",
                "api-key",
            ),
            (
                "f(password=Abc12345, user=bob)",
                "f(password=[REDACTED:password], user=bob)",
                "password",
            ),
            (
                "GET /cb?access_token=Ab12Cd34Ef56&state=1",
                "GET /cb?access_token=[REDACTED:token]&state=1",
                "token",
            ),
        ];
        for (input, expected, kind) in cases {
            assert_scrubs(input, expected, &[kind]);
        }
        // A vendor key reports its vendor, not the name it was assigned to.
        assert_scrubs(
            &format!("token: ghp_{}", fake_key(36)),
            "token: [REDACTED:github]",
            &["github"],
        );
        assert_scrubs(
            &format!("OPENAI_API_KEY=sk-{key}{key}"),
            "OPENAI_API_KEY=[REDACTED:openai]",
            &["openai"],
        );
    }

    #[test]
    fn credentials_passed_as_arguments_lose_their_values() {
        assert_scrubs(
            "mysql -u root -pS3cretPw -h db.local app",
            "mysql -u root -p[REDACTED:password] -h db.local app",
            &["password"],
        );
        assert_scrubs(
            "psql-wrapper --db-password hunter2x! --port 5432",
            "psql-wrapper --db-password [REDACTED:password] --port 5432",
            &["password"],
        );
        assert_scrubs(
            "curl -u deploy:Tr0ub4dor https://ci.local/api",
            "curl -u deploy:[REDACTED:password] https://ci.local/api",
            &["password"],
        );
        assert_scrubs(
            "vault login --token '9f8e7d6c5b4a3f2e1d0c'",
            "vault login --token '[REDACTED:token]'",
            &["token"],
        );
        assert_scrubs(
            "sshpass -p 'pa55word' ssh deploy@host",
            "sshpass -p '[REDACTED:password]' ssh deploy@host",
            &["password"],
        );
    }

    #[test]
    fn arguments_that_are_not_credentials_stay() {
        assert_untouched("mysql -u root -p app < dump.sql");
        assert_untouched("mysql -u root -p$DB_PASSWORD app");
        assert_untouched("curl -u $USER:$TOKEN https://ci.local");
        assert_untouched("git push -u origin main");
        assert_untouched("gh auth login --with-token < token.txt");
        assert_untouched("npm publish --token $NPM_TOKEN");
        assert_untouched("tool --max-token 4096 --password-file ~/.pw");
        assert_untouched("sort -u names.txt");
    }

    #[test]
    fn references_placeholders_and_code_are_not_secrets() {
        for text in [
            "os.environ['API_KEY']",
            "api_key = os.environ['API_KEY']",
            "os.getenv(\"TOKEN\")",
            "token = os.getenv(\"TOKEN\")",
            "process.env.GITHUB_TOKEN",
            "const token = process.env.GITHUB_TOKEN;",
            "${DB_PASSWORD}",
            "password=${DB_PASSWORD}",
            "$SECRET",
            "SECRET=$SECRET",
            "get_token()",
            "let token = get_token();",
            "token = load_token(path)",
            "password = input()",
            "password = getpass.getpass(\"Password: \")",
            "token: string",
            "token: String,",
            "api_key: Option<String>,",
            "secret = settings.SECRET",
            "password = std::env::var(\"DB_PASSWORD\")",
            "api_key=None",
            "password=<redacted>",
            "password: ********",
            "password = \"xxxxxxxxxxxx\"",
            "api_key: your_api_key_here",
            "password: {{ vault_password }}",
            "password = '%(password)s'",
            "password: changeme",
            "secret_file: /run/secrets/db_password",
            "auth_url=https://login.example.com/oauth",
            "TOKEN_LIMIT=4096",
            "max_tokens=8192",
            "password=12345678",
            "token: TokenKind",
            "author: Jane Doe",
            "tokenizer=bert-base-uncased",
            "password: [REDACTED:password]",
        ] {
            assert_untouched(text);
        }
    }

    #[test]
    fn prose_and_identifiers_are_not_secrets() {
        for text in [
            "rotate the token weekly",
            "the password policy requires 12 characters",
            "Password must be at least 12 characters, token rotation is weekly.",
            "the sk- prefix marks OpenAI keys; sk-abc123 is too short",
            "use sk-learn-compatible-estimators-here",
            "hf_hub_download fetched hf_modelconfigurationloaderfactory",
            "API key is [REDACTED:openai]",
            "fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8",
            "request 123e4567-e89b-12d3-a456-426614174000 timed out",
            "TypeError: Cannot read properties of undefined (reading 'token')",
            "ASIA and AKIA are prefixes",
            "login to the dashboard",
            "パスワードを忘れた場合",
        ] {
            assert_untouched(text);
        }
    }

    #[test]
    fn cjk_and_english_labels_lose_their_values() {
        let cases = [
            ("密码：Hunter2024!", "密码：[REDACTED:password]", "password"),
            ("密碼: Hunter2024!", "密碼: [REDACTED:password]", "password"),
            ("口令：Hunter2024!", "口令：[REDACTED:password]", "password"),
            (
                "パスワード：abcd1234XY",
                "パスワード：[REDACTED:password]",
                "password",
            ),
            (
                "비밀번호: qwer1234!!",
                "비밀번호: [REDACTED:password]",
                "password",
            ),
            ("암호: qwer1234!!", "암호: [REDACTED:password]", "password"),
            ("PIN：4829", "PIN：[REDACTED:pin]", "pin"),
            ("pin: 004829", "pin: [REDACTED:pin]", "pin"),
            ("PIN码：123456", "PIN码：[REDACTED:pin]", "pin"),
            ("暗証番号：1234", "暗証番号：[REDACTED:pin]", "pin"),
            ("PIN 번호: 1234", "PIN 번호: [REDACTED:pin]", "pin"),
            (
                "用户名：zhangsan",
                "用户名：[REDACTED:username]",
                "username",
            ),
            (
                "用户名：zhangsan，账号：lisi88",
                "用户名：[REDACTED:username]，账号：[REDACTED:username]",
                "username",
            ),
            (
                "银行卡的PIN：4829。",
                "银行卡的PIN：[REDACTED:pin]。",
                "pin",
            ),
            ("帳號：chen88", "帳號：[REDACTED:username]", "username"),
            (
                "ユーザー名：tanaka",
                "ユーザー名：[REDACTED:username]",
                "username",
            ),
            (
                "사용자 이름: kim",
                "사용자 이름: [REDACTED:username]",
                "username",
            ),
            ("아이디: kim77", "아이디: [REDACTED:username]", "username"),
            (
                "Username: alice",
                "Username: [REDACTED:username]",
                "username",
            ),
            (
                "user name: alice",
                "user name: [REDACTED:username]",
                "username",
            ),
            ("login: alice", "login: [REDACTED:username]", "username"),
        ];
        for (input, expected, kind) in cases {
            assert_scrubs(input, expected, &[kind]);
        }
        assert_scrubs(
            "用户名：zhangsan，密码：Hunter2024!。",
            "用户名：[REDACTED:username]，密码：[REDACTED:password]。",
            &["username", "password"],
        );
        assert_scrubs(
            "账号：li_wei 密码：Abc123456 PIN：4829",
            "账号：[REDACTED:username] 密码：[REDACTED:password] PIN：[REDACTED:pin]",
            &["username", "password", "pin"],
        );
    }

    #[test]
    fn values_keep_non_ascii_characters_and_end_at_wide_spaces_and_punctuation() {
        assert_scrubs(
            "password=Pässwörd2024 ok",
            "password=[REDACTED:password] ok",
            &["password"],
        );
        assert_scrubs(
            "密码：Hunter2024!\u{3000}下一步",
            "密码：[REDACTED:password]\u{3000}下一步",
            &["password"],
        );
        assert_scrubs(
            "token=Zx81Spectrum！完成",
            "token=[REDACTED:token]！完成",
            &["token"],
        );
    }

    #[test]
    fn a_pin_is_four_to_twelve_digits() {
        assert_untouched("PIN: 482");
        assert_untouched("PIN: 1234567890123");
        assert_untouched("PIN: 12ab");
        assert_untouched("spin: 1234");
        assert_scrubs("PIN: 123456789012", "PIN: [REDACTED:pin]", &["pin"]);
    }

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

    #[test]
    fn values_that_only_start_like_references_are_secrets() {
        for (input, expected, kind) in [
            (
                "password=$ecretP4ss",
                "password=[REDACTED:password]",
                "password",
            ),
            (
                "token=(abc123def456ghi)",
                "token=[REDACTED:token])",
                "token",
            ),
            (
                "secret=<Xk29vLq8ZrTm>",
                "secret=[REDACTED:secret]",
                "secret",
            ),
            (
                "secret: {Xk29vLq8Zr}",
                "secret: [REDACTED:secret]}",
                "secret",
            ),
            (
                "password=%2Fq8Ry%3DzL0vTx9",
                "password=[REDACTED:password]",
                "password",
            ),
            (
                "DB_PASSWORD=${DB_PASSWORD:-Hunter2024!}",
                "DB_PASSWORD=[REDACTED:password]}",
                "password",
            ),
            (
                "password: P4ss.w0rd2024",
                "password: [REDACTED:password]",
                "password",
            ),
            (
                "token=abc123.def456.ghi789",
                "token=[REDACTED:token]",
                "token",
            ),
            (
                "api_key=Qx7.Lm2.Vb9Kp",
                "api_key=[REDACTED:api-key]",
                "api-key",
            ),
        ] {
            assert_scrubs(input, expected, &[kind]);
        }
    }

    #[test]
    fn references_templates_and_stand_ins_stay() {
        for text in [
            "password=$DB_PASSWORD",
            "token=$token",
            "token=$1",
            "password=${DB_PASSWORD:-changeme}",
            "password=${DB_PASSWORD:?must be set}",
            "token=$(cat ~/.config/token)",
            "token=$(vault read -field=token secret/ci)",
            "password=%DB_PASSWORD%",
            "password='%(db_password)s'",
            "token=<your-token>",
            "api_key=<YOUR_API_KEY_HERE>",
            "password=(not set)",
            "token: \"{{ secrets.GH_TOKEN }}\"",
            "token: ${{ secrets.GH_TOKEN }}",
            "secret={{.Values.secret}}",
            "secret={db_secret}",
            "token = config.auth.token",
            "password = self.db2.password",
            "auth_url=auth.example.com",
            "token_file=token.txt",
            "TOKEN_PATH=$HOME/.config/ci/token",
            "token=${PREFIX}${SUFFIX}",
            "password=${DB_PASSWORD:-default}",
            "print(f\"password={password!r}\")",
            "secret={config['secret']}",
            "token=%API_TOKEN%",
        ] {
            assert_untouched(text);
        }
    }

    #[test]
    fn a_value_runs_through_an_ampersand_unless_a_parameter_follows() {
        assert_scrubs(
            "password=Tr0ub4dor&3xyz next",
            "password=[REDACTED:password] next",
            &["password"],
        );
        assert_scrubs(
            "GET /cb?access_token=Ab12Cd34Ef56&state=1&x=2",
            "GET /cb?access_token=[REDACTED:token]&state=1&x=2",
            &["token"],
        );
        assert_scrubs(
            "PASSWORD=Ab12Cd34Ef56&& make deploy",
            "PASSWORD=[REDACTED:password]&& make deploy",
            &["password"],
        );
        assert_scrubs(
            "secret=\"Ab12Cd34Ef56\"&x",
            "secret=\"[REDACTED:secret]\"&x",
            &["secret"],
        );
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
    fn what_counts_as_a_secret_value() {
        assert!(looks_like_secret("Hunter2024!"));
        assert!(looks_like_secret("p@ss-word"));
        assert!(!looks_like_secret("Hunt3r!"), "seven characters");
        assert!(!looks_like_secret("correcthorse"));
        assert!(!looks_like_secret("CorrectHorse"));
        assert!(!looks_like_secret("1234567890"));
        assert!(!looks_like_secret("os.getenv("));
        assert!(!looks_like_secret("Vec<Vec<u8>>"));
        assert!(!looks_like_secret("/home/user/.ssh/id_rsa"));
        assert!(!looks_like_secret("C:\\Users\\me\\key.pem"));
        assert!(is_code("a.b.c"));
        assert!(!is_code("abc123def"));
        assert!(!is_code("Abc1:Def2"));
        assert!(is_placeholder(""));
        assert!(is_placeholder("••••••••"));
        assert!(is_placeholder("xxxx-xxxx-xxxx"));
        assert!(!is_placeholder("Hunter2024!"));
    }

    // ----- property tests -----

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
        fn one_pass_finds_everything(text in fragment_soup()) {
            let once = replace(&text, &find_redactions(&text));
            let again = find_redactions(&once);
            prop_assert!(again.is_empty(), "{:?} -> {:?}", text, once);
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
}
