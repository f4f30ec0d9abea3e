//! Placeholders, references, code and prose that stay, and look-alikes that do not.

use crate::domain::guard::secrets::placeholders::{is_code, is_placeholder, looks_like_secret};

use super::{assert_scrubs, assert_untouched};

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
