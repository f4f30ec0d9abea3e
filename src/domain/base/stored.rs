//! What reading a store file gave. The store returns it; `baseline` and `gc` judge it.

/// A store file as read: missing, a document, or why it could not be one.
#[derive(Debug, Clone, PartialEq)]
pub enum Stored<T> {
    /// Not there (any more).
    Missing,
    Ok(T),
    /// Does not parse; the reason.
    Corrupt(String),
    /// Written by a newer format version; not parsed.
    Newer(u64),
}

impl<T> Stored<T> {
    /// The document changed by `f`; the other outcomes as they are.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Stored<U> {
        match self {
            Stored::Missing => Stored::Missing,
            Stored::Ok(doc) => Stored::Ok(f(doc)),
            Stored::Corrupt(reason) => Stored::Corrupt(reason),
            Stored::Newer(version) => Stored::Newer(version),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_changes_only_the_document() {
        assert_eq!(Stored::Ok(2).map(|n| n * 10), Stored::Ok(20));
        assert_eq!(Stored::<i32>::Missing.map(|n| n * 10), Stored::Missing);
        assert_eq!(
            Stored::<i32>::Corrupt("bad".into()).map(|n| n * 10),
            Stored::Corrupt("bad".into())
        );
        assert_eq!(Stored::<i32>::Newer(7).map(|n| n * 10), Stored::Newer(7));
    }
}
