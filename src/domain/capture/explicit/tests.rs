use super::scan::LINE_BREAKS;
use super::*;
use proptest::prelude::*;

// These tests pin the phrase tables of `rule_capture`, which the learned models read as
// features; the learned `capture` itself is tested in `learned_tests.rs`.

fn tables(message: &str) -> Vec<ExplicitMemory> {
    rule_capture(message).memories
}

fn texts(message: &str) -> Vec<String> {
    tables(message).into_iter().map(|m| m.text).collect()
}

// ─── Acceptance examples ───

#[test]
fn remember_this_captures_the_body_typed_by_its_content() {
    let memories = tables("remember this: use pnpm for all packages");
    assert_eq!(
        memories,
        vec![ExplicitMemory {
            kind: MemoryType::Feedback,
            text: "use pnpm for all packages".into(),
            scope: Addressee::Workspace,
        }]
    );
    let memories = tables("remember this: the repo uses pnpm for all packages");
    assert_eq!(memories[0].kind, MemoryType::Project);
}

#[test]
fn at_most_ten_distinct_memories_are_taken_and_the_rest_counted() {
    let message: String = (0..3000)
        .map(|i| format!("remember this: release step {i} needs a signed tag\n"))
        .collect();
    let captured = rule_capture(&message);
    let kept: Vec<&str> = captured.memories.iter().map(|m| m.text.as_str()).collect();
    let first: Vec<String> = (0..MAX_MEMORIES_PER_MESSAGE)
        .map(|i| format!("release step {i} needs a signed tag"))
        .collect();
    assert_eq!(kept, first);
    assert_eq!(captured.dropped, 3000 - MAX_MEMORIES_PER_MESSAGE);
    // Repeats count once, whether kept or beyond the limit; decoys count for nothing.
    let repeats = format!(
        "{}remember this: release step 0 needs a signed tag\nrelease step 99 is not a trigger\n{}",
        message,
        "remember this: release step 2999 needs a signed tag\n".repeat(5)
    );
    assert_eq!(
        rule_capture(&repeats).dropped,
        3000 - MAX_MEMORIES_PER_MESSAGE
    );
    assert_eq!(
        rule_capture(&"remember this: use pnpm everywhere\n".repeat(40)),
        Captured {
            memories: tables("remember this: use pnpm everywhere"),
            dropped: 0,
            set_aside: 0,
            refused: Vec::new(),
            negated: Vec::new(),
        }
    );
}

#[test]
fn invisible_characters_are_removed_before_capture() {
    assert_eq!(
        texts("remem\u{200B}ber this: use\u{E0020}\u{E0041} pnpm\u{202E} everywhere"),
        ["use pnpm everywhere"]
    );
    // Seven visible chars do not make a memory, however many invisible ones pad them.
    assert!(tables("remember this: use\u{200B}\u{200B} pnp").is_empty());
}

#[test]
fn text_without_a_trigger_yields_nothing() {
    assert!(tables("tests always fail on CI when cache is stale").is_empty());
}

#[test]
fn a_negation_before_the_trigger_cancels_it() {
    assert!(tables("please don't remember this: use npm cache").is_empty());
    assert!(tables("Do not remember: the old staging password").is_empty());
    assert!(tables("No need to remember this: the temp branch name").is_empty());
    assert!(tables("不要记住这个：临时的测试数据库密码").is_empty());
    assert!(tables("别记住：这个分支只是临时的实验").is_empty());
    // The same sentences without the negation do capture.
    assert_eq!(tables("please remember this: use npm cache").len(), 1);
    assert_eq!(tables("记住这个：临时的测试数据库密码").len(), 1);
}

#[test]
fn a_trigger_inside_a_sentence_does_not_count() {
    assert!(tables("I will not forget to remember this: use pnpm").is_empty());
    assert!(tables("we should remember this: use pnpm everywhere").is_empty());
}

#[test]
fn chinese_triggers_one_per_line() {
    assert_eq!(
        texts("請記住：使用 pnpm 管理套件\n記住這點：用 TypeScript 撰寫程式碼"),
        ["使用 pnpm 管理套件", "用 TypeScript 撰寫程式碼"]
    );
}

