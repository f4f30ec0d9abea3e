//! `ocmem explain`: what the language layer makes of a text, and the features that weighed
//! most. Reads nothing from the data directory and writes nothing.

use anyhow::{bail, Result};

use super::{print, read_stdin, Run};
use crate::cli::Explain;
use crate::context::Context;
use crate::domain::capture::explain;

impl Run for Explain {
    fn run(&self, _ctx: &Context) -> Result<()> {
        let text = if self.text.is_empty() {
            String::from_utf8(read_stdin()?)
                .map_err(|_| anyhow::anyhow!("standard input is not UTF-8 text"))?
        } else {
            self.text.join(" ")
        };
        if text.trim().is_empty() {
            bail!("nothing to explain: give a text or pipe one in");
        }
        let out = if self.candidate {
            let report = explain::candidate(text.trim());
            if self.json {
                serde_json::to_string(&report)? + "\n"
            } else {
                report.render()
            }
        } else {
            let report = explain::message(&text);
            if self.json {
                serde_json::to_string(&report)? + "\n"
            } else {
                report.render()
            }
        };
        print(&out)
    }
}
