//! Reading and changing a store for a command a person runs (`ocmem memory …`). A hook
//! quarantines a store it cannot read and starts afresh, so that the agent is never blocked;
//! a person is told instead, in one line, and nothing on disk changes: they can repair the
//! file, or let the next hook move it aside.

use std::path::Path;

use anyhow::{bail, Result};

use super::{change_and_write, create_private_dir, read_stored, Document, Store};
use crate::domain::base::stored::Stored;

impl Store {
    /// The store at `path` as it is, read under a shared lock when its lock file exists;
    /// `None` when there is none. A corrupt or newer-version store is an error.
    pub fn read_for_person<T: Document>(&self, path: &Path) -> Result<Option<T>> {
        let _lock = self.lock_shared_if_present(path)?;
        match read_stored::<T>(path)? {
            Stored::Ok(doc) => Ok(Some(doc)),
            Stored::Missing => Ok(None),
            other => bail!("{}", unreadable(&other, path)),
        }
    }

    /// Changes the store at `path` under its lock like `update`, but refuses a corrupt or
    /// newer-version store, and writes nothing when `change` fails. Returns what `change`
    /// returned and whether the file was written.
    pub fn update_for_person<T: Document, R>(
        &self,
        path: &Path,
        fresh: impl FnOnce() -> T,
        change: impl FnOnce(&mut T) -> Result<R>,
    ) -> Result<(R, bool)> {
        let dir = path
            .parent()
            .ok_or_else(|| anyhow::anyhow!("store path has no directory"))?;
        create_private_dir(dir)?;
        let _lock = self.lock(path)?;
        let mut doc = match read_stored::<T>(path)? {
            Stored::Ok(doc) => doc,
            Stored::Missing => fresh(),
            other => bail!("{}", unreadable(&other, path)),
        };
        // Changed on a copy, so that a change that fails halfway leaves the document as read.
        let mut outcome: Option<Result<R>> = None;
        let ((), written) = change_and_write(
            path,
            &mut doc,
            |doc| {
                let mut work = doc.clone();
                let result = change(&mut work);
                if result.is_ok() {
                    *doc = work;
                }
                outcome = Some(result);
            },
            || Ok(()),
        )?;
        match outcome {
            Some(Ok(result)) => Ok((result, written)),
            Some(Err(e)) => Err(e),
            None => bail!("internal error: the change did not run"),
        }
    }
}

/// Why a store cannot be used, and what to do, in one line.
fn unreadable<T: Document>(stored: &Stored<T>, path: &Path) -> String {
    match stored {
        Stored::Corrupt(reason) => format!(
            "{} {} cannot be read ({}); nothing was changed: repair it, or move it aside",
            T::KIND,
            path.display(),
            crate::domain::base::text::one_line(reason)
        ),
        Stored::Newer(version) => format!(
            "{} {} has format version {version}, newer than this ocmem understands ({}); \
             nothing was changed: use a newer ocmem",
            T::KIND,
            path.display(),
            T::VERSION
        ),
        Stored::Ok(_) | Stored::Missing => String::new(),
    }
}
