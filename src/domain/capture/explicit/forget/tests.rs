use super::*;

fn subjects(message: &str) -> Vec<String> {
    forget_requests(message)
        .into_iter()
        .map(|r| r.subject)
        .collect()
}

#[test]
fn an_opener_takes_the_rest_of_its_sentence_without_its_lead() {
    assert_eq!(
        subjects("Forget that we use pnpm. Now fix the build."),
        ["we use pnpm"]
    );
    assert_eq!(
        subjects("please forget about the old staging URL"),
        ["the old staging URL"]
    );
    assert_eq!(
        subjects("forget what I said about squashing commits!"),
        ["squashing commits"]
    );
}

#[test]
fn decoration_and_fillers_before_an_opener_are_skipped() {
    assert_eq!(
        subjects("- Also: forget about the vendored copy of lodash"),
        ["the vendored copy of lodash"]
    );
    assert_eq!(subjects("另外，忘掉关于pnpm的规则"), ["pnpm"]);
}

#[test]
fn a_statement_needs_a_separator_before_its_subject() {
    assert_eq!(
        subjects("That's no longer true: deploys happen on Fridays"),
        ["deploys happen on Fridays"]
    );
    assert!(subjects("That's no longer true.").is_empty());
}

#[test]
fn a_tailed_opener_needs_its_tail() {
    assert_eq!(
        subjects("don't remember the proxy setting anymore"),
        ["the proxy setting"]
    );
    assert!(subjects("don't remember the proxy setting").is_empty());
    assert_eq!(
        subjects("merk dir das mit dem Proxy nicht mehr"),
        ["mit dem Proxy"]
    );
}

#[test]
fn a_closer_takes_the_sentence_before_it() {
    assert_eq!(subjects("把pnpm那条忘掉吧"), ["pnpm"]);
    assert_eq!(subjects("pnpm のルールは忘れてください"), ["pnpm"]);
    assert_eq!(subjects("pnpm 규칙은 잊어줘"), ["pnpm"]);
    assert_eq!(
        subjects("The rule about the Friday freeze no longer applies."),
        ["the Friday freeze"]
    );
}

#[test]
fn a_remember_trigger_at_the_same_place_wins() {
    assert!(subjects("don't forget to run the migrations").is_empty());
    assert!(subjects("oublie pas de lancer les tests").is_empty());
    assert!(subjects("no olvides que usamos pnpm").is_empty());
    assert!(subjects("vergiss nicht, die Tests zu starten").is_empty());
    assert!(subjects("别忘了提交前跑测试").is_empty());
    assert!(subjects("pnpmを使うことを忘れないで").is_empty());
}

#[test]
fn talk_about_forgetting_is_no_request() {
    for message in [
        "I forgot to run the tests",
        "forget it",
        "Forget that, just run the linter",
        "should I forget about the cache?",
        "Can you forget the cache rule?",
        "`forget about the cache` is what the doc says",
        "> forget about the cache",
        "He wrote \"forget about the cache\" in the PR",
        "```\nforget about the cache\n```",
        "我忘了跑测试",
        "テストを実行するのを忘れてた",
        "테스트 돌리는 걸 잊어버렸어",
        "se me olvidó correr los tests",
        "j'ai oublié de lancer les tests",
        "esqueci de rodar os testes",
        "ich habe vergessen, die Tests zu starten",
        "忘れて",
        "그거 잊어",
        "olvídalo",
    ] {
        assert!(
            subjects(message).is_empty(),
            "{message}: {:?}",
            subjects(message)
        );
    }
}

#[test]
fn the_sentence_that_asked_is_kept_for_the_record() {
    let requests = forget_requests("ok. Forget about the lodash fork, thanks");
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].sentence, "Forget about the lodash fork, thanks");
}

#[test]
fn at_most_a_few_distinct_requests_are_taken() {
    let message: String = (0..9)
        .map(|n| format!("Forget about rule number {n}. "))
        .collect::<String>()
        + "Forget about rule number 0.";
    assert_eq!(forget_requests(&message).len(), MAX_FORGETS_PER_MESSAGE);
}