#[test]
fn from_now_on_and_remember_colon() {
    assert_eq!(
        texts("from now on: reply in Traditional Chinese"),
        ["reply in Traditional Chinese"]
    );
    assert_eq!(
        texts("remember: the staging DB is read-only"),
        ["the staging DB is read-only"]
    );
}

#[test]
fn a_trigger_after_a_sentence_inside_recorded_quotes() {
    let message = "\"please fix the typecheck. remember this: always run npm run typecheck before committing\"";
    assert_eq!(
        texts(message),
        ["always run npm run typecheck before committing"]
    );
}

#[test]
fn short_bodies_are_ignored_counting_chars() {
    assert!(tables("remember this: ok").is_empty());
    // 5 chars (one CJK) but 9 bytes.
    assert!(tables("记住：用pnpm").is_empty());
    // A CJK char counts twice: five of them carry a whole instruction.
    assert_eq!(texts("以后都用中文回复"), ["用中文回复"]);
}

#[test]
fn private_spans_are_removed_before_capture() {
    let message = "<private>remember this: my home address is 12 Elm St</private> remember this: use pnpm everywhere";
    assert_eq!(texts(message), ["use pnpm everywhere"]);
}

#[test]
fn an_unclosed_private_tag_hides_the_rest() {
    assert_eq!(
        texts("remember this: use pnpm <private>and the secret"),
        ["use pnpm"]
    );
}

#[test]
fn japanese_verb_first_with_a_colon() {
    assert_eq!(
        texts("覚えておいて：コミット前に必ずテストを実行する"),
        ["コミット前に必ずテストを実行する"]
    );
}

#[test]
fn japanese_verb_last_takes_the_sentence_before_it() {
    assert_eq!(texts("pnpmを使うことを覚えておいて"), ["pnpmを使うこと"]);
    assert_eq!(
        texts("ビルドを直して。デプロイは金曜日に行わないことを覚えておいてくださいね。"),
        ["デプロイは金曜日に行わないこと"]
    );
    assert_eq!(
        texts("あと、ポート番号は8080だと忘れないで"),
        ["ポート番号は8080だ"]
    );
}

#[test]
fn japanese_negated_or_non_final_verbs_are_not_triggers() {
    assert!(tables("pnpmを使うことを覚えないで").is_empty());
    assert!(tables("覚えないで：これは一時的な設定です").is_empty());
    assert!(tables("昨日話したことを覚えていますか").is_empty());
}

#[test]
fn korean_verb_first_with_a_colon() {
    assert_eq!(
        texts("기억해줘: 커밋 전에 항상 테스트를 실행해"),
        ["커밋 전에 항상 테스트를 실행해"]
    );
}

#[test]
fn korean_verb_last_takes_the_sentence_before_it() {
    assert_eq!(
        texts("배포 전에 항상 테스트를 실행한다는 것을 기억해 줘"),
        ["배포 전에 항상 테스트를 실행한다"]
    );
    assert_eq!(
        texts("기본 브랜치는 main이라는 것을 기억해줘~"),
        ["기본 브랜치는 main"]
    );
    assert_eq!(
        texts("그리고 배포 전에 린트 규칙을 잊지 마세요."),
        ["배포 전에 린트 규칙"]
    );
}

#[test]
fn korean_negated_verbs_and_questions_are_not_triggers() {
    assert!(tables("이 설정을 기억하지 마: 임시 값이니까 곧 바뀜").is_empty());
    assert!(tables("우리가 어제 정한 배포 규칙을 기억해?").is_empty());
    assert_eq!(tables("우리가 어제 정한 배포 규칙을 기억해.").len(), 1);
}

#[test]
fn three_memories_across_english_and_chinese() {
    let message = "remember this: use pnpm everywhere. 记住：提交前先运行全部测试\n\
                       From now on, reply in Simplified Chinese";
    assert_eq!(
        texts(message),
        [
            "use pnpm everywhere",
            "提交前先运行全部测试",
            "reply in Simplified Chinese"
        ]
    );
}

