//! Values of secret-like names, labels and command-line arguments: what is replaced and
//! where a value ends.

use super::{assert_scrubs, assert_untouched, fake_key};

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
