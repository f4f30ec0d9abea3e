//! The audit of a team file for CI and pre-commit hooks (`ocmem baseline --check --team`):
//! every line the reader could not take (conflict markers, duplicates, malformed lines) and
//! every entry the gate would refuse, in file order, one finding per line.

use serde::Serialize;

use super::gate::refusal;
use super::{TeamMemory, TEAM_FILE};

/// One thing wrong with the team file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    pub reason: String,
}

impl Finding {
    /// `.ocmem/memory.md:LINE: reason`, as compilers report, so editors and CI logs link it.
    pub fn check_line(&self) -> String {
        match self.line {
            0 => format!("{TEAM_FILE}: {}", self.reason),
            line => format!("{TEAM_FILE}:{line}: {}", self.reason),
        }
    }
}

/// Every finding in `memory`, by line.
pub fn findings(memory: &TeamMemory) -> Vec<Finding> {
    let problems = memory.problems.iter().map(|problem| Finding {
        line: problem.line,
        reason: problem.kind.describe().to_string(),
    });
    let refused = memory.entries.iter().filter_map(|entry| {
        refusal(&entry.text, entry.rationale.as_deref()).map(|why| Finding {
            line: entry.line,
            reason: format!("entry {} may not be shared: {}", entry.id, why.describe()),
        })
    });
    let mut all: Vec<Finding> = problems.chain(refused).collect();
    all.sort_by_key(|finding| finding.line);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::team::parse;

    #[test]
    fn a_clean_file_has_no_findings() {
        let text = "# Team memory\n\n## Project\n\n- Tests run with `cargo nextest run` <!-- ocmem:0a1b2c3d -->\n";
        assert_eq!(findings(&parse(text)), vec![]);
    }

    #[test]
    fn problems_and_refusals_are_reported_by_line() {
        let text = "# Team memory\n\n## Project\n\n\
            - Use pnpm <!-- ocmem:0a1b2c3d -->\n\
            - Staging SIGNING_KEY=Zq9vW2 <!-- ocmem:1a1b2c3d -->\n\
            stray words\n\
            - use pnpm <!-- ocmem:2a1b2c3d -->\n";
        let found = findings(&parse(text));
        let lines: Vec<usize> = found.iter().map(|f| f.line).collect();
        assert_eq!(lines, vec![6, 7, 8]);
        assert!(found[0].reason.contains("1a1b2c3d"), "{:?}", found[0]);
        assert_eq!(
            found[2].check_line(),
            ".ocmem/memory.md:8: same entry as an earlier one"
        );
    }
}
