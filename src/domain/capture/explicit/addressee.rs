//! Which explicit memories are addressed to every project of the person rather than to this
//! workspace: "remember for all my projects: reply in Traditional Chinese", "globally, keep
//! answers short", "para todos mis proyectos: …", "在我所有的项目里都用繁体中文回复". Those go
//! to user memory, without the words that addressed them.
//!
//! A scope phrase counts where it frames the memory, never inside it: before the trigger
//! ("For all my projects, remember …"), at the start of the body before a separator or a lead
//! word ("remember for all my projects: …", "remember globally that …"), or at its end ("…,
//! globally"). Phrases naming the person's own projects ("all my projects") are plain enough to
//! stand without punctuation; the others ("in every project", "globally") could as well speak
//! of the packages of one monorepo or of how a tool is installed ("installed globally"), and
//! count only when punctuation sets them apart. A memory that also names this repository ("in
//! all my projects in this repo") is ambiguous and stays with the workspace.
//!
//! Matching is `text.rs`'s: case-insensitive, on word boundaries, any whitespace run for a space.

use super::language::{each, Lang};
use super::text::{longest_at, match_at, MAX_OPENING_WORDS};
use super::triggers::{all, Language};

/// Where an explicit memory belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Addressee {
    /// The workspace it was said in.
    #[default]
    Workspace,
    /// Every project of the person: user memory.
    User,
}

/// Everything one language contributes.
struct ScopeWords {
    /// Plain enough to need no punctuation around them: the person's own projects, which no
    /// single repository can mean ("keep answers short in all my projects"), and in Chinese,
    /// Japanese and Korean every phrase naming all projects with its locative particle.
    plain: &'static [&'static str],
    /// Every project, but readable as well as the parts of one repository or as how something
    /// is installed ("installed globally"): they count only before the trigger or set apart by
    /// punctuation.
    framed: &'static [&'static str],
    /// This repository: a memory naming one of these stays with the workspace.
    local: &'static [&'static str],
    /// Dropped after a scope phrase that opens a body: "for all my projects, that X" → "X".
    leads: &'static [&'static str],
}

const NONE: &[&str] = &[];

const ENGLISH: ScopeWords = ScopeWords {
    plain: &[
        "for all my projects",
        "in all my projects",
        "across all my projects",
        "for all of my projects",
        "in all of my projects",
        "across all of my projects",
        "for every one of my projects",
        "in every one of my projects",
        "for each of my projects",
        "in each of my projects",
        "for all my repos",
        "in all my repos",
        "across all my repos",
        "for all my repositories",
        "in all my repositories",
        "across all my repositories",
        "for all my codebases",
        "in all my codebases",
        "in every project i work on",
        "in every repo i work on",
        "in all the projects i work on",
        "in any project i work on",
        "wherever i work",
    ],
    framed: &[
        "globally",
        "global",
        "for all projects",
        "in all projects",
        "across all projects",
        "across projects",
        "for every project",
        "in every project",
        "for any project",
        "in any project",
        "for every repo",
        "in every repo",
        "in every repository",
        "for every repository",
        "in all repos",
        "across all repos",
        "across repos",
        "in every codebase",
        "everywhere i work",
        "no matter the project",
        "no matter which project",
        "regardless of the project",
        "whatever the project",
    ],
    local: &[
        "this repo",
        "this repository",
        "this project",
        "this codebase",
        "this monorepo",
        "this workspace",
        "the monorepo",
        "this folder",
    ],
    leads: &["that", "to"],
};

const SPANISH: ScopeWords = ScopeWords {
    plain: &[
        "para todos mis proyectos",
        "en todos mis proyectos",
        "para todos mis repos",
        "en todos mis repos",
        "para todos mis repositorios",
        "en todos mis repositorios",
        "en cada uno de mis proyectos",
        "en cualquiera de mis proyectos",
    ],
    framed: &[
        "globalmente",
        "de forma global",
        "de manera global",
        "a nivel global",
        "para todos los proyectos",
        "en todos los proyectos",
        "en cualquier proyecto",
        "en cada proyecto",
        "para cada proyecto",
        "en todos los repos",
        "en todos los repositorios",
        "en cada repo",
        "en cada repositorio",
        "sea cual sea el proyecto",
    ],
    local: &[
        "este repo",
        "este repositorio",
        "este proyecto",
        "este monorepo",
        "esta carpeta",
    ],
    leads: &["que"],
};

