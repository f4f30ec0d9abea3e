//! The learned `capture`: what holds whatever the weights say (one line per memory, taken
//! from the message, at most ten, nothing from code, quotes or private spans), and the plainest
//! requests in each language.

use super::scan::LINE_BREAKS;
use super::*;
use crate::domain::base::classifier::Field;
use proptest::prelude::*;

/// The sentences of a line, as capture reads them.
fn sentences_of(line: &str) -> Vec<&str> {
    learned::line_sentences(line)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

fn texts(message: &str) -> Vec<String> {
    capture(message).into_iter().map(|m| m.text).collect()
}

/// The message as capture reads it, whitespace folded: every memory is a piece of it.
fn normalize(message: &str) -> String {
    let visible = strip_invisible(message);
    strip_private(&visible)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_well_formed(message: &str, memories: &[ExplicitMemory]) {
    let normalized = normalize(message);
    for memory in memories {
        assert!(
            memory.text.chars().count() >= MIN_BODY_CHARS / 2,
            "{memory:?}"
        );
        assert!(!memory.text.contains(LINE_BREAKS), "{memory:?}");
        assert!(
            normalized.contains(&memory.text),
            "{:?} not in {normalized:?}",
            memory.text
        );
    }
    assert!(memories.len() <= MAX_MEMORIES_PER_MESSAGE);
    for memory in memories {
        assert!(
            !memories
                .iter()
                .any(|other| other.text.len() < memory.text.len()
                    && memory.text.contains(&other.text)),
            "{memory:?} holds another of {memories:?}"
        );
    }
}

fn message_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "remember this: ",
            "remeber that ",
            ", keep that in mind",
            "please don't ",
            "from now on, ",
            "记住：",
            "，记住这个",
            "覚えておいて",
            "ことを覚えといて",
            "기억해줘",
            "라는 것을 ",
            "<private>",
            "</private>",
            "```",
            "- ",
            ":\n",
            ". ",
            "。",
            "？",
            "\n",
            "\r\n",
            "\"",
            "use pnpm in this repo",
            "the staging DB is read-only",
            "ü",
            "🙂",
        ])
        .prop_map(String::from),
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn capture_is_well_formed_on_any_text(message in any::<String>()) {
        assert_well_formed(&message, &capture(&message));
    }

    #[test]
    fn capture_is_well_formed_on_trigger_pieces(
        pieces in prop::collection::vec(message_piece(), 0..24)
    ) {
        let message = pieces.concat();
        assert_well_formed(&message, &capture(&message));
    }
}

#[test]
fn at_most_ten_distinct_memories_are_taken_and_the_rest_counted() {
    let message: String = (0..30)
        .map(|i| format!("remember this: release step {i} needs a signed tag\n"))
        .collect();
    let captured = capture_counted(&message);
    let kept: Vec<&str> = captured.memories.iter().map(|m| m.text.as_str()).collect();
    let first: Vec<String> = (0..MAX_MEMORIES_PER_MESSAGE)
        .map(|i| format!("release step {i} needs a signed tag"))
        .collect();
    assert_eq!(kept, first);
    assert_eq!(captured.dropped, 30 - MAX_MEMORIES_PER_MESSAGE);
    // Repeats count once.
    let twice = format!("{message}{message}");
    assert_eq!(capture_counted(&twice), captured);
}

#[test]
fn code_quotes_forwarded_text_private_spans_and_host_context_are_not_read() {
    for message in [
        "this is slow:\n```\n# remember this: always invalidate the cache\n```",
        "> Remember this: rotate the keys every 90 days",
        "---------- Forwarded message ---------\nRemember this: update your VPN client.",
        "<private>remember this: my home address is 12 Elm St</private>",
        "remember this: <private>the staging password is hunter2 and more</private>",
        "<hook_context>Hot session state (current session):\n- [test] not ok 1 - adds numbers | \
         AssertionError [ERR_ASSERTION]: 3 == 4\nremember this: use pnpm everywhere</hook_context>",
        "<HOOK_CONTEXT>remember this: use pnpm everywhere",
    ] {
        assert!(
            capture(message).is_empty(),
            "{message}: {:?}",
            capture(message)
        );
    }
}

#[test]
fn invisible_characters_are_removed_before_capture() {
    let plain = texts("remember this: use pnpm everywhere");
    assert_eq!(
        texts("remem\u{200B}ber this: use\u{E0020}\u{E0041} pnpm\u{202E} everywhere"),
        plain
    );
}

#[test]
fn the_plainest_requests_are_taken_in_every_language() {
    for (message, text) in [
        (
            "remember this: use pnpm for all packages",
            "use pnpm for all packages",
        ),
        (
            "The e2e tests need the mock server on port 4010. Remember that for next time.",
            "The e2e tests need the mock server on port 4010",
        ),
        ("记住：所有时间都用 UTC 存储", "所有时间都用 UTC 存储"),
        ("請記住：使用 pnpm 管理套件", "使用 pnpm 管理套件"),
        (
            "覚えておいて：ステージングのDBは読み取り専用",
            "ステージングのDBは読み取り専用",
        ),
        (
            "기억해 줘: 배포는 금요일에 하지 않는다",
            "배포는 금요일에 하지 않는다",
        ),
        (
            "Merk dir: die Tests laufen nur mit Docker",
            "die Tests laufen nur mit Docker",
        ),
        (
            "Recuerda que el puerto de la API es 8080",
            "el puerto de la API es 8080",
        ),
        (
            "Retiens que les migrations passent toujours par Alembic",
            "les migrations passent toujours par Alembic",
        ),
        (
            "Lembra que o deploy é sempre pelo GitHub Actions",
            "o deploy é sempre pelo GitHub Actions",
        ),
    ] {
        assert_eq!(texts(message), [text], "{message}");
    }
}

#[test]
fn a_list_under_a_trigger_gives_each_item() {
    assert_eq!(
        texts(
            "Please remember these:\n- use tabs in Go files\n- never log request bodies\nthanks!"
        ),
        ["use tabs in Go files", "never log request bodies"]
    );
}

#[test]
fn statements_and_questions_are_left_alone() {
    for message in [
        "What does `remember: true` do here?",
        "do you remember how the cache works?",
        "I prefer option B, go ahead",
        "remember when we moved the CI to GitHub Actions, what broke?",
    ] {
        assert!(
            capture(message).is_empty(),
            "{message}: {:?}",
            capture(message)
        );
    }
}