// ─── Where triggers count ───

#[test]
fn fillers_bullets_and_quote_markers_may_precede_a_trigger() {
    assert_eq!(
        texts("Btw, please remember that the staging DB is read-only"),
        ["the staging DB is read-only"]
    );
    assert_eq!(
        texts("- remember: the API key lives in vault\n> from now on, answer in English"),
        ["the API key lives in vault"],
        "a blockquote is quoted text"
    );
    assert_eq!(
        texts("**Remember:** CI runs on Node 20 only"),
        ["CI runs on Node 20 only"]
    );
    assert_eq!(
        texts("另外，请记住：接口统一返回 JSON 格式"),
        ["接口统一返回 JSON 格式"]
    );
}

#[test]
fn a_trigger_must_be_a_whole_word() {
    assert!(tables("Remembering the old API, we wrapped every call in a retry").is_empty());
    assert!(tables("remembered: the cache was stale yesterday").is_empty());
    // Fillers too: "please" must end before "remember".
    assert!(tables("pleaseremember: the staging DB is read-only").is_empty());
}

#[test]
fn a_body_ends_with_its_sentence() {
    assert_eq!(
        texts("remember: use pnpm everywhere. It is faster.\nand fix the tests"),
        ["use pnpm everywhere"]
    );
    assert_eq!(
        texts("記住：提交前先跑一遍測試。然後幫我修一下登入頁"),
        ["提交前先跑一遍測試"]
    );
    assert_eq!(
        texts("recuerda que el puerto es 8080! Ahora arregla el login"),
        ["el puerto es 8080"]
    );
}

#[test]
fn a_body_stops_before_the_next_trigger_sentence() {
    assert_eq!(
        texts("remember: use pnpm everywhere. from now on, reply in Chinese"),
        ["use pnpm everywhere", "reply in Chinese"]
    );
    // A cancelled trigger ends the body before it too.
    assert_eq!(
        texts("remember: use pnpm everywhere! Don't remember this: the temp token"),
        ["use pnpm everywhere"]
    );
    assert_eq!(
        texts("remember: use pnpm everywhere. テストを先に実行することを覚えて"),
        ["use pnpm everywhere", "テストを先に実行すること"]
    );
}

#[test]
fn dots_inside_words_do_not_end_a_sentence() {
    assert_eq!(
        texts("remember: the docs are at example.com/setup.html for v1.2"),
        ["the docs are at example.com/setup.html for v1.2"]
    );
    // Glued to a CJK character, an ASCII full stop still ends the sentence.
    assert_eq!(
        texts("修好了.记住：提交前先运行全部测试"),
        ["提交前先运行全部测试"]
    );
}

#[test]
fn lines_in_a_code_block_are_not_instructions() {
    let message = "look at this:\n```\nremember: this line is only code\n```\nremember: the fence is closed now";
    assert_eq!(texts(message), ["the fence is closed now"]);
}

#[test]
fn windows_line_endings_split_lines() {
    assert_eq!(
        texts("remember: use pnpm everywhere\r\nremember: reply in English"),
        ["use pnpm everywhere", "reply in English"]
    );
}

#[test]
fn a_question_is_not_an_instruction() {
    assert!(tables("Remember when we moved the CI to GitHub Actions?").is_empty());
    assert!(tables("记得我们上周讨论的那个方案吗？").is_empty());
    assert_eq!(
        texts("remember: use pnpm everywhere. Can you fix the build?"),
        ["use pnpm everywhere"]
    );
}

#[test]
fn an_empty_trigger_sentence_takes_no_body_from_the_next() {
    assert!(tables("Remember. The build takes ten minutes").is_empty());
}

// ─── Trigger forms ───

#[test]
fn remember_to_keeps_the_instruction() {
    assert_eq!(
        texts("remember to run tests before pushing"),
        ["run tests before pushing"]
    );
    assert_eq!(
        texts("remember that's how the deploy works"),
        ["that's how the deploy works"]
    );
}

