//! What a value given to a secret-like name must look like to count as a secret, and what
//! is kept instead: placeholders, references to the environment or a template, code and
//! paths.

/// Whether the value given to a secret-like name is a credential rather than a word, a
/// number, a placeholder, code, a path or a URL.
pub(super) fn looks_like_secret(value: &str) -> bool {
    value.chars().count() >= 8
        && mixes_character_classes(value)
        && !is_placeholder(value)
        && !is_code(value)
        && !is_path(value)
        && !value.contains("://")
}

pub(super) fn is_not_placeholder(value: &str) -> bool {
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
pub(super) fn is_placeholder(value: &str) -> bool {
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
pub(super) fn is_code(value: &str) -> bool {
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