#[test]
fn host_context_is_cut_out_and_what_surrounds_it_is_read() {
    assert_eq!(
        texts("<hook_context>- [test] not ok 1</hook_context>remember this: use pnpm everywhere"),
        ["use pnpm everywhere"]
    );
}

#[test]
fn the_models_read_what_the_tables_took_too() {
    // A one-off for the task at hand, in the tables' own form: the sentence model leaves it.
    for message in [
        "Remember to regenerate the timetable fixtures before you push this branch.",
        "Don't forget to mention the seat-map fix in the description of this pull request.",
    ] {
        assert!(
            !rule_capture(message).memories.is_empty(),
            "the tables take {message}"
        );
        assert!(
            capture(message).is_empty(),
            "{message}: {:?}",
            capture(message)
        );
    }
    // A trigger that only points back: what it points at is taken, not the words after the
    // tables' trigger ("decision please, I don't want to relitigate it"). Since blind11 was
    // trained on, the ruled model reads the user's comment after the pointer as a request of
    // its own ("remember that" asked for blind11's "Please remember that the controller talks
    // …") and it is kept too: a known loss, in docs/capture-models.md.
    let message = "No, the due date is computed from the branch's calendar, not the system \
                   calendar. Remember that decision please, I don't want to relitigate it.";
    let taken = texts(message);
    assert_eq!(
        taken[0],
        "the due date is computed from the branch's calendar, not the system calendar"
    );
    assert!(taken.iter().all(|text| !text.contains("decision please")));
}

/// The named features the span model reads of a proposal leaving `head` and `tail` out of a
/// memory `body`, of those whose name holds one of `kinds`.
fn named_features(head: &str, body: &str, tail: &str, kinds: &[&str]) -> Vec<String> {
    let proposal = learned::Proposal {
        head,
        tail,
        body: learned::Body::Span(body),
        next: "",
        ..learned::Proposal::default()
    };
    learned::input(&proposal, false, false)
        .named
        .iter()
        .filter(|name| kinds.iter().any(|kind| name.contains(kind)))
        .map(|name| name.to_string())
        .collect()
}

#[test]
fn a_proposal_s_edges_have_a_shape() {
    let shape = |head: &str, tail: &str| named_features(head, "x", tail, &[":shape:"]);
    assert_eq!(shape("", ""), ["head:shape:none", "tail:shape:none"]);
    assert_eq!(
        shape("remember this:", ", ok?"),
        ["head:shape:marked", "tail:shape:marked"]
    );
    assert_eq!(
        shape("天", "这点你记住"),
        ["head:shape:short-unspaced", "tail:shape:mid"]
    );
    assert_eq!(
        shape("pls", "remember that one, it bit us twice already"),
        ["head:shape:short", "tail:shape:long"]
    );
}

#[test]
fn what_a_proposal_keeps_and_leaves_out_is_read_for_whether_it_names_anything() {
    let naming =
        |head: &str, body: &str, tail: &str| named_features(head, body, tail, &["names", "naming"]);
    // A chatty ending left in the memory names nothing; the memory's own clauses do.
    assert_eq!(
        naming(
            "",
            "the cron runs every 15 min on staging, ok",
            ", remember that"
        ),
        ["body:ends-naming-nothing"]
    );
    assert_eq!(
        naming("", "again, the lockfile is `pnpm-lock.yaml`", ""),
        ["body:opens-naming-nothing"]
    );
    // What is left out names something: a memory cut short, or a task after it.
    assert_eq!(
        naming("remember:", "use pnpm", ", the builds use weasyprint 60.2"),
        ["tail:names", "body:names-nothing"]
    );
    assert_eq!(naming("", "please do it again", ""), ["body:names-nothing"]);
    assert_eq!(
        naming("", "ok, never deploy on 31 December, ok", ""),
        ["body:opens-naming-nothing", "body:ends-naming-nothing"]
    );
}

#[test]
fn a_request_is_read_in_its_own_clause() {
    let sentence = "Arregla el typo del header, y recuerda que nunca hacemos commit directo a main";
    let at = sentence.find("nunca").unwrap();
    assert_eq!(
        learned::clause_before(sentence, at),
        "y recuerda que nunca hacemos commit directo a main"
    );
    let sentence = "Also, remember: use pnpm";
    let at = sentence.find("use").unwrap();
    assert_eq!(learned::clause_before(sentence, at), "remember: use pnpm");
    let sentence = "pnpmを使うことを覚えておいて";
    assert_eq!(learned::clause_before(sentence, 0), sentence);
}

#[test]
fn a_memory_set_apart_with_a_colon_is_kept_as_the_tables_cut_it() {
    for trigger in [
        "remember this:",
        "Remember:",
        "覚えておいて：",
        "for all my projects:",
    ] {
        assert!(learned::is_colon_trigger(trigger), "{trigger}");
    }
    for trigger in ["", ":", " : ", "remember to", "remember this", "note: it, "] {
        assert!(!learned::is_colon_trigger(trigger), "{trigger:?}");
    }
    // The ruled model would leave these (a habit read as a one-off); the colon keeps them.
    for (message, memory) in [
        (
            "remember this: run the linter before pushing",
            "run the linter before pushing",
        ),
        (
            "please fix the build. remember this: run the linter before pushing",
            "run the linter before pushing",
        ),
    ] {
        assert_eq!(texts(message), [memory], "{message}");
    }
}

#[test]
fn a_request_of_its_own_is_not_read_as_pointing_at_the_next_or_the_one_before() {
    // Two requests, each its own memory: the first sentence does not point on at the second.
    assert_eq!(
        texts(
            "remember: use pnpm for all packages. Remember that pnpm-lock.yaml must be \
             committed with every dependency change."
        ),
        [
            "use pnpm for all packages",
            "pnpm-lock.yaml must be committed with every dependency change"
        ]
    );
    // A statement before a request of its own is not what the request points at.
    assert_eq!(
        texts("we decided to use Postgres. remember this: we decided to use Postgres over MySQL"),
        ["we decided to use Postgres over MySQL"]
    );
    assert!(is_whole("use pnpm", "Use pnpm."));
    assert!(is_whole("use pnpm", "use pnpm, please"));
    assert!(!is_whole("use pnpm", "remember this: use pnpm"));
}

