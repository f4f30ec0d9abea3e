//! The gate's rules on English text and code: one predicate per rule, in the order of `RULES`.
//! Patterns that must be the "main content" are anchored at the start of the text (after
//! quotes and backticks, see `lead`), or allowed after a short lead-in (see `is_main_content`).

use std::sync::LazyLock;

use regex_automata::meta::{BuildError, Regex};
use regex_automata::nfa::thompson::WhichCaptures;
use regex_automata::util::syntax;

use super::parse::starts_with_ignoring_ascii_case;

/// An error is the main content of a text when at most this many words lead into it
/// ("Build failed with TypeError: …"); a longer lead-in is a sentence that mentions it.
pub(super) const MAX_ERROR_LEAD_IN_WORDS: usize = 3;
/// A route is the main content when at most this many words lead into it ("Endpoint: GET /x");
/// "Health checks hit GET /healthz every 10 seconds" is a fact about the health checks.
pub(super) const MAX_ROUTE_LEAD_IN_WORDS: usize = 1;

/// Instructions aimed at the model, in any language and however obfuscated: see `injection`.
pub(super) fn is_prompt_injection(text: &str) -> bool {
    crate::domain::guard::injection::instructs_agent(text).is_some()
}

/// A commit hash (7–40 hex characters with a digit and a letter) at the start, or anywhere
/// in a text that speaks of commits ("reverted in 4832b38").
pub(super) fn is_git_hash(text: &str) -> bool {
    const COMMIT_WORDS: [&str; 13] = [
        "commit",
        "commits",
        "committed",
        "hash",
        "sha",
        "sha1",
        "revert",
        "reverted",
        "reverts",
        "cherry-pick",
        "cherry-picked",
        "rebase",
        "rebased",
    ];
    let tokens: Vec<&str> = text.split_whitespace().map(bare_token).collect();
    let leads_with_hash = tokens.first().is_some_and(|token| is_hex_id(token));
    let speaks_of_commits = tokens
        .iter()
        .any(|token| COMMIT_WORDS.iter().any(|w| token.eq_ignore_ascii_case(w)));
    leads_with_hash || (speaks_of_commits && tokens.iter().any(|token| is_hex_id(token)))
}

/// Conventional-commit subjects (`fix(parser)!: …`, lowercase type as git log shows them,
/// optionally after a hash) and git's own subjects (`Merge branch …`, `Revert "…"`).
pub(super) fn is_commit_subject(text: &str) -> bool {
    static COMMIT_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(concat!(
            r"^(?:[0-9a-fA-F]{7,40}\s+)?(?:",
            r"(?:fix|feat|chore|docs|refactor|test|tests|style|perf|build|ci|revert)(?:\([^)]*\))?!?:\s",
            r#"|Merge (?:branch|pull request|remote-tracking branch|tag)\b|Revert ""#,
            r")",
        ))
        .expect("valid commit-subject pattern")
    });
    COMMIT_SUBJECT.is_match(lead(text).as_bytes())
}

/// Error output as the main content: `TypeError: …`, `Error: …`, `error[E0382]`,
/// `error TS2322`, `npm ERR!`, `FAILED`, `Traceback`, `panic:`, `x.c:3:1: error:`. "Errors
/// from the payment service must be retried" is a rule about errors, not one.
pub(super) fn is_raw_error(text: &str) -> bool {
    static RAW_ERROR: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(concat!(
            r"(?:\b[\w$.]*(?:Error|Exception)|\b(?:ERROR|FATAL|PANIC))(?:\[E\d+\])?:(?:\s|$)",
            // lowercase labels only open a line ("The error: prefix …" speaks of one)
            r"|^(?:error|fatal|panic|warning)(?:\[E\d+\])?:(?:\s|$)",
            r"|\berror\[E\d+\]|\berror\s+TS\d+|\bTS\d{4}:|\bERR!|\bFAILED\b|\bTraceback\b",
            r"|^AssertionError\b|^\w*Exception\s+in\s+thread\b|\bthread\s+'[^']*'\s+panicked\b",
            r"|^Uncaught\s+\w|\bUnhandled\s*(?:Promise)?\s*Rejection|\bSegmentation fault\b",
            r"|:\d+:\d+:\s*(?:fatal\s+)?(?:error|warning):",
            r"|\bE(?:NOENT|ACCES|PERM|EXIST|ISDIR|NOTDIR|MFILE|PIPE|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND):",
            // compiler and runtime messages that carry no error word
            r"|\bCannot find (?:module|name|namespace) '|\bProperty '[^']*' does not exist on type\b",
            r"|\b(?:Type|Argument of type) '[^']*' is not assignable to\b",
            r"|\bObject is possibly '(?:null|undefined)'|\bCannot read propert(?:y|ies) of (?:undefined|null)\b",
            r"|\bUnexpected token\b|\bModule not found\b|\bcommand not found\b",
        ))
        .expect("valid raw-error pattern")
    });
    let text = lead(text);
    RAW_ERROR
        .find(text.as_bytes())
        .is_some_and(|found| is_main_content(text, found.start(), MAX_ERROR_LEAD_IN_WORDS))
}