const GERMAN: ScopeWords = ScopeWords {
    plain: &[
        "für alle meine projekte",
        "fuer alle meine projekte",
        "für all meine projekte",
        "in allen meinen projekten",
        "in all meinen projekten",
        "bei allen meinen projekten",
        "für alle meine repos",
        "in allen meinen repos",
        "in allen meinen repositories",
    ],
    framed: &[
        "global",
        "projektübergreifend",
        "projektuebergreifend",
        "für alle projekte",
        "fuer alle projekte",
        "in allen projekten",
        "bei allen projekten",
        "in jedem projekt",
        "für jedes projekt",
        "in jedem repo",
        "in jedem repository",
        "in allen repos",
        "egal in welchem projekt",
    ],
    local: &[
        "dieses repo",
        "diesem repo",
        "dieses repository",
        "diesem repository",
        "dieses projekt",
        "diesem projekt",
        "dieses monorepo",
        "diesem monorepo",
    ],
    leads: &["dass", "daß"],
};

const FRENCH: ScopeWords = ScopeWords {
    plain: &[
        "pour tous mes projets",
        "dans tous mes projets",
        "sur tous mes projets",
        "pour tous mes dépôts",
        "dans tous mes dépôts",
        "dans tous mes depots",
        "pour tous mes repos",
        "dans tous mes repos",
        "dans chacun de mes projets",
    ],
    framed: &[
        "globalement",
        "de manière globale",
        "de maniere globale",
        "de façon globale",
        "pour tous les projets",
        "dans tous les projets",
        "sur tous les projets",
        "dans chaque projet",
        "pour chaque projet",
        "dans n'importe quel projet",
        "dans tous les dépôts",
        "dans chaque dépôt",
        "dans chaque repo",
        "quel que soit le projet",
    ],
    local: &[
        "ce repo",
        "ce dépôt",
        "ce depot",
        "ce projet",
        "ce monorepo",
        "ce dossier",
    ],
    leads: &["que", "qu'"],
};

const PORTUGUESE: ScopeWords = ScopeWords {
    plain: &[
        "para todos os meus projetos",
        "pra todos os meus projetos",
        "para todos meus projetos",
        "em todos os meus projetos",
        "em todos meus projetos",
        "nos meus projetos todos",
        "em todos os meus repos",
        "em todos os meus repositórios",
        "em todos os meus repositorios",
        "em qualquer um dos meus projetos",
    ],
    framed: &[
        "globalmente",
        "de forma global",
        "para todos os projetos",
        "pra todos os projetos",
        "em todos os projetos",
        "em qualquer projeto",
        "em cada projeto",
        "em todos os repositórios",
        "em todos os repositorios",
        "em todos os repos",
        "em cada repositório",
        "seja qual for o projeto",
    ],
    local: &[
        "este repo",
        "esse repo",
        "neste repo",
        "nesse repo",
        "este repositório",
        "neste repositório",
        "este projeto",
        "esse projeto",
        "neste projeto",
        "nesse projeto",
    ],
    leads: &["que"],
};

/// Simplified and traditional together, as the triggers are.
const CHINESE: ScopeWords = ScopeWords {
    plain: &[
        "在我所有的项目里",
        "在我所有的项目中",
        "在我所有项目里",
        "在我所有项目中",
        "在我的所有项目里",
        "在我的所有项目中",
        "对我所有的项目",
        "我所有的项目",
        "我所有项目",
        "我的所有项目",
        "所有项目通用",
        "在所有项目里",
        "在所有项目中",
        "在所有的项目里",
        "在所有的项目中",
        "在每个项目里",
        "在每个项目中",
        "所有项目",
        "所有的项目",
        "每个项目",
        "在所有仓库里",
        "所有仓库",
        "跨项目",
        "不管哪个项目",
        "无论哪个项目",
        "在我所有的專案裡",
        "在我所有的專案中",
        "在我所有專案裡",
        "在我所有專案中",
        "在我的所有專案裡",
        "在我的所有專案中",
        "在我所有的項目裡",
        "在我所有的項目中",
        "對我所有的專案",
        "我所有的專案",
        "我所有專案",
        "我的所有專案",
        "我所有的項目",
        "所有專案通用",
        "所有項目通用",
        "在所有專案裡",
        "在所有專案中",
        "在所有的專案裡",
        "在每個專案裡",
        "在所有項目裡",
        "所有專案",
        "所有的專案",
        "所有項目",
        "每個專案",
        "每個項目",
        "跨專案",
        "不管哪個專案",
        "無論哪個專案",
    ],
    // "全局安装", "全局变量": a fact about the workspace.
    framed: &["全局", "全域"],
    local: &[
        "这个项目",
        "這個專案",
        "這個項目",
        "本项目",
        "本專案",
        "本項目",
        "这个仓库",
        "這個倉庫",
        "这个repo",
        "這個repo",
    ],
    leads: &["都", "也都", "一律"],
};