#[test]
fn whom_a_memory_is_for_is_the_tables_reading_of_the_whole_request() {
    let captured = capture("Remember for all my projects: reply in Traditional Chinese.");
    assert_eq!(captured.len(), 1);
    assert_eq!(captured[0].scope, Addressee::User);
    assert_eq!(captured[0].text, "reply in Traditional Chinese");
}

#[test]
fn a_choice_called_a_decision_is_one() {
    let captured =
        capture("remember this: we decided the alert bot uses the ops channel and backups use S3");
    assert_eq!(captured.len(), 1);
    assert_eq!(captured[0].kind, MemoryType::Decision);
    assert_eq!(
        kind::named_type("we decided to use Postgres"),
        Some(MemoryType::Decision)
    );
    assert_eq!(
        kind::named_type("the runbook is at https://wiki.example.com/run"),
        Some(MemoryType::Reference)
    );
    assert_eq!(
        kind::named_type("the status page is https://status.example.com"),
        Some(MemoryType::Reference)
    );
    assert_eq!(kind::named_type("send the weekly report on Mondays"), None);
}

#[test]
fn a_memory_the_request_calls_a_decision_is_one() {
    let kinds = learned::models().kind;
    let fact =
        "the inventory moves from Airtable to a Django app, because the API limit broke the sync";
    // The request around the memory in its sentence, the short sentence after it, or the
    // pointer a memory pointed back at comes from.
    for (sentence, next) in [
        (format!("Decision made this morning: {fact}."), ""),
        (format!("{fact}."), "Please record it as a decision."),
        ("这个决定你记一下。".to_string(), ""),
        ("Keep that decision, and the reason.".to_string(), ""),
    ] {
        assert_eq!(
            learned::type_of(&kinds, fact, &sentence, next),
            MemoryType::Decision,
            "{sentence:?} {next:?}"
        );
    }
    // A request that names no choice leaves the type to the memory's words.
    let rule = "never restart the dosing pump during feeding hours";
    for (text, sentence, next) in [
        (rule, format!("Remember: {rule}."), ""),
        (rule, format!("{rule}."), "Remember that."),
        (fact, format!("{fact}."), "Remember that."),
        (fact, "Keep that in mind.".to_string(), ""),
    ] {
        assert_ne!(
            learned::type_of(&kinds, text, &sentence, next),
            MemoryType::Decision,
            "{sentence:?} {next:?}"
        );
    }
    assert!(!kind::names_decision("please remember this for next time"));
    assert!(kind::names_decision("決定として残しといて"));
    assert!(kind::names_decision("Guárdalo como decisión del equipo"));
}

#[test]
fn what_the_tables_took_and_the_models_left_is_counted_for_the_agent() {
    let message = "Fix the header. Also remember to run the tests before you finish this.";
    let captured = capture_counted(message);
    assert!(!rule_capture(message).memories.is_empty());
    assert!(captured.memories.is_empty(), "{captured:?}");
    assert_eq!(captured.set_aside, 1);
    // Kept, or replaced by another text of the same sentence: nothing set aside.
    assert_eq!(
        capture_counted("remember this: use pnpm everywhere").set_aside,
        0
    );
    assert_eq!(capture_counted("use pnpm everywhere").set_aside, 0);
}

#[test]
fn the_tables_cut_stands_after_a_colon_and_the_span_model_chooses_elsewhere() {
    use crate::domain::base::classifier::Input;
    let colon = Input::default()
        .named("rule:sentence")
        .named("trigger:colon");
    let plain = Input::default().named("rule:sentence");
    assert_eq!(table_span_of(ODDS, &colon), 0.0);
    assert_eq!(table_span_of(ODDS, &plain), ODDS.table_span);
    // "Remember that" after a fact points back at it: the span model takes the fact, not the
    // clause the tables took after the trigger.
    let message = "oh and the soil probes report moisture as volumetric percent times ten, not \
                   a fraction. Remember that, the last three bugs in the irrigation controller \
                   were all this.";
    assert!(rule_capture(message)
        .memories
        .iter()
        .any(|m| m.text.starts_with("the last three bugs")));
    assert_eq!(
        texts(message),
        ["the soil probes report moisture as volumetric percent times ten, not a fraction"]
    );
}

/// The proposal that leaves `head` out before `body`, scored as `walk` scores it; it gives
/// `body` as its memory when `gives`.
fn opening_cut(
    head: &'static str,
    body: &'static str,
    gives: bool,
    rule_took: bool,
    rule_in_sentence: bool,
) -> Scored<'static> {
    let proposal = learned::Proposal {
        head,
        tail: "",
        body: learned::Body::Span(body),
        next: "",
        ..learned::Proposal::default()
    };
    Scored {
        input: learned::input(&proposal, rule_took, rule_in_sentence),
        memories: if gives {
            vec![(Addressee::Workspace, body.to_string())]
        } else {
            Vec::new()
        },
        rule_took,
    }
}

#[test]
fn the_span_odds_choose_between_the_tables_proposals_and_the_best() {
    let models = learned::models();
    let scored = |head, body, rule_took| opening_cut(head, body, true, rule_took, true);
    // Two cuts marked as the tables', both worse than the plain one the tables did not take.
    let proposals = [
        scored("remember this: use pnpm for", "all packages here", true),
        scored("remember this:", "use pnpm for all packages here", false),
        scored("remember this: use", "pnpm for all packages here", true),
    ];
    let p: Vec<f64> = proposals
        .iter()
        .map(|s| models.span.predict(&s.input).probability(1))
        .collect();
    assert!(p[1] > p[0] && p[1] > p[2], "{p:?}");
    let table = if p[2] > p[0] { 2 } else { 0 };
    assert_eq!(best_span_at(0.0, &models, &proposals), Some(table));
    assert_eq!(best_span_at(p[table], &models, &proposals), Some(table));
    assert_eq!(best_span_at(p[table] + 1e-9, &models, &proposals), Some(1));
    assert_eq!(best_span_at(1.1, &models, &proposals), Some(1));
    assert_eq!(best_span_at(1.1, &models, &proposals[..1]), Some(0));
    assert_eq!(best_span_at(1.1, &models, &[]), None);
}