/// A stack frame or a source location leading the text: `at foo (bar.ts:10:5)`,
/// `File "x.py", line 3, in f`, `#0 0x… in f`, `src/x.rs:10:5`, `goroutine 1 [running]`.
pub(super) fn is_stack_frame(text: &str) -> bool {
    static STACK_FRAME: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(concat!(
            // the location has a dot or slash: "At 10:30 the backup runs" is not a frame
            r"^(?i:at)\s+(?:async\s+)?(?:\S+\s+)?\(?[^\s()]*[./][^\s()]*:\d+",
            r#"|\bFile\s+"[^"]+",\s+line\s+\d+"#,
            r"|^#\d+\s+(?:0x[0-9a-fA-F]+\s+in\b|\S+\s+at\s+\S+:\d+)",
            r"|^goroutine\s+\d+\s+\[",
            // a location opening the text; `staging.example.com:8443` is a host and port
            r"|^[\w.~-]*[/\\][\w.~/\\-]*\.\w+(?::\d+(?::\d+)?(?:\s|:|$)|\(\d+,\d+\)|:?\s+line\s+\d+)",
            r"|^[\w.~-]+\.\w+(?::\d+:\d+|\(\d+,\d+\)|:?\s+line\s+\d+)",
            r"|^(?i:(?:on\s+|at\s+)?line\s+\d+\s+(?:of|in)\s+\S+\.\w+)",
        ))
        .expect("valid stack-frame pattern")
    });
    STACK_FRAME.is_match(lead(text).as_bytes())
}

/// Files this session touched: `modified x.ts`, `created src/a.ts`, `Files changed: …`,
/// `read src/x.ts` (alone: "Read docs/ARCH.md before changing the store" is advice), git
/// status (`M src/a.ts`) and diffstat (`src/a.ts | 12 ++--`) shapes.
pub(super) fn is_active_file_line(text: &str) -> bool {
    const SESSION_VERBS: [&str; 24] = [
        "modified",
        "fixed",
        "implemented",
        "created",
        "edited",
        "deleted",
        "removed",
        "renamed",
        "updated",
        "added",
        "wrote",
        "touched",
        "moved",
        "changed",
        "opened",
        "viewed",
        "patched",
        "rewrote",
        "refactored",
        "modifying",
        "creating",
        "editing",
        "deleting",
        "reading",
    ];
    /// Words after a participle that make it an adjective ("Removed features are …").
    const ADJECTIVE_SIGNS: [&str; 13] = [
        "must", "should", "are", "is", "need", "needs", "can", "may", "will", "shall", "go",
        "live", "belong",
    ];
    static DIFFSTAT: LazyLock<Regex> =
        LazyLock::new(|| ascii_regex(r"^\S+\s+\|\s+\d+\s+[+-]+").expect("valid diffstat pattern"));
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    let is_session_verb = |word: &str| {
        let word = word.trim_end_matches(':');
        SESSION_VERBS.iter().any(|v| word.eq_ignore_ascii_case(v))
    };
    let names_file = |word: &&str| is_path(word) || has_file_extension(bare_token(word));
    let next_names_file = words.get(1).is_some_and(names_file);
    // "Added files must be registered in src/index.ts": the verb is an adjective there.
    let verb_is_adjective = words.iter().skip(1).take(3).any(|w| {
        ADJECTIVE_SIGNS
            .iter()
            .any(|sign| bare_token(w).eq_ignore_ascii_case(sign))
    });
    let session_verb_on_file = is_session_verb(first)
        && (next_names_file || (!verb_is_adjective && words.iter().any(|w| is_path(w))));
    let lone_read = first.eq_ignore_ascii_case("read") && next_names_file && words.len() <= 4;
    let files_heading = ["file", "files"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w))
        && words.get(1).is_some_and(|w| is_session_verb(w));
    let mut status_pairs = words.chunks_exact(2);
    let git_status = status_pairs.remainder().is_empty()
        && status_pairs.all(|pair| is_git_status_code(pair[0]) && names_file(&pair[1]));
    session_verb_on_file
        || lone_read
        || files_heading
        || git_status
        || DIFFSTAT.is_match(text.as_bytes())
}