const JAPANESE: ScopeWords = ScopeWords {
    plain: &[
        "私の全てのプロジェクトで",
        "私のすべてのプロジェクトで",
        "自分の全プロジェクトで",
        "自分の全てのプロジェクトで",
        "自分のすべてのプロジェクトで",
        "全てのプロジェクトで",
        "すべてのプロジェクトで",
        "全プロジェクトで",
        "全部のプロジェクトで",
        "どのプロジェクトでも",
        "全プロジェクト共通で",
        "プロジェクト共通で",
        "全プロジェクト共通",
        "プロジェクトを問わず",
        "全てのリポジトリで",
        "すべてのリポジトリで",
        "どのリポジトリでも",
    ],
    framed: &["グローバルに", "グローバルで"],
    local: &["このプロジェクト", "このリポジトリ", "このリポ", "このレポ"],
    leads: NONE,
};

const KOREAN: ScopeWords = ScopeWords {
    plain: &[
        "내 모든 프로젝트에서",
        "제 모든 프로젝트에서",
        "내 모든 프로젝트에",
        "제 모든 프로젝트에",
        "모든 프로젝트에서",
        "모든 프로젝트에",
        "모든 저장소에서",
        "모든 레포에서",
        "어느 프로젝트에서든",
        "어떤 프로젝트에서든",
        "프로젝트 상관없이",
        "프로젝트 공통으로",
    ],
    framed: &["전역으로", "전역적으로", "글로벌하게"],
    local: &["이 프로젝트", "이 저장소", "이 레포", "이 리포"],
    leads: NONE,
};

/// The scope words of `lang`.
fn scope_words(lang: Lang) -> &'static ScopeWords {
    match lang {
        Lang::English => &ENGLISH,
        Lang::Spanish => &SPANISH,
        Lang::German => &GERMAN,
        Lang::French => &FRENCH,
        Lang::Portuguese => &PORTUGUESE,
        Lang::Chinese => &CHINESE,
        Lang::Japanese => &JAPANESE,
        Lang::Korean => &KOREAN,
    }
}

fn words(
    table: fn(&'static ScopeWords) -> &'static [&'static str],
) -> impl Iterator<Item = &'static str> + Clone {
    each(scope_words, table).copied()
}

/// Every scope phrase: what an opening may hold before its trigger, and what a pointing body
/// ("Remember that for all my projects.") may end with.
pub(super) fn phrases() -> impl Iterator<Item = &'static str> + Clone {
    words(|l| l.plain).chain(words(|l| l.framed))
}

/// Punctuation that sets a scope phrase apart from the memory.
const SEPARATORS: &[char] = &[
    ':', '：', ',', '，', '、', '-', '—', '–', ';', '；', '(', ')', '（', '）', '[', ']',
];

fn is_separator(c: char) -> bool {
    SEPARATORS.contains(&c)
}

/// A scope phrase ending a body starts within its last this many bytes (the longest phrase is
/// shorter), so a long body costs no more than a short one.
const END_REACH: usize = 96;

/// Where the memory `body` belongs, and its text without the words that addressed it.
/// `before` is what its sentence holds before it (the opening and the trigger).
pub(super) fn split(before: &str, body: &str) -> (Addressee, String) {
    if names_this_repository(before) || names_this_repository(body) {
        return (Addressee::Workspace, body.to_owned());
    }
    if let Some(rest) = strip_leading(body) {
        return (Addressee::User, rest.to_owned());
    }
    if let Some(rest) = strip_trailing(body) {
        return (Addressee::User, rest.to_owned());
    }
    let scope = if opens_with_scope(before) {
        Addressee::User
    } else {
        Addressee::Workspace
    };
    (scope, body.to_owned())
}

/// The scope of a sentence that only points at its memory ("Remember that for all my
/// projects.", "Remember the following, globally:"): any scope phrase in it counts.
pub(super) fn of_pointing_sentence(sentence: &str) -> Addressee {
    if names_this_repository(sentence) {
        return Addressee::Workspace;
    }
    let found = sentence
        .char_indices()
        .filter(|&(at, _)| starts_word(sentence, at))
        .any(|(at, _)| longest_at(sentence, at, phrases()).is_some());
    if found {
        Addressee::User
    } else {
        Addressee::Workspace
    }
}