#[test]
fn memory_phrases_and_going_forward() {
    assert_eq!(
        texts("Save this to memory: prod deploys need two approvals"),
        ["prod deploys need two approvals"]
    );
    assert_eq!(
        texts("commit to memory, the linter runs in strict mode"),
        ["the linter runs in strict mode"]
    );
    assert_eq!(
        texts("Going forward keep functions under 50 lines"),
        ["keep functions under 50 lines"]
    );
}

#[test]
fn preference_triggers_stay_in_the_text() {
    assert_eq!(
        texts("Also, I prefer small focused commits."),
        ["I prefer small focused commits"]
    );
    assert_eq!(
        texts("my preference is tabs over spaces"),
        ["my preference is tabs over spaces"]
    );
    assert!(tables("I preferred the old layout honestly").is_empty());
}

#[test]
fn chinese_from_now_on_forms() {
    assert_eq!(
        texts("從現在開始，所有回覆都用繁體中文"),
        ["所有回覆都用繁體中文"]
    );
    assert_eq!(texts("以后请用 pnpm 安装依赖"), ["用 pnpm 安装依赖"]);
    assert_eq!(texts("记得提交前跑一遍 lint"), ["提交前跑一遍 lint"]);
}

#[test]
fn deferrals_are_ignored() {
    assert!(tables("remember: next time").is_empty());
    assert!(tables("remember this for later").is_empty());
    assert!(tables("Remember it next time.").is_empty());
    assert_eq!(tables("remember: next time use pnpm").len(), 1);
}

// ─── Body cleanup ───

#[test]
fn surrounding_quotes_and_one_trailing_punctuation_are_trimmed() {
    let cases = [
        ("remember: \"use pnpm everywhere\"", "use pnpm everywhere"),
        ("remember: “use pnpm everywhere”.", "use pnpm everywhere"),
        ("記住：「使用 pnpm 管理套件」", "使用 pnpm 管理套件"),
        (
            "remember: `pnpm install --frozen-lockfile`",
            "pnpm install --frozen-lockfile",
        ),
        ("remember: don't use 'npm' here", "don't use 'npm' here"),
        (
            "remember: \"pnpm\" is the package manager",
            "\"pnpm\" is the package manager",
        ),
        (
            "remember:   use \t pnpm   everywhere  ",
            "use pnpm everywhere",
        ),
    ];
    for (message, text) in cases {
        assert_eq!(texts(message), [text], "{message}");
    }
}

// ─── classify ───

// ─── Properties ───

/// Pieces that often form triggers, so that random messages reach the interesting paths.
fn message_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "remember this: ",
            "Remember ",
            "please don't ",
            "from now on, ",
            "I prefer ",
            "记住：",
            "請記住",
            "不要",
            "覚えておいて",
            "を覚えて",
            "기억해줘",
            "라는 것을 ",
            "잊지 마세요",
            "<private>",
            "</PRIVATE>",
            "```",
            ". ",
            "。",
            "？",
            "!",
            "\n",
            "\r\n",
            "\"",
            "「",
            "」",
            "  ",
            "\u{2028}",
            "use pnpm",
            "测试",
            "ü",
            "🙂",
        ])
        .prop_map(String::from),
        any::<String>(),
    ]
}

fn assert_well_formed(memories: &[ExplicitMemory]) {
    for memory in memories {
        assert!(
            memory.text.chars().count() >= MIN_BODY_CHARS / 2,
            "{memory:?}"
        );
        assert!(!memory.text.contains(LINE_BREAKS), "{memory:?}");
        assert_eq!(memory.kind, classify(&memory.text));
    }
}

proptest! {
    #[test]
    fn capture_never_panics_on_arbitrary_text(message in any::<String>()) {
        assert_well_formed(&tables(&message));
    }

    #[test]
    fn capture_bodies_are_long_single_lines(
        pieces in prop::collection::vec(message_piece(), 0..24)
    ) {
        let message = pieces.concat();
        assert_well_formed(&tables(&message));
        let _ = classify(&message);
    }

    #[test]
    fn strip_private_drops_exactly_the_span(
        before in "[^<]{0,20}",
        secret in "[^<]{0,20}",
        after in "[^<]{0,20}",
    ) {
        let message = format!("{before}<private>{secret}</private>{after}");
        prop_assert_eq!(strip_private(&message), format!("{before}{after}"));
    }

    #[test]
    fn captured_text_is_always_in_the_message(
        pieces in prop::collection::vec(message_piece(), 0..24)
    ) {
        let message = pieces.concat();
        let normalized = normalize(&message);
        for memory in tables(&message) {
            prop_assert!(normalized.contains(&memory.text), "{:?} not in {:?}", memory.text, normalized);
        }
    }
}