/// Temporary state and narration of the session: `currently …`, `WIP:`, `TODO:`, `next:`,
/// `working on …`, `now …`, `just fixed …`, `still …`, `Fixed the …`, `We added …` at the
/// start; "so far", "at the moment", "this session", "right now", "next step", "remaining
/// work", "was merged", "yesterday" anywhere.
pub(super) fn is_progress(text: &str) -> bool {
    may_be_progress(text) && progress_pattern().is_match(text.as_bytes())
}

/// Verbs that tell what was done in the session.
pub(super) const DONE_VERBS: &str = "fixed|implemented|added|removed|updated|changed|renamed|created|deleted|\
                          refactored|rewrote|wrote|moved|deployed|merged|pushed|committed|ran|tried|\
                          finished|completed|resolved|investigated|debugged|started";

pub(super) fn progress_pattern() -> &'static Regex {
    const DONE: &str = DONE_VERBS;
    static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
        let at_start = [
            r"currently\b|wip\b|(?-i:TODO)\b|todo\s*:|next\s*:|next\s+up\b|in\s+progress\b|working\s+on\b",
            r"now\s|still\s|about\s+to\b|status\s*:|pending\s*:",
            r"just\s+(?:\w+ed|ran|made|wrote|got|did|built|found|saw|began|broke|set|put)\b",
            // "Fixed the …", "Deployed to …"; "Fixed-size buffers" and "Merged PRs" are facts
            &format!(
                r"(?:{DONE})\s+(?:the|a|an|it|this|that|these|those|to|all|some|our|my|\d+)\b"
            ),
            &format!(r"(?:we|i)\s+(?:have\s+|just\s+)?(?:{DONE})\b"),
        ];
        let anywhere = [
            r"so\s+far|at\s+the\s+moment|this\s+session|right\s+now|next\s+steps?\b",
            r"(?:is|are)\s+(?:still\s+)?in\s+progress\b|left\s+to\s+do\b|\d+\s+(?:left|remaining)\b",
            r"remaining\s+(?:work|tasks?|items?|steps?|issues?|errors?|failures?|tests?|todos?|bugs?|files?)\b",
            r"still\s+(?:need|needs|failing|broken|pending|to\s+do|investigating)\b",
            r"(?:was|were|got)\s+(?:just\s+)?(?:merged|pushed|committed|deployed|reverted)\b",
            r"yesterday|earlier\s+today|this\s+(?:morning|afternoon|evening)\b",
            // "Login now works": a change just made, told as news
            r"now\s+(?:passes|pass|fails|fail|works|compiles|builds|succeeds)\b",
        ];
        ascii_regex(&format!(
            r"(?i)^(?:{})|\b(?:{})",
            at_start.join("|"),
            anywhere.join("|")
        ))
        .expect("valid progress pattern")
    });
    &PROGRESS
}

