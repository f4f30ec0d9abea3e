//! The languages the phrase tables are written for. Each table module (`triggers.rs`,
//! `forget/phrases.rs`, `addressee.rs`, `recall.rs`) reaches its table of a language through an
//! exhaustive `match` on `Lang`, so a language added here does not compile until every table
//! has it. The candidate gate's tables (`candidates/`) tag their rows with it too.

/// One language of the phrase tables. Chinese is one language in both scripts: its tables hold
/// the simplified and the traditional forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    English,
    Spanish,
    German,
    French,
    Portuguese,
    Chinese,
    Japanese,
    Korean,
}

impl Lang {
    /// Every language, in the order their tables are read. Where phrases of two languages
    /// match equally far at one place, the one read last is the match (`text::longest_at` and
    /// the trigger scan keep the last of the longest). Such phrases are one phrase in both
    /// tables ("memorize", "global", "que") with one role, a trigger of the same kind or a
    /// scope phrase of the same sort, so the order changes no result (the tests of `triggers.rs`
    /// and `addressee.rs` keep it so); two languages giving one phrase two roles would make it
    /// decide.
    pub(crate) const ALL: [Lang; 8] = [
        Lang::English,
        Lang::Spanish,
        Lang::German,
        Lang::French,
        Lang::Portuguese,
        Lang::Chinese,
        Lang::Japanese,
        Lang::Korean,
    ];
}

/// The entries of one table of every language, in the order of `Lang::ALL`: `language` gives
/// a language's tables, `table` picks one of them.
pub(super) fn each<L: 'static, T: 'static>(
    language: fn(Lang) -> &'static L,
    table: fn(&'static L) -> &'static [T],
) -> impl Iterator<Item = &'static T> + Clone {
    Lang::ALL
        .into_iter()
        .flat_map(move |lang| table(language(lang)))
}