#[test]
fn the_ruled_model_reads_the_trigger_the_memory_and_what_follows_apart() {
    use crate::domain::base::classifier::Field;
    let read = |sentence: &'static str, memory: &str, next: &'static str| {
        let from = sentence.find(memory).unwrap();
        let context = learned::SentenceContext {
            sentence,
            before: None,
            next,
            list_follows: false,
            is_question: false,
            rule_in_sentence: true,
            rule_points_here: false,
            read_with_previous: false,
            taken: Some((from, from + memory.len())),
        };
        let input = learned::sentence_input(&context);
        let fields = |field: Field| -> Vec<&str> {
            input
                .texts
                .iter()
                .filter(|(f, _)| *f == field)
                .map(|(_, t)| *t)
                .collect()
        };
        (
            fields(Field::Head),
            fields(Field::Body),
            fields(Field::Tail),
            fields(Field::After),
            input.named.clone(),
        )
    };
    let (head, body, tail, after, named) = read("remember this: use pnpm", "use pnpm", "");
    assert_eq!((head, body), (vec!["remember this: "], vec!["use pnpm"]));
    assert!(tail.is_empty() && after.is_empty());
    assert!(named.contains(&"trigger:colon") && named.contains(&"after:none"));
    let (_, _, tail, after, named) = read(
        "remember to bump the version before you merge this PR",
        "bump the version",
        "Thanks.",
    );
    assert_eq!(tail, [" before you merge this PR"]);
    assert_eq!(after, ["Thanks."]);
    assert!(!named.contains(&"trigger:colon") && !named.contains(&"after:none"));
}

#[test]
fn a_sentence_the_sentence_model_leaves_is_taken_when_the_request_model_takes_a_proposal() {
    let models = learned::models();
    let asked = "the tram depot log keeps times in UTC, keep that in mind";
    let unasked = "the tram depot log keeps times in UTC, ok?";
    // The sentence model is out of the way at odds above 1: only the request model decides.
    let request_only = |request: f64, floor: f64| Odds {
        unruled: 1.1,
        request,
        floor,
        ..ODDS
    };
    let taken = |odds: Odds, message: &str| -> Vec<String> {
        capture_with(odds, &models, message)
            .memories
            .into_iter()
            .map(|m| m.text)
            .collect()
    };
    assert_eq!(
        taken(request_only(ODDS.request, 0.0), asked),
        ["the tram depot log keeps times in UTC"]
    );
    assert!(taken(request_only(1.1, 0.0), asked).is_empty());
    // The tag question is left, by the request model alone and with the sentence model's floor.
    assert!(taken(request_only(ODDS.request, 0.0), unasked).is_empty());
    assert!(taken(ODDS, unasked).is_empty());
    // Under the floor a sentence is not proposed, so the request model never reads it.
    assert!(taken(request_only(ODDS.request, 1.0), asked).is_empty());
}