/// A declaration leading the text: `fn foo(a: i32) -> u8`, `export function add(…)`,
/// `def foo(x):`, `class Foo extends Bar {`, `interface X {`, `pub struct …`, `const x = …;`.
/// Keywords are matched as code spells them: "Class names use PascalCase" is a convention.
pub(super) fn is_code_signature(text: &str) -> bool {
    static SIGNATURE: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(concat!(
            r"^(?:",
            r#"(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+\w+\s*[<(]"#,
            r"|(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*\w*\s*[<(]",
            r"|(?:async\s+)?def\s+\w+\s*\(",
            r"|func\s+(?:\([^)]*\)\s*)?\w+\s*[<(\[]",
            r"|(?:export\s+)?(?:default\s+)?(?:(?:abstract|final|public|data|sealed)\s+)*class\s+\w+\s*(?:[{(:<]|extends\b|implements\b|$)",
            r"|(?:export\s+)?(?:declare\s+)?interface\s+\w+\s*(?:[{<]|extends\b|$)",
            r"|(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|union)\s+\w+\s*(?:[{(<;:]|where\b|$)",
            r"|impl\b(?:<[^>]*>)?\s+[\w:<>]+(?:\s+for\s+[\w:<>]+)?\s*(?:\{|where\b|$)",
            r"|(?:export\s+)?type\s+\w+(?:<[^>]*>)?\s*=",
            r"|(?:CREATE|ALTER|DROP)\s+(?:TABLE|INDEX|UNIQUE\s+INDEX|VIEW|TYPE|SCHEMA|TRIGGER|FUNCTION)\b",
            r"|(?:export\s+)?(?:const|let|var)\s+[\w${}\[\],\s]+(?::[^=]+)?=[^=>]",
            r"|(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|synchronized)\s+)+",
            r"[\w<>\[\],.?]+\s+\w+\s*\(",
            r")",
        ))
        .expect("valid code-signature pattern")
    });
    SIGNATURE.is_match(lead(text).as_bytes())
}

/// Route documentation: `GET /api/users/:id returns …` as the main content, or route
/// registrations (`router.get('/x', …)`, `@app.route("/x")`, `@GetMapping`) anywhere.
pub(super) fn is_http_route(text: &str) -> bool {
    static METHOD_AND_PATH: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+/")
            .expect("valid method-and-path pattern")
    });
    static ROUTE_CODE: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(concat!(
            r#"\b(?:router|app|server|api|routes?|fastify|express|r)\.(?:get|post|put|patch|delete|head|options|all|route)\s*\(\s*['"`]/"#,
            r#"|@(?:\w+\.)?(?:route|get|post|put|patch|delete)\s*\(\s*['"]/"#,
            r"|@(?:Get|Post|Put|Patch|Delete|Request)Mapping\b",
        ))
        .expect("valid route-code pattern")
    });
    let text = lead(text);
    METHOD_AND_PATH
        .find(text.as_bytes())
        .is_some_and(|found| is_main_content(text, found.start(), MAX_ROUTE_LEAD_IN_WORDS))
        || ROUTE_CODE.is_match(text.as_bytes())
}

/// More than two file paths: a file list, which goes stale as the code moves.
pub(super) fn is_path_heavy(text: &str) -> bool {
    text.split_whitespace().filter(|w| is_path(w)).count() > 2
}

/// Counts and phases of the work: `1237 tests pass`, `42 files changed`, `12 passed`,
/// `phase 3 completed`, `coverage is 87%`, `all tests passing`, `build is green`,
/// `now at v1.2.3`. "The API returns 404 for missing users" counts nothing.
pub(super) fn is_project_snapshot(text: &str) -> bool {
    may_be_project_snapshot(text) && project_snapshot_pattern().is_match(text.as_bytes())
}

