//! Whether a memory is said to recur ("before every release", "毎回", "항상") or to hold for
//! the task at hand ("in this PR", "今回", "이번에"), in the nine languages. These are closed
//! classes of words, not phrases of a request: the models read each as one feature and learn
//! what it weighs ("remember to run the tests before every push" is a habit; "remember to run
//! the tests before you push this" is a one-off for the task), since a habit's words are too
//! few in the training messages for the model to learn each of them alone.

/// Words and phrases that say a thing recurs or always holds. Latin-script entries match as
/// whole words of the folded text; the others anywhere.
pub const RECURRING: &[&str] = &[
    // en
    "every",
    "each",
    "always",
    "whenever",
    "never",
    "any time",
    "anytime",
    "each time",
    "every time",
    "going forward",
    "from now on",
    "all the time",
    "all",
    // de
    "jede",
    "jeder",
    "jedes",
    "jedem",
    "jeden",
    "alle",
    "allen",
    "immer",
    "nie",
    "niemals",
    "stets",
    "grundsätzlich",
    "grundsatzlich",
    "jedesmal",
    "jedes mal",
    "ab jetzt",
    "künftig",
    "kunftig",
    // es, pt
    "cada",
    "siempre",
    "nunca",
    "jamás",
    "jamas",
    "cada vez",
    "toda vez",
    "sempre",
    "jamais",
    "todos",
    "todas",
    "tous",
    "toutes",
    "de ahora en adelante",
    "daqui pra frente",
    "daqui para a frente",
    // fr
    "chaque",
    "toujours",
    "à chaque fois",
    "a chaque fois",
    "systématiquement",
    "systematiquement",
    "désormais",
    "desormais",
    "dorénavant",
    "dorenavant",
    // ja
    "毎回",
    "毎日",
    "毎週",
    "いつも",
    "常に",
    "必ず",
    "絶対",
    "今後",
    "以後",
    "たびに",
    "度に",
    "ごとに",
    "毎度",
    // ko
    "항상",
    "매번",
    "언제나",
    "절대",
    "앞으로",
    "마다",
    "모든",
    "무조건",
    // zh
    "每次",
    "每个",
    "每個",
    "每天",
    "总是",
    "總是",
    "始终",
    "始終",
    "永远",
    "永遠",
    "一律",
    "所有",
    "以后",
    "以後",
    "一直",
    "任何",
    "从今以后",
    "從今以後",
    "今后",
    "今後",
];

/// Words and phrases that tie a thing to the task at hand.
pub const TASK_BOUND: &[&str] = &[
    // en
    "this pr",
    "this branch",
    "this file",
    "this task",
    "this session",
    "this time",
    "today",
    "tonight",
    "right now",
    "for now",
    "when you're done",
    "when you are done",
    "before you finish",
    "once you're done",
    "after this",
    "this one",
    // de
    "diesen pr",
    "diesem pr",
    "dieser pr",
    "heute",
    "jetzt gleich",
    "gleich",
    "diesmal",
    "dieses mal",
    "nachher",
    "vorerst",
    "wenn du fertig bist",
    "in diesem branch",
    "diese datei",
    // es
    "este pr",
    "esta rama",
    "hoy",
    "ahora mismo",
    "esta vez",
    "cuando termines",
    "al terminar",
    "este archivo",
    "por ahora",
    "por el momento",
    // fr
    "cette pr",
    "ce pr",
    "aujourd'hui",
    "aujourd hui",
    "maintenant",
    "cette fois",
    "quand tu auras fini",
    "quand tu as fini",
    "ce fichier",
    "ce soir",
    "pour l'instant",
    "tout à l'heure",
    "tout a l'heure",
    // pt
    "esse pr",
    "este pr",
    "nesse pr",
    "neste pr",
    "hoje",
    "agora",
    "dessa vez",
    "desta vez",
    "quando terminar",
    "quando acabar",
    "esse arquivo",
    "este ficheiro",
    "por enquanto",
    // ja
    "今回",
    "今日",
    "今すぐ",
    "このタスク",
    "このpr",
    "この pr",
    "終わったら",
    "このファイル",
    "一旦",
    "とりあえず",
    // ko
    "이번",
    "오늘",
    "지금",
    "이 pr",
    "이 파일",
    "끝나면",
    "일단",
    "우선",
    // zh
    "这次",
    "這次",
    "今天",
    "现在",
    "現在",
    "这个 pr",
    "這個 pr",
    "这个pr",
    "這個pr",
    "做完",
    "弄完",
    "等会",
    "等會",
    "暂时",
    "暫時",
    "这个文件",
    "這個檔案",
];

/// Whether `text` holds a word or phrase of `table`.
pub fn mentions(text: &str, table: &[&str]) -> bool {
    let folded = text.to_lowercase();
    table.iter().any(|entry| {
        if entry
            .chars()
            .all(|c| c.is_ascii() || c.is_alphabetic() && (c as u32) < 0x2E80)
        {
            has_whole(&folded, entry)
        } else {
            folded.contains(entry)
        }
    })
}

/// Whether `entry` stands in `text` with no letter or digit glued to either side.
fn has_whole(text: &str, entry: &str) -> bool {
    text.match_indices(entry).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + entry.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_habit_and_a_one_off_are_told_apart_by_their_words() {
        assert!(mentions(
            "write a regression test for every bug fix",
            RECURRING
        ));
        assert!(mentions(
            "Vergessen Sie bitte nie, eine Policy anzulegen",
            RECURRING
        ));
        assert!(mentions("コミット前に毎回 lint を回す", RECURRING));
        assert!(mentions("커밋마다 테스트 돌려", RECURRING));
        assert!(mentions("提交前每次都要跑 make lint", RECURRING));
        assert!(mentions("use pnpm for all packages", RECURRING));
        assert!(mentions("para todos los endpoints", RECURRING));
        assert!(!mentions("install it globally", RECURRING));
        assert!(!mentions("bump the version in this PR", RECURRING));
        assert!(mentions("bump the version in this PR", TASK_BOUND));
        assert!(mentions("この修正は今回だけ", TASK_BOUND));
        // Whole words only in Latin script: "nie" is not in "niedrig", "hoy" not in "ahoy".
        assert!(!mentions("der Pegel ist niedrig", RECURRING));
        assert!(!mentions("ahoy there", TASK_BOUND));
        assert!(!mentions("the cache is warm", RECURRING));
        // An entry with a space or an accent is a whole word too: "any time" is not in "many
        // times", "künftig" not in "zukünftig".
        assert!(!mentions("it failed too many times", RECURRING));
        assert!(!mentions("die zukünftige Version", RECURRING));
        assert!(mentions("künftig bitte mit Tests", RECURRING));
    }
}
