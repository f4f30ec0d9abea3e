//! `ocmem handoff`: a handoff note from a session's digest, printed and, with `--write`,
//! written to a file ocmem owns.

use anyhow::{bail, Result};

use super::Run;
use crate::cli::Handoff;
use crate::context::Context;
use crate::domain::session::digest::handoff::handoff;
use crate::engine::sessions::target_workspace;

impl Run for Handoff {
    fn run(&self, ctx: &Context) -> Result<()> {
        let store = ctx.store();
        let workspace = target_workspace(&store, self.workspace.as_ref())?;
        let digests = store.digests(&workspace)?;
        let digest = match &self.session {
            Some(id) => digests.iter().find(|d| d.session_id == *id),
            None => digests.first(),
        };
        let Some(digest) = digest else {
            match &self.session {
                Some(id) => {
                    bail!("no digest of session {id} in this workspace (see `ocmem sessions`)")
                }
                None => bail!("no session digest in this workspace yet"),
            }
        };
        let note = handoff(digest);
        if let Some(path) = &self.write {
            let path = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            if path.is_dir() {
                bail!("--write {} is a directory", path.display());
            }
            if !store.write_handoff(&path, &note, self.force)? {
                bail!(
                    "{} changed since ocmem last wrote it (or ocmem never wrote it); left it alone, pass --force to replace it",
                    path.display()
                );
            }
        }
        super::print(&note)
    }
}