/// The message as capture reads it, whitespace folded: every memory is a piece of it.
fn normalize(message: &str) -> String {
    let visible = strip_invisible(message);
    strip_private(&visible)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The work counted while capturing `message`.
fn work_of(message: &str) -> u64 {
    super::text::WORK.with(|work| work.set(0));
    let _ = rule_capture(message);
    super::text::WORK.with(|work| work.get())
}

#[test]
fn capture_work_is_linear_in_the_message_length() {
    let shapes = [
        "remember this: use pnpm everywhere. Fix the build please.\n".to_owned(),
        "please, and please, and also, ok, so, and remember that ".to_owned(),
        "Fix the header, and remember that we never commit to main, and ".to_owned(),
        "Remember these:\n- use tabs\n- keep PRs small\n".to_owned(),
        "ステージングのDBは読み取り専用だということを覚えておいて、あと".to_owned(),
        "不要不要不要请请记住记住".to_owned(),
        "`remember` \"remember\" > remember ".to_owned(),
        "a".repeat(64),
    ];
    for shape in shapes {
        let small = work_of(&shape.repeat(50));
        let large = work_of(&shape.repeat(800));
        // Sixteen times the text may cost at most about sixteen times the work.
        assert!(
            large <= small * 16 * 5 / 4 + 1000,
            "{shape:?}: {small} for 50 copies, {large} for 800"
        );
        assert!(small > 0, "{shape:?}");
    }
}

#[test]
fn back_references_take_the_sentence_before() {
    assert_eq!(
        texts("The e2e tests need the mock server on port 4010. Remember that for next time."),
        ["The e2e tests need the mock server on port 4010"]
    );
    assert_eq!(
        texts("支付回调必须先验签再处理。下次记住这一点。"),
        ["支付回调必须先验签再处理"]
    );
    assert!(tables("Remember that for next time.").is_empty());
}

#[test]
fn a_trigger_pointing_forward_takes_the_next_line_or_each_item() {
    assert_eq!(
        texts("Remember this:\nThe billing service only accepts cents. Also fix the tests"),
        ["The billing service only accepts cents"]
    );
    assert_eq!(
        texts(
            "Please remember these:\n- use tabs in Go files\n\n- never log request bodies\nthanks!"
        ),
        ["use tabs in Go files", "never log request bodies"]
    );
}

#[test]
fn triggers_after_emoji_also_one_more_thing_and_mid_sentence() {
    assert_eq!(
        texts("📌 Remember: all dates are UTC strings"),
        ["all dates are UTC strings"]
    );
    assert_eq!(
        texts("one more thing — from now on run clippy first"),
        ["run clippy first"]
    );
    assert_eq!(
        texts("Fix the typo, and remember that we never push to main."),
        ["we never push to main"]
    );
}

#[test]
fn decoys_capture_nothing() {
    for message in [
        "What does `remember: true` do here",
        "this is slow:\n# remember to invalidate the cache\ndef refresh(): pass",
        "> Remember to rotate the keys every 90 days",
        "---------- Forwarded message ---------\nRemember to update your VPN client.",
        "Note: Remember to set NODE_ENV before building.",
        "The ticket says \"remember to update the changelog\" but we have none",
        "remember when we moved the CI to GitHub Actions, what broke",
        "I prefer option B, go ahead",
        "Going forward with the migration plan, start with users",
        "remember this later 😅",
        "Remember this device for 30 days",
    ] {
        assert!(
            tables(message).is_empty(),
            "{message}: {:?}",
            tables(message)
        );
    }
}