/// Whether `text` holds any scope phrase or names this repository: when a sentence holds none,
/// no piece of it does, and its memories are this workspace's without looking further.
pub(super) fn mentions_any(text: &str) -> bool {
    text.char_indices()
        .filter(|&(at, _)| starts_word(text, at))
        .any(|(at, _)| longest_at(text, at, phrases().chain(words(|l| l.local))).is_some())
}

/// Whether `text` names this repository ("this repo", "本项目", "diesem Projekt").
pub(super) fn names_this_repository(text: &str) -> bool {
    text.char_indices()
        .filter(|&(at, _)| starts_word(text, at))
        .any(|(at, _)| longest_at(text, at, words(|l| l.local)).is_some())
}

/// Whether a word may start at `at`: the text's start, or after a char that is no letter of
/// an alphabetic script (CJK phrases may start anywhere).
fn starts_word(text: &str, at: usize) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(super::text::is_word_char)
}

/// The body after a scope phrase that opens it, its separator and lead word.
fn strip_leading(body: &str) -> Option<&str> {
    let (end, phrase) = longest_at(body, 0, phrases())?;
    let plain = words(|l| l.plain).any(|p| p == phrase);
    let after_space = skip(body, end, char::is_whitespace);
    let after_separator = skip(body, after_space, |c| c.is_whitespace() || is_separator(c));
    let separated = after_separator > after_space;
    let lead = longest_at(body, after_separator, words(|l| l.leads)).map(|(end, _)| end);
    if !(plain || separated || lead.is_some()) {
        return None;
    }
    let rest = skip(body, lead.unwrap_or(after_separator), char::is_whitespace);
    Some(&body[rest..]).filter(|rest| !rest.is_empty())
}

/// The body before a scope phrase that ends it, without the separator before the phrase.
fn strip_trailing(body: &str) -> Option<&str> {
    let trimmed =
        body.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ')' | '）' | ']'));
    let from = trimmed.len().saturating_sub(END_REACH);
    let (start, plain) = trimmed
        .char_indices()
        .filter(|&(at, _)| at >= from && at > 0 && starts_word(trimmed, at))
        .find_map(|(at, _)| {
            words(|l| l.plain)
                .map(|p| (p, true))
                .chain(words(|l| l.framed).map(|p| (p, false)))
                .find(|&(p, _)| match_at(trimmed, at, p) == Some(trimmed.len()))
                .map(|(_, plain)| (at, plain))
        })?;
    let before = trimmed[..start].trim_end();
    let kept = before.trim_end_matches(|c: char| c.is_whitespace() || is_separator(c));
    let separated = kept.len() < before.len();
    // "installed globally" and "runs in every project" stay facts of the workspace.
    if !(separated || plain) {
        return None;
    }
    let kept = strip_particle(kept);
    (!kept.is_empty()).then_some(kept)
}