/// `sentence` read alone: no sentence around it, no trigger the tables took in it.
fn plain_context(sentence: &'static str) -> learned::SentenceContext<'static> {
    learned::SentenceContext {
        sentence,
        before: None,
        next: "",
        list_follows: false,
        is_question: false,
        rule_in_sentence: false,
        rule_points_here: false,
        read_with_previous: false,
        taken: None,
    }
}

#[test]
fn what_the_sentence_model_makes_of_a_sentence_decides_whether_its_proposals_are_read() {
    let models = learned::models();
    let context = plain_context;
    let input = learned::sentence_input(&context("the depot log keeps times in UTC"));
    let p = models.sentence.predict(&input).probability(1);
    let at = |unruled, floor| Odds {
        unruled,
        floor,
        ..ODDS
    };
    assert_eq!(
        reading_with(at(p - 1e-9, 0.0), &models, &input),
        Reading::Asks
    );
    assert_eq!(reading_with(at(p, 0.0), &models, &input), Reading::Unsure);
    assert_eq!(reading_with(at(p, p), &models, &input), Reading::Unsure);
    assert_eq!(
        reading_with(at(p, p + 1e-9), &models, &input),
        Reading::Nothing
    );
    // A sentence the tables took from and the ruled model leaves is a one-off: the request
    // model overrules that only when let (`overrule` at most 1).
    let ruled = learned::SentenceContext {
        rule_in_sentence: true,
        taken: Some((0, 5)),
        ..context("use pnpm before you push this branch")
    };
    let input = learned::sentence_input(&ruled);
    let p = models.ruled.predict(&input).probability(1);
    let odds = |overrule| Odds {
        ruled: p,
        floor: 0.0,
        overrule,
        ..ODDS
    };
    assert_eq!(reading_with(odds(1.0), &models, &input), Reading::Doubted);
    assert_eq!(
        reading_with(odds(1.0 + 1e-9), &models, &input),
        Reading::Nothing
    );
    assert_eq!(
        reading_with(
            Odds {
                ruled: p - 1e-9,
                ..odds(1.0)
            },
            &models,
            &input
        ),
        Reading::Asks
    );
}

#[test]
fn a_sentence_read_as_doubted_needs_the_request_model_near_sure() {
    let odds = Odds {
        request: 0.2,
        overrule: 0.9,
        ..ODDS
    };
    assert_eq!(odds.request_for(Reading::Doubted), 0.9);
    assert_eq!(odds.request_for(Reading::Unsure), 0.2);
    assert_eq!(odds.request_for(Reading::Asks), 0.2);
}

#[test]
fn a_plain_request_between_sentences_about_a_task_is_kept_though_the_ruled_model_doubts_it() {
    let models = learned::models();
    let message = "Refactor `ShowScheduler.book()` so it returns a `Result<Slot, Clash>` instead \
        of panicking. Also keep in mind that the dome projector needs a 12-minute warm-up gap \
        between shows, schedule() has to respect it. Then update the doc comment.";
    // The ruled model's reading of such a sentence moves with each training (0.46 since the
    // nineteenth round's): its odds are raised here so that it doubts the sentence, and the
    // request model's reading is what keeps it.
    let taken = |ruled, overrule| -> Vec<String> {
        capture_with(
            Odds {
                ruled,
                overrule,
                ..ODDS
            },
            &models,
            message,
        )
        .memories
        .into_iter()
        .map(|m| m.text)
        .collect()
    };
    let memory = "the dome projector needs a 12-minute warm-up gap between shows, schedule() has \
        to respect it";
    assert_eq!(taken(ODDS.ruled, ODDS.overrule), [memory]);
    assert_eq!(taken(0.99, ODDS.overrule), [memory]);
    assert!(taken(0.99, 1.1).is_empty());
    // A one-off for the task stays one, whatever the overrule.
    let one_off = "Remember to run the tests before you finish this.";
    assert!(capture_with(ODDS, &models, one_off).memories.is_empty());
}

#[test]
fn the_request_probability_is_the_best_of_the_proposals_that_give_a_memory() {
    let models = learned::models();
    let scored = |head, body, gives| opening_cut(head, body, gives, false, false);
    let asked = scored("keep in mind:", "the depot log keeps times in UTC", true);
    let plain = scored("", "the depot log keeps times in UTC", true);
    let p = |s: &Scored| models.request.predict(&s.input).probability(1);
    let (high, low) = (p(&asked), p(&plain));
    assert!(high > low, "{high} {low}");
    assert_eq!(request_probability(&models, &[]), 0.0);
    assert_eq!(request_probability(&models, &[plain]), low);
    let proposals = [
        scored("keep in mind:", "the depot log keeps times in UTC", false),
        scored("", "the depot log keeps times in UTC", true),
        scored("keep in mind:", "the depot log keeps times in UTC", true),
    ];
    assert_eq!(request_probability(&models, &proposals), high);
    assert_eq!(request_probability(&models, &proposals[..2]), low);
    assert!(requested_at(high - 1e-9, &models, &proposals));
    assert!(!requested_at(high, &models, &proposals));
}

#[test]
fn a_memory_that_holds_another_whole_is_not_kept_beside_it() {
    let message = "今後のために記録しておいてください。プラネタリウムの上映スケジュールは必ず JST で保存し、UTC への変換は表示層でのみ行うこと。そのうえで、showtimes.py のリファクタリングをお願いします。";
    let memories = capture(message);
    assert_well_formed(message, &memories);
    assert_eq!(
        texts(message),
        ["プラネタリウムの上映スケジュールは必ず JST で保存し、UTC への変換は表示層でのみ行うこと"]
    );
}

#[test]
fn a_hyphen_inside_a_word_or_flag_is_no_mark_but_a_spaced_one_is() {
    assert!(!learned::ends_at_mark("logged to wandb project corvid-"));
    assert!(!learned::ends_at_mark("alle Shellskripte mit set -"));
    assert!(learned::ends_at_mark("the main loop - "));
    assert!(learned::ends_at_mark("remember this -- "));
    assert!(learned::ends_at_mark("remember this: "));
    assert!(learned::ends_at_mark("记住——"));
    assert!(!learned::starts_at_mark("-ranker"));
    assert!(!learned::starts_at_mark(" -euo pipefail"));
    assert!(learned::starts_at_mark(" - memorize this"));
    assert!(learned::starts_at_mark(", remember that"));
    assert!(!learned::starts_at_mark(" remember that"));
    // A hyphen glued to the word before it is no mark, whatever follows it.
    assert!(!learned::starts_at_mark("- memorize this"));
}

#[test]
fn a_colon_or_comma_between_digits_is_part_of_a_number() {
    let s = "der cronjob läuft um 3:30 nachts, 0,5 Liter";
    let at = s.find("30").unwrap();
    assert!(learned::inside_number(s, at));
    assert!(learned::inside_number(s, at - 1));
    let comma = s.find(",5").unwrap();
    assert!(learned::inside_number(s, comma));
    assert!(learned::inside_number(s, comma + 1));
    let after = s.find(" 0,5").unwrap();
    assert!(!learned::inside_number(s, after));
    assert!(!learned::inside_number(
        "remember: 30 days",
        "remember: ".len()
    ));
    // Digits beside a space are no number's mark.
    assert!(!learned::inside_number("in 30 days", "in 30".len()));
}

#[test]
fn no_model_overrules_a_negated_trigger() {
    // The sentence model reads the trigger's words and asks (0.997 for the first, when the
    // tables' negation was only kept from the request model); the user said not to.
    for text in [
        "不要记住这个，这只是临时的测试密码",
        "please don't remember this: use npm cache",
        "Do not remember: the old staging password",
    ] {
        assert!(capture(text).is_empty(), "{text}");
        let rules = rule_capture(text);
        assert_eq!(rules.negated.len(), 1, "{text}");
        assert_eq!(rules.refused, rules.negated, "{text}");
    }
    // Only the negated sentence: what another sentence of the message asks is kept, before
    // it, after it, or on another line.
    for text in [
        "remember this: use pnpm everywhere. 不要记住这个，这只是临时的测试密码",
        "remember this: use pnpm everywhere\n不要记住这个，这只是临时的测试密码",
    ] {
        assert_eq!(texts(text), ["use pnpm everywhere"], "{text}");
    }
    assert_eq!(
        texts("不要记住这个，这只是临时的测试密码。记住：用 pnpm 安装依赖"),
        ["用 pnpm 安装依赖"]
    );
    // A refusal that is no negation (a question) is only kept from the request model.
    let rules = rule_capture("can you remember that we use tabs?");
    assert_eq!(rules.refused.len(), 1);
    assert!(rules.negated.is_empty());
}

#[test]
fn only_a_refused_trigger_keeps_the_request_model_from_overruling_an_unsure_reading() {
    let models = learned::models();
    let context = plain_context;
    // Requests in words no table holds: the sentence model is unsure, the request model
    // reads the proposal that sets the request apart.
    let sentences: [(&'static str, &'static str, &'static str); 6] = [
        (
            "note for later: the depot log keeps times in UTC",
            "note for later:",
            "the depot log keeps times in UTC",
        ),
        (
            "for your notes, invoices are numbered per tenant",
            "for your notes,",
            "invoices are numbered per tenant",
        ),
        (
            "jot this down: staging resets every Sunday night",
            "jot this down:",
            "staging resets every Sunday night",
        ),
        (
            "stash this somewhere: the ledger rounds half to even",
            "stash this somewhere:",
            "the ledger rounds half to even",
        ),
        (
            "for future reference, the printer queue caps at 40 jobs",
            "for future reference,",
            "the printer queue caps at 40 jobs",
        ),
        (
            "worth keeping: the cron runs in UTC",
            "worth keeping:",
            "the cron runs in UTC",
        ),
    ];
    let decided_by_request = sentences.iter().find_map(|&(sentence, head, body)| {
        let input = learned::sentence_input(&context(sentence));
        let proposals = vec![opening_cut(head, body, true, false, false)];
        (reading_with(ODDS, &models, &input) == Reading::Unsure
            && requested_at(ODDS.request, &models, &proposals))
        .then_some((input, proposals))
    });
    let (input, proposals) = decided_by_request.expect("a sentence only the request model takes");
    assert!(asks_unless_refused(
        &models,
        &input,
        &proposals,
        Refusal::None
    ));
    assert!(asks(&models, &input, &proposals));
    assert!(!asks_unless_refused(
        &models,
        &input,
        &proposals,
        Refusal::Trigger
    ));
    assert!(!asks_unless_refused(
        &models,
        &input,
        &proposals,
        Refusal::Negated
    ));
}

#[test]
fn a_sentence_that_asks_to_forget_gives_no_memory_and_its_neighbours_still_can() {
    // The request model reads "Also:" as setting a memory apart; the sentence asks to forget.
    let forget = "- Also: forget about the read-only staging DB, it's writable since Monday";
    assert!(texts(forget).is_empty(), "{:?}", texts(forget));
    let both = "Forget the old staging URL. Remember that the new one is staging2.example.com";
    assert_eq!(texts(both), ["the new one is staging2.example.com"]);
}

#[test]
fn a_pointer_back_is_counted_in_words_and_unspaced_script_in_characters() {
    let before = "The genealogy site is a pnpm workspace";
    let points_back = |sentence: &'static str| {
        learned::proposals(sentence, sentence, (&[before], &[]), "", &[])
            .iter()
            .any(|p| p.body == learned::Body::Before(before))
    };
    assert!(points_back("Please don't forget this again"));
    assert!(points_back("Note-le une fois pour toutes, merci"));
    // Twenty characters of Japanese are seven words' worth.
    assert!(points_back("これは決定事項として覚えておいてください"));
    assert!(!points_back(
        "Log that as a decision for the quarry team please and then scaffold the crate"
    ));
    assert!(!points_back(
        "それで今日はアップロード画面に進捗バーを付けるところをお願いしたいです"
    ));
    // Eight words point back, nine do not.
    assert!(points_back("one two three four five six seven eight"));
    assert!(!points_back("one two three four five six seven eight nine"));
    // Korean is spaced: its syllables are not counted one by one (these eight words are
    // twenty-six syllables, nine words' worth of Chinese).
    assert!(points_back(
        "이번 결정은 꼭 기억해두고 다음 세션에서도 잊어버리지 말아줘"
    ));
}

#[test]
fn a_pointer_reaches_past_a_complaint() {
    let fact = "The tuning logs live in the piano-routes bucket";
    let complaint = "You wrote them to /tmp again";
    let first = "Morning";
    let farthest = "Ignore the lint warnings";
    let pointer = "Don't forget it";
    let proposals = learned::proposals(
        pointer,
        pointer,
        (&[complaint, fact, first, farthest], &[]),
        "",
        &[],
    );
    let pointing = |text: &str| {
        proposals
            .iter()
            .filter(|p| p.body == learned::Body::Before(text))
            .map(|p| (p.back, p.tail))
            .collect::<Vec<_>>()
    };
    assert_eq!(pointing(complaint), [(0, pointer)]);
    assert_eq!(pointing(fact), [(1, pointer)]);
    assert_eq!(pointing(first), [(2, pointer)]);
    // Three sentences back at most.
    assert!(pointing(farthest).is_empty());
    // The features say how far back.
    let named = |back: usize| {
        let proposal = learned::Proposal {
            tail: pointer,
            body: learned::Body::Before(fact),
            back,
            ..learned::Proposal::default()
        };
        let names: Vec<String> = learned::input(&proposal, false, false)
            .named
            .iter()
            .map(|n| n.to_string())
            .filter(|n| n.starts_with("points-back"))
            .collect();
        names
    };
    assert_eq!(named(0), ["points-back"]);
    assert_eq!(named(1), ["points-back", "points-back:past"]);
    assert_eq!(
        named(2),
        ["points-back", "points-back:past", "points-back:far"]
    );
}

#[test]
fn a_pointer_is_offered_the_sentences_since_the_last_memory_but_no_question() {
    let kinds = learned::models().kind;
    // What each sentence's proposals would keep, taking the first sentence's whole self when
    // `take_first`.
    let offered = |message: &str, take_first: bool| {
        let mut seen: Vec<Vec<String>> = Vec::new();
        walk(message, &kinds, |_, scored| {
            let first = seen.is_empty();
            seen.push(
                scored
                    .iter()
                    .flat_map(|s| s.memories.iter().map(|(_, text)| text.clone()))
                    .collect(),
            );
            (take_first && first).then_some(0)
        });
        seen
    };
    let message = "The logs live in the piano-routes bucket. Why are they in /tmp? You wrote them \
                   there again. Don't forget it.";
    let seen = offered(message, false);
    let pointer = seen.last().unwrap();
    assert!(pointer
        .iter()
        .any(|t| t == "The logs live in the piano-routes bucket"));
    assert!(pointer.iter().any(|t| t == "You wrote them there again"));
    assert!(!pointer.iter().any(|t| t.contains("Why are they")));
    // Once a sentence gave a memory, a pointer after it points at nothing before it.
    let seen = offered(message, true);
    let pointer = seen.last().unwrap();
    assert!(!pointer
        .iter()
        .any(|t| t == "The logs live in the piano-routes bucket"));
    assert!(pointer.iter().any(|t| t == "You wrote them there again"));
}

#[test]
fn a_pointer_is_offered_sentences_read_as_asking_nothing_but_no_question() {
    let kinds = learned::models().kind;
    let text = "The logs live in the piano-routes bucket. Why are they in /tmp? You wrote them \
                there again. Don't forget it.";
    let rules = rules_over(text, usize::MAX);
    let mut ignored = (HashSet::new(), HashSet::new());
    let mut read = 0;
    let mut pointer: Vec<String> = Vec::new();
    walk_read(
        text,
        &rules,
        &kinds,
        (&mut ignored.0, &mut ignored.1),
        // Only the last sentence asks.
        |_, _| {
            read += 1;
            if read == 4 {
                Reading::Asks
            } else {
                Reading::Nothing
            }
        },
        |_, _| true,
        |_, scored, _| {
            pointer = scored
                .iter()
                .flat_map(|s| s.memories.iter().map(|(_, text)| text.clone()))
                .collect();
            None
        },
    );
    assert!(pointer
        .iter()
        .any(|t| t == "The logs live in the piano-routes bucket"));
    assert!(pointer.iter().any(|t| t == "You wrote them there again"));
    assert!(!pointer.iter().any(|t| t.contains("Why are they")));
}

#[test]
fn a_pointer_points_back_at_a_rule_and_its_reason_together() {
    let message = "決定事項: 地図は MapLibre にする。Maps API の料金が高すぎるため。Ok? 覚えといて";
    let sentences: Vec<&str> = sentences_of(message);
    let [rule, reason, _question, _pointer] = sentences[..] else {
        panic!("{sentences:?}")
    };
    // Nearest first; a question between sentences ends the run.
    assert_eq!(
        learned::runs_before(message, &[reason, rule]),
        ["決定事項: 地図は MapLibre にする。Maps API の料金が高すぎるため"]
    );
    assert!(learned::runs_before(message, &[reason]).is_empty());
    // A question between two sentences is not pointed at, and ends the run.
    let asked = "Use pnpm. Why npm? It keeps the lockfile small. Remember that";
    let s: Vec<&str> = sentences_of(asked);
    assert_eq!(s[1], "Why npm");
    assert!(learned::runs_before(asked, &[s[2], s[0]]).is_empty());
    // Sentences of different lines are not read together.
    let lines = "Use pnpm.\nIt keeps the lockfile small. Remember that";
    let sentences: Vec<&str> = lines
        .split('\n')
        .flat_map(learned::line_sentences)
        .map(|(s, _)| s)
        .collect();
    assert!(learned::runs_before(lines, &[sentences[1], sentences[0]]).is_empty());
    let three = "Use pnpm. The lockfile stays small. CI caches it. Remember that";
    let s: Vec<&str> = sentences_of(three);
    assert_eq!(
        learned::runs_before(three, &[s[2], s[1], s[0]]),
        [
            "The lockfile stays small. CI caches it",
            "Use pnpm. The lockfile stays small. CI caches it"
        ]
    );
    // Each run is a proposal of a short pointer, with how far it runs on.
    let runs = learned::runs_before(three, &[s[2], s[1], s[0]]);
    let proposals = learned::proposals(s[3], s[3], (&[s[2], s[1], s[0]], &runs), "", &[]);
    let running: Vec<(usize, &learned::Body)> = proposals
        .iter()
        .filter(|p| p.runs_on > 0)
        .map(|p| (p.runs_on, &p.body))
        .collect();
    assert_eq!(
        running,
        [
            (1, &learned::Body::Before(runs[0])),
            (2, &learned::Body::Before(runs[1]))
        ]
    );
    let named = |proposal: &learned::Proposal| -> Vec<String> {
        learned::input(proposal, false, false)
            .named
            .iter()
            .map(|n| n.to_string())
            .filter(|n| n.starts_with("runs-on"))
            .collect()
    };
    let far = proposals.iter().find(|p| p.runs_on == 2).unwrap();
    assert_eq!(named(far), ["runs-on", "runs-on:far"]);
    let near = proposals.iter().find(|p| p.runs_on == 1).unwrap();
    assert_eq!(named(near), ["runs-on"]);
}

#[test]
fn a_memory_may_run_on_through_the_next_sentence() {
    let line = "覚えて: スロットは常に7分。15にすると全部ずれる。よろしく";
    let sentences: Vec<&str> = sentences_of(line);
    let proposals = learned::proposals(sentences[0], line, (&[], &[]), sentences[1], &[]);
    let running: Vec<(&str, &learned::Body)> = proposals
        .iter()
        .filter(|p| p.runs_on == 1)
        .map(|p| (p.head, &p.body))
        .collect();
    assert!(running.contains(&(
        "",
        &learned::Body::Span("覚えて: スロットは常に7分。15にすると全部ずれる")
    )));
    assert!(running.contains(&(
        "覚えて: ",
        &learned::Body::Span("スロットは常に7分。15にすると全部ずれる")
    )));
    // The sentence run through is read apart from the memory's first.
    let run_texts = |proposal: &learned::Proposal| -> Vec<(Field, String)> {
        learned::input(proposal, false, false)
            .texts
            .iter()
            .filter(|(field, _)| *field == Field::After)
            .map(|(field, text)| (*field, text.to_string()))
            .collect()
    };
    let through = proposals.iter().find(|p| p.runs_on == 1).unwrap();
    assert_eq!(through.run, sentences[1]);
    assert_eq!(
        run_texts(through),
        [(Field::After, "15にすると全部ずれる".to_string())]
    );
    assert!(run_texts(&proposals[0]).is_empty());
    // Nothing runs on without a next sentence on the line.
    let alone = learned::proposals(sentences[0], sentences[0], (&[], &[]), "", &[]);
    assert!(alone.iter().all(|p| p.runs_on == 0 && p.run.is_empty()));
}

#[test]
fn no_memory_starts_or_ends_inside_a_number() {
    let sentence = "기억해줘 배치는 매일 06:30에 돌고 수동으로 돌릴 땐 1,5배 느려짐";
    let proposals = learned::proposals(sentence, sentence, (&[], &[]), "", &[]);
    let cut_inside = |p: &learned::Proposal| {
        p.head.ends_with("06:")
            || p.head.ends_with("06")
            || p.tail.starts_with(":30")
            || p.tail.starts_with("30")
            || p.head.ends_with("1,")
            || p.tail.starts_with(",5")
    };
    assert!(proposals.iter().all(|p| !cut_inside(p)));
    // A number's ends are still cuts.
    assert!(proposals.iter().any(|p| p.head.ends_with("매일 ")));
    assert!(proposals.iter().any(|p| p.tail.starts_with("에 돌고")));
}

#[test]
fn a_topic_set_apart_by_a_comma_is_an_opening_of_its_own() {
    let sentence = "猫カフェのやつ、猫のプロフ画像は 600x600 の webp で統一";
    let proposals = learned::proposals(sentence, sentence, (&[], &[]), "", &[]);
    let comma_heads: Vec<&str> = proposals
        .iter()
        .filter(|p| {
            learned::input(p, false, false)
                .named
                .contains(&"head:comma")
        })
        .map(|p| p.head)
        .collect();
    assert!(comma_heads.contains(&"猫カフェのやつ、"), "{comma_heads:?}");
    // An opening that ends at a colon, or with no mark, is not one.
    assert!(comma_heads.iter().all(|h| h.trim_end().ends_with('、')));
    let colon = "Remember: ports are fixed";
    let colon_proposals = learned::proposals(colon, colon, (&[], &[]), "", &[]);
    assert!(colon_proposals
        .iter()
        .all(|p| !learned::input(p, false, false)
            .named
            .contains(&"head:comma")));
}

#[test]
fn lines_under_a_sentence_that_announces_them_are_its_items() {
    let text = "Notes for later sessions:\nThe staging API is at https://staging.example.org/docs\nDeploys wait for the smoke test\n\nNow fix the export";
    let lines: Vec<&str> = text.split('\n').collect();
    let readable = vec![true; lines.len()];
    assert_eq!(
        learned::items_from(&lines, &readable, 1, true),
        (
            vec![
                "The staging API is at https://staging.example.org/docs",
                "Deploys wait for the smoke test"
            ],
            3
        )
    );
    // Unmarked lines under a sentence that announces nothing are sentences of their own.
    assert_eq!(
        learned::items_from(&lines, &readable, 1, false),
        (vec![], 1)
    );
    // Marked items come first, and unmarked lines after them are not items.
    let marked = ["Remember these:", "- use tabs", "thanks"];
    assert_eq!(
        learned::items_from(&marked, &[true; 3], 1, true),
        (vec!["use tabs"], 2)
    );
    // At most ten unmarked lines.
    let many: Vec<String> = (0..12).map(|i| format!("fact {i}")).collect();
    let mut long: Vec<&str> = vec!["Keep these:"];
    long.extend(many.iter().map(String::as_str));
    let (items, end) = learned::items_from(&long, &vec![true; long.len()], 1, true);
    assert_eq!((items.len(), end), (10, 11));
}

#[test]
fn sentences_pointed_back_at_together_may_leave_out_an_opening_set_apart() {
    let message =
        "팀 논의 결과, 알림은 알림톡으로 보내기로 했습니다. 단가가 절반이라서요. 메모해 두세요.";
    let s: Vec<&str> = sentences_of(message);
    let before = [s[1], s[0]];
    let runs = learned::runs_before(message, &before);
    let proposals = learned::proposals(s[2], s[2], (&before, &runs), "", &[]);
    let running: Vec<(&str, &learned::Body)> = proposals
        .iter()
        .filter(|p| p.runs_on == 1)
        .map(|p| (p.head, &p.body))
        .collect();
    assert_eq!(
        running,
        [
            ("", &learned::Body::Before(runs[0])),
            (
                "팀 논의 결과, ",
                &learned::Body::Before("알림은 알림톡으로 보내기로 했습니다. 단가가 절반이라서요")
            )
        ]
    );
}

#[test]
fn a_sentence_pointed_back_at_may_leave_out_an_opening_set_apart() {
    let message = "No, the large cakes weigh 1.2 kg, not 1 kg. Don't forget it again.";
    let s: Vec<&str> = sentences_of(message);
    let proposals = learned::proposals(s[1], s[1], (&[s[0]], &[]), "", &[]);
    let pointing: Vec<(&str, &learned::Body)> = proposals
        .iter()
        .filter(|p| matches!(p.body, learned::Body::Before(_)))
        .map(|p| (p.head, &p.body))
        .collect();
    assert_eq!(
        pointing,
        [
            ("", &learned::Body::Before(s[0])),
            (
                "No, ",
                &learned::Body::Before("the large cakes weigh 1.2 kg, not 1 kg")
            ),
            (
                "No, the large cakes weigh 1.2 kg, ",
                &learned::Body::Before("not 1 kg")
            )
        ]
    );
    // The opening is read as what the proposal leaves out.
    let opened = proposals
        .iter()
        .find(|p| p.head == "No, " && matches!(p.body, learned::Body::Before(_)))
        .unwrap();
    let input = learned::input(opened, false, false);
    assert!(!input.named.contains(&"head:none"));
    assert!(input.texts.contains(&(Field::Head, "No, ")));
    // A mark inside a number opens nothing, and openings reach `HEAD_REACH` characters.
    let far =
        "The export keeps 1,5 kg as 1.5 kg in every CSV we send the bakery, always. Remember that";
    let s: Vec<&str> = sentences_of(far);
    let heads: Vec<&str> = learned::proposals(s[1], s[1], (&[s[0]], &[]), "", &[])
        .into_iter()
        .filter(|p| matches!(p.body, learned::Body::Before(_)))
        .map(|p| p.head)
        .collect();
    assert_eq!(heads, [""]);
}

#[test]
fn the_type_model_reads_whether_a_memory_holds_more_than_one_sentence() {
    let named = |text: &str| {
        learned::type_input(text, text, MemoryType::Project)
            .named
            .contains(&"sentences:more")
    };
    assert!(named("地図は MapLibre にする。料金が高すぎるため"));
    assert!(named(
        "We moved to Zustand. Redux needed too much boilerplate"
    ));
    assert!(!named("z. B. B-12-4 is the grave number format"));
    assert!(!named("Use pnpm, because npm breaks the workspace"));
}

#[test]
fn a_request_past_an_opening_set_apart_by_a_mark_is_an_opening_too() {
    let opens_at = |sentence: &'static str, body: &str| {
        learned::proposals(sentence, sentence, (&[], &[]), "", &[])
            .iter()
            .any(|p| p.body == learned::Body::Span(body) && p.tail.is_empty())
    };
    let body = "ring numbers are stored as text, never as integers";
    assert!(opens_at(
        "The one thing that keeps biting us: please remember that ring numbers are stored as text, never as integers",
        body
    ));
    // Without the mark the request is too far from the start to open the memory.
    assert!(!opens_at(
        "The one thing that keeps biting us and please remember that ring numbers are stored as text, never as integers",
        body
    ));
    // Nor when it is longer than a request: the reach is counted from the mark.
    assert!(!opens_at(
        "The one thing that keeps biting us: please please please remember that ring numbers are stored as text, never as integers",
        body
    ));
    // The opening ends before a word that follows a space, not inside unspaced script.
    let chinese = "昨天店长又反馈说周末场次老是超卖我看了下是前端没锁座这个等会再说还有排场页面也慢得很，另外有个事你记一下剧本杀门店每个本子都有最少开场人数";
    assert!(!opens_at(chinese, "剧本杀门店每个本子都有最少开场人数"));
    // Left out together with an ending too: "…: please remember that X, ok?"
    let pair = learned::proposals(
        "Also one thing: please remember that ring numbers are text, ok",
        "Also one thing: please remember that ring numbers are text, ok",
        (&[], &[]),
        "",
        &[],
    );
    assert!(pair
        .iter()
        .any(|p| p.body == learned::Body::Span("ring numbers are text") && p.tail == ", ok"));
}