pub(super) fn project_snapshot_pattern() -> &'static Regex {
    static SNAPSHOT: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(concat!(
            r"(?i)",
            r"\b\d[\d,]*\s+(?:(?:unit|e2e|integration)\s+)?(?:tests?|specs?|suites?|files?|checks?|assertions?|examples?|cases?|snapshots?|packages?|modules?)\s+",
            r"(?:pass|passed|passes|passing|fail|failed|fails|failing|changed|modified|touched|green|skipped|ok|succeeded|compiled|completed|ran)\b",
            r"|\b\d[\d,]*\s+(?:passed|failed|passing|failing|skipped|succeeded)\b",
            r"|\b(?:passed|passing|failed|failing|skipped)\s*:\s*\d+",
            r"|\b(?:with|added|wrote)\s+\d+\s+(?:new\s+)?(?:unit\s+|e2e\s+|integration\s+)?tests\b",
            r"|^last\s+(?:run|build|ci\s+run)\s*:",
            r"|\b\d+\s*/\s*\d+\s+(?:tests?|specs?|checks?|suites?|passing|passed|done|complete|completed)\b",
            r"|\b\d[\d,]*\s+errors?\s*(?:,|and)\s*\d[\d,]*\s+warnings?\b",
            r"|\b(?:found|reported|with|has|have)\s+\d[\d,]*\s+(?:errors?|warnings?|failures?|problems?)\b",
            r"|\b\d[\d,]*\s+(?:errors?|warnings?|problems?|failures?)\s+(?:left|remaining|found|reported|fixed)\b",
            r"|\b(?:phase|step|stage|milestone|part|task|sprint|iteration)\s+\d+(?:\s+of\s+\d+)?\s+(?:is\s+|was\s+|has\s+been\s+)?(?:now\s+)?",
            r"(?:done|complete|completed|finished|started|underway|in\s+progress|pending)\b",
            r"|\b(?:completed|finished|done\s+with|started)\s+(?:phase|step|stage|milestone|part|task)\s+\d+",
            r"|\bcoverage\s+(?:(?:is|was|at|of|now|reached|increased\s+to|dropped\s+to)\s+)+\d+(?:\.\d+)?\s*%",
            r"|\b(?:at|reached)\s+\d+(?:\.\d+)?\s*%\s+coverage\b",
            r"|\ball\s+(?:\d+\s+)?(?:the\s+)?(?:tests?|specs?|checks?|suites?)\s+(?:(?:are|now)\s+)*(?:pass|passes|passing|passed|green)\b",
            r"|\b(?:build|ci|pipeline|tests?|test\s+suite|suite|lint|linter|typecheck|checks?)\s+(?:is|are|was|were)\s+(?:(?:now|still|all)\s+)?",
            r"(?:green|red|passing|failing|clean)\b",
            r"|\b(?:now\s+at|currently\s+at|is\s+at|released|tagged|at\s+version)\s+v?\d+\.\d+(?:\.\d+)?",
            r"|\bbumped\s+(?:\S+\s+)?(?:from\s+v?\d\S*\s+)?to\s+v?\d+\.\d+",
        ))
        .expect("valid project-snapshot pattern")
    });
    &SNAPSHOT
}

// Literal prefilters: a pattern is compiled, which costs far more than checking a text, only
// for a text holding a word that every one of its alternatives needs. Each is derived from its
// pattern's alternatives (listed in the order of the pattern) and must never say no where the
// pattern matches; `prefilters_never_hide_a_match` checks that.

/// Progress needs, at the start, one of the words that open its first alternatives (or a verb
/// of `DONE_VERBS`, or "we"/"i"), or anywhere one of the words of the others.
pub(super) fn may_be_progress(text: &str) -> bool {
    const OPENERS: [&str; 14] = [
        "currently",
        "wip",
        "todo",
        "next",
        "in",
        "working",
        "now",
        "still",
        "about",
        "status",
        "pending",
        "just",
        "we",
        "i",
    ];
    const ANYWHERE: [&str; 19] = [
        "far",
        "moment",
        "session",
        "now",
        "next",
        "progress",
        "left",
        "remaining",
        "still",
        "merged",
        "pushed",
        "committed",
        "deployed",
        "reverted",
        "yesterday",
        "today",
        "morning",
        "afternoon",
        "evening",
    ];
    let opens = ascii_words(text).next().is_some_and(|first| {
        OPENERS
            .iter()
            .copied()
            .chain(DONE_VERBS.split('|').map(str::trim))
            .any(|w| first.eq_ignore_ascii_case(w))
    });
    let lower = text.to_ascii_lowercase();
    opens || ANYWHERE.iter().any(|needle| lower.contains(needle))
}

/// A snapshot needs a digit and one of the words around it (counted things, outcomes, phases,
/// coverage, versions), except "Last run:" at the start, "all tests pass" and "build is green",
/// whose last word stands alone.
pub(super) fn may_be_project_snapshot(text: &str) -> bool {
    const WITH_DIGIT: [&str; 33] = [
        "pass",
        "fail",
        "chang",
        "modif",
        "touch",
        "green",
        "skip",
        "ok",
        "succe",
        "compil",
        "complet",
        "ran",
        "test",
        "spec",
        "check",
        "suite",
        "done",
        "error",
        "warning",
        "problem",
        "phase",
        "step",
        "stage",
        "milestone",
        "part",
        "task",
        "sprint",
        "iteration",
        "coverage",
        "at",
        "released",
        "tagged",
        "bumped",
    ];
    const LAST_WORDS: [&str; 8] = [
        "pass", "passes", "passing", "passed", "green", "red", "failing", "clean",
    ];
    let lower = text.to_ascii_lowercase();
    (text.bytes().any(|b| b.is_ascii_digit())
        && WITH_DIGIT.iter().any(|needle| lower.contains(needle)))
        || starts_with_ignoring_ascii_case(text, "last")
        || ascii_words(text).any(|word| LAST_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w)))
}