/// Japanese and Korean bodies end in a particle before their verb; once the scope phrase that
/// followed is gone, it dangles: "日本語で返信することを" → "日本語で返信すること".
fn strip_particle(text: &str) -> &str {
    all(|l: &'static Language| l.body_particles)
        .filter(|particle| !particle.is_ascii() && text.ends_with(particle))
        .max_by_key(|particle| particle.len())
        .map_or(text, |particle| {
            text[..text.len() - particle.len()].trim_end()
        })
}

/// Whether the opening before a trigger holds a scope phrase: after decorations and filler
/// words only ("Also, for all my projects: remember …"), followed by punctuation, a space or
/// the end.
fn opens_with_scope(before: &str) -> bool {
    let mut at = 0;
    for _ in 0..MAX_OPENING_WORDS {
        at = skip(before, at, |c| !c.is_alphanumeric());
        if at >= before.len() {
            return false;
        }
        if let Some((end, _)) = longest_at(before, at, phrases()) {
            return before[end..]
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || is_separator(c));
        }
        match longest_at(before, at, all(|l: &'static Language| l.fillers)) {
            Some((end, _)) => at = end,
            None => return false,
        }
    }
    false
}

fn skip(text: &str, at: usize, skip: impl Fn(char) -> bool) -> usize {
    super::text::skip_chars(text, at.min(text.len()), skip)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Lang::ALL` decides which of two equally long scope phrases of two languages is the
    /// match; it decides nothing while no phrase is plain in one language and framed in another.
    #[test]
    fn no_scope_phrase_is_both_plain_and_framed() {
        for plain in words(|l| l.plain) {
            assert!(
                !words(|l| l.framed).any(|framed| framed.to_lowercase() == plain.to_lowercase()),
                "{plain}"
            );
        }
    }

    fn user(before: &str, body: &str) -> Option<String> {
        match split(before, body) {
            (Addressee::User, text) => Some(text),
            (Addressee::Workspace, text) => {
                assert_eq!(text, body, "a workspace memory keeps its text");
                None
            }
        }
    }

    #[test]
    fn a_scope_phrase_opening_the_body_is_dropped_with_its_separator_and_lead() {
        let cases = [
            ("for all my projects: reply in English", "reply in English"),
            ("for all my projects, that I prefer tabs", "I prefer tabs"),
            (
                "in all my projects use conventional commits",
                "use conventional commits",
            ),
            ("globally: keep answers short", "keep answers short"),
            ("globally, to keep answers short", "keep answers short"),
            (
                "in every repo, run the linter before pushing",
                "run the linter before pushing",
            ),
            (
                "para todos mis proyectos: responde en español",
                "responde en español",
            ),
            (
                "für alle meine Projekte: antworte auf Deutsch",
                "antworte auf Deutsch",
            ),
            (
                "pour tous mes projets, que les commits soient en anglais",
                "les commits soient en anglais",
            ),
            ("em todos os meus projetos, use pnpm", "use pnpm"),
            ("在我所有的项目里都用繁体中文回复", "用繁体中文回复"),
            ("全局：回答尽量简短", "回答尽量简短"),
            ("모든 프로젝트에서, 답변은 짧게", "답변은 짧게"),
        ];
        for (body, rest) in cases {
            assert_eq!(user("remember ", body).as_deref(), Some(rest), "{body}");
        }
    }

    #[test]
    fn a_scope_phrase_ending_the_body_is_dropped() {
        let cases = [
            (
                "keep answers short in all my projects",
                "keep answers short",
            ),
            ("keep answers short, globally", "keep answers short"),
            (
                "run the linter before pushing (in every repo)",
                "run the linter before pushing",
            ),
            (
                "respuestas cortas en todos mis proyectos",
                "respuestas cortas",
            ),
            ("用繁体中文回复，所有项目通用", "用繁体中文回复"),
            (
                "日本語で返信することを全プロジェクト共通で",
                "日本語で返信すること",
            ),
        ];
        for (body, rest) in cases {
            assert_eq!(user("remember ", body).as_deref(), Some(rest), "{body}");
        }
    }

    #[test]
    fn general_phrases_inside_a_fact_stay_with_the_workspace() {
        for body in [
            "the CLI is installed globally on the CI runners",
            "globally installed tools live in ~/.local/bin",
            "the shared eslint config runs in every project",
            "in every project of the monorepo the tests live under __tests__",
            "all my projects in this repo use the shared tsconfig",
            "for all my projects in this repo: use the shared tsconfig",
            "全局变量一律用大写",
            "use a global error handler for the API",
        ] {
            assert_eq!(user("remember that ", body), None, "{body}");
        }
    }

    #[test]
    fn a_scope_phrase_in_the_opening_addresses_the_memory() {
        assert_eq!(
            user("For all my projects, remember to ", "keep answers short").as_deref(),
            Some("keep answers short")
        );
        assert_eq!(
            user("Also, globally: remember ", "keep answers short").as_deref(),
            Some("keep answers short")
        );
        // After a word it is part of a phrase, not a frame.
        assert_eq!(
            user(
                "The globally installed CLI — remember to ",
                "update it monthly"
            ),
            None
        );
        assert_eq!(user("remember ", "keep answers short"), None);
    }

    #[test]
    fn a_scoped_trigger_ending_in_a_colon_points_at_the_lines_after() {
        let list =
            "Remember the following for all my projects:\n- keep answers short\n- reply in English";
        let memories = super::super::capture(list);
        let got: Vec<(&str, Addressee)> = memories
            .iter()
            .map(|m| (m.text.as_str(), m.scope))
            .collect();
        assert_eq!(
            got,
            [
                ("keep answers short", Addressee::User),
                ("reply in English", Addressee::User)
            ]
        );
        // Without a scope, a pointing sentence ending in a colon still takes the one before.
        let back =
            super::super::capture("Always run the linter first. Remember that for next time:");
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].text, "Always run the linter first");
        assert_eq!(back[0].scope, Addressee::Workspace);
    }

    #[test]
    fn pointing_sentences_take_any_scope_phrase() {
        assert_eq!(
            of_pointing_sentence("Remember that for all my projects"),
            Addressee::User
        );
        assert_eq!(
            of_pointing_sentence("Remember that globally"),
            Addressee::User
        );
        assert_eq!(of_pointing_sentence("Remember that"), Addressee::Workspace);
        assert_eq!(
            of_pointing_sentence("Remember that for every project in this repo"),
            Addressee::Workspace
        );
    }
}
