//! User memory: the entries that follow the person into every project, kept in the data
//! directory's `user-memory.json` in the format of workspace memory and merged by the same
//! rules (dedupe, injection guard, scrubbing, the cap that never deletes).
//!
//! It is rendered first in the workspace block, under its own header, within the block's one
//! budget: at most a third of its entries and of its characters, and the workspace's entries
//! get what it leaves. Without user memory the block is exactly the workspace's.

use crate::domain::memory::workspace::WorkspaceMemory;
use crate::domain::prompt::layers::{render_layers, Layers};
pub use crate::domain::prompt::layers::{USER_RENDERED_CHARS, USER_RENDERED_ENTRIES};

/// The workspace block with user memory first: the user section (top entries by the rank of
/// workspace memory, within its third), a blank line, then the workspace's entries and its
/// verified commands within the rest of the budget. "" when neither has anything to show.
/// A workspace entry the user section shows is not shown again (see `layers`).
pub fn render_memory_block(
    user: Option<&WorkspaceMemory>,
    workspace: Option<&WorkspaceMemory>,
    now_ms: Option<i64>,
) -> String {
    let layers = Layers {
        user,
        team: &[],
        workspace,
    };
    render_layers(layers, now_ms).text()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::guard::structure::{USER_HEADER, WORKSPACE_HEADER};
    use crate::domain::memory::kind::MemoryType;
    use crate::domain::memory::workspace::{
        merge, render_block, NewMemory, Source, MAX_RENDERED_CHARS, MAX_RENDERED_ENTRIES,
    };

    fn memory_of(texts: &[String], kind: MemoryType) -> WorkspaceMemory {
        let mut memory = WorkspaceMemory::new("/r", "k");
        for (i, text) in texts.iter().enumerate() {
            let new = NewMemory {
                kind,
                text: text.clone(),
                rationale: None,
                source: Source::Explicit,
                confidence: 1.0,
            };
            merge(&mut memory, new, i as i64);
        }
        memory
    }

    fn numbered(prefix: &str, count: usize, words: usize) -> Vec<String> {
        (0..count)
            .map(|i| format!("{prefix} {i} {}", "detail ".repeat(words).trim_end()))
            .collect()
    }

    fn entry_lines(block: &str) -> usize {
        block.lines().filter(|l| l.starts_with("- ")).count()
    }

    #[test]
    fn without_user_memory_the_block_is_the_workspace_block() {
        let workspace = memory_of(&numbered("Use pnpm rule", 40, 20), MemoryType::Feedback);
        let block = render_block(&workspace, Some(0));
        assert!(!block.is_empty());
        assert_eq!(render_memory_block(None, Some(&workspace), Some(0)), block);
        let empty = WorkspaceMemory::new("", "");
        assert_eq!(
            render_memory_block(Some(&empty), Some(&workspace), Some(0)),
            block
        );
        assert_eq!(render_memory_block(Some(&empty), None, Some(0)), "");
    }

    #[test]
    fn user_memory_comes_first_under_its_own_header() {
        let user = memory_of(
            &["Reply in Traditional Chinese".into()],
            MemoryType::Feedback,
        );
        let workspace = memory_of(&["The repo is a pnpm monorepo".into()], MemoryType::Project);
        assert_eq!(
            render_memory_block(Some(&user), Some(&workspace), Some(0)),
            format!(
                "{USER_HEADER}\nfeedback:\n- Reply in Traditional Chinese\n\n\
                 {WORKSPACE_HEADER}\nproject:\n- The repo is a pnpm monorepo"
            )
        );
        assert_eq!(
            render_memory_block(Some(&user), None, Some(0)),
            format!("{USER_HEADER}\nfeedback:\n- Reply in Traditional Chinese")
        );
    }

    #[test]
    fn large_memories_share_one_budget_with_user_memory_held_to_a_third() {
        let user = memory_of(&numbered("Personal habit", 60, 40), MemoryType::Feedback);
        let workspace = memory_of(&numbered("Project rule", 60, 40), MemoryType::Feedback);
        let block = render_memory_block(Some(&user), Some(&workspace), Some(0));
        assert!(
            block.chars().count() <= MAX_RENDERED_CHARS,
            "{}",
            block.len()
        );
        assert!(entry_lines(&block) <= MAX_RENDERED_ENTRIES);
        let (user_part, workspace_part) = block.split_once("\n\n").unwrap();
        assert!(user_part.starts_with(USER_HEADER));
        assert!(user_part.chars().count() <= USER_RENDERED_CHARS);
        let user_shown = entry_lines(user_part);
        assert!((1..=USER_RENDERED_ENTRIES).contains(&user_shown));
        // The workspace gets the rest, and the two fill nearly all of the budget.
        assert!(workspace_part.starts_with(WORKSPACE_HEADER));
        assert!(entry_lines(workspace_part) > user_shown);
        assert!(block.chars().count() > MAX_RENDERED_CHARS * 9 / 10);
    }

    #[test]
    fn a_small_user_memory_leaves_the_workspace_almost_all_of_the_budget() {
        let user = memory_of(
            &["Keep answers short and direct".into()],
            MemoryType::Feedback,
        );
        let workspace = memory_of(&numbered("Project rule", 60, 12), MemoryType::Feedback);
        let alone = render_block(&workspace, Some(0));
        let block = render_memory_block(Some(&user), Some(&workspace), Some(0));
        let workspace_part = block.split_once("\n\n").unwrap().1;
        assert!(entry_lines(workspace_part) >= entry_lines(&alone) - 1);
        assert!(block.chars().count() <= MAX_RENDERED_CHARS);
    }
}