/// Runs of ASCII word characters (`\w` with Unicode off).
pub(super) fn ascii_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The gate's patterns are ASCII rules (`\w`, `\d`, `\s`, `\b` and `(?i)` on ASCII), compiled
/// for bytes with Unicode off, and with only what a match on a text of a few hundred bytes
/// needs: no capture groups but the whole match, no literal prefilter, no one-pass or
/// backtracking engine. Compiling is most of a promote's work; searching such short texts
/// costs little either way.
pub(super) fn ascii_regex(pattern: &str) -> Result<Regex, Box<BuildError>> {
    Regex::builder()
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .configure(
            Regex::config()
                .which_captures(WhichCaptures::Implicit)
                .auto_prefilter(false)
                .onepass(false)
                .backtrack(false),
        )
        .build(pattern)
        .map_err(Box::new)
}

// ─── Gate helpers ────────────────────────────────────────────────────────────────────────────

/// The text without the quotes, backticks and emphasis it may open with.
pub(super) fn lead(text: &str) -> &str {
    text.trim_start_matches(['`', '"', '\'', '*', '>', '“', '‘', ' '])
}

/// Whether what starts at byte `at` is the main content: at most `max_lead_in` words lead
/// into it.
pub(super) fn is_main_content(text: &str, at: usize, max_lead_in: usize) -> bool {
    text[..at].split_whitespace().count() <= max_lead_in
}

/// A word without the quotes, brackets and punctuation around it.
pub(super) fn bare_token(word: &str) -> &str {
    word.trim_start_matches(['`', '"', '\'', '(', '[', '<', '{'])
        .trim_end_matches([
            '`', '"', '\'', ')', ']', '>', '}', ',', ';', '.', ':', '!', '?',
        ])
}

/// 7 to 40 hex characters holding a digit and a letter: an abbreviated or full commit hash.
pub(super) fn is_hex_id(token: &str) -> bool {
    (7..=40).contains(&token.len())
        && token.chars().all(|c| c.is_ascii_hexdigit())
        && token.chars().any(|c| c.is_ascii_digit())
        && token.chars().any(|c| c.is_ascii_alphabetic())
}

/// A file path: absolute (`/etc/hosts`, `~/x`, `C:\x`), or relative with a slash and a file
/// name (`src/a.ts`, `src/a.ts:10`). URLs are not paths.
pub(super) fn is_path(word: &str) -> bool {
    let token = bare_token(word);
    if token.contains("://") {
        return false;
    }
    let token = token.trim_end_matches(|c: char| c.is_ascii_digit() || c == ':');
    let starts_name =
        |rest: &str| rest.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '_' | '.'));
    let unix_absolute = token
        .strip_prefix('/')
        .or_else(|| token.strip_prefix("~/"))
        .is_some_and(starts_name);
    let bytes = token.as_bytes();
    let windows_absolute = bytes.len() > 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    let file_name = token.rsplit(['/', '\\']).next().unwrap_or_default();
    let relative_file = token.contains(['/', '\\']) && has_file_extension(file_name);
    unix_absolute || windows_absolute || relative_file
}

/// `index.ts`, `README.md`, `.eslintrc.json`: a name, a dot, and a short extension with a
/// letter ("v1.2" has none).
pub(super) fn has_file_extension(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, extension)| {
        !stem.is_empty()
            && (1..=8).contains(&extension.len())
            && extension.chars().all(|c| c.is_ascii_alphanumeric())
            && extension.chars().any(|c| c.is_ascii_alphabetic())
    })
}

/// `M`, `A`, `D`, `R`, `C`, `U`, `??`, `AM`, …: a `git status --short` code.
pub(super) fn is_git_status_code(word: &str) -> bool {
    (1..=2).contains(&word.len())
        && word
            .chars()
            .all(|c| matches!(c, 'M' | 'A' | 'D' | 'R' | 'C' | 'U' | '?' | '!'))
}
