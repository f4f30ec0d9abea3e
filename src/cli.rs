//! The command line, declared once here (later also the source of completions and man pages).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const ABOUT: &str = "Working memory for AI coding agents that survives context compaction";

const LONG_ABOUT: &str = "\
Working memory for AI coding agents that survives context compaction and carries across sessions.

An agent's plugin runs one ocmem subcommand per hook event with the event as JSON on stdin;
ocmem updates small JSON stores under the data directory and prints what the agent should see.

Environment:
  OCMEM_DATA_DIR   data directory (overridden by --data-dir)
  XDG_DATA_HOME    default data directory is $XDG_DATA_HOME/opencode-working-memory,
                   else ~/.local/share/opencode-working-memory
  OCMEM_NOW        the current time, RFC 3339 or Unix milliseconds (for tests and reports)

Exit status: 0 success, 1 bad input or I/O failure, 2 command-line usage error.";

#[derive(Debug, Parser)]
#[command(name = "ocmem", version, about = ABOUT, long_about = LONG_ABOUT)]
pub struct Cli {
    /// Data directory holding the stores [env: OCMEM_DATA_DIR]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    ToolAfter(ToolAfter),
    Render(Render),
    Compact(Compact),
    Promote(Promote),
    Replay(Replay),
}

const TOOL_AFTER_EXAMPLE: &str = r#"Stdin: {"directory": D, "input": {"tool", "sessionID", "callID", "args"}, "output": {"title", "output", "metadata"}}
(OpenCode's tool.execute.after input and output, plus the plugin's directory).

Example:
  echo '{"directory":"/home/dev/demo",
         "input":{"tool":"bash","sessionID":"ses_1","callID":"call_3",
                  "args":{"command":"npm run typecheck"}},
         "output":{"title":"npm run typecheck",
                   "output":"src/index.ts(10,3): error TS2345: Argument of type ...",
                   "metadata":{"exit":2}}}' | ocmem tool-after --json"#;

/// Record a finished tool call in the session's hot state
///
/// Reads, edits, writes, patches and greps make files active; bash commands that fail with a
/// known exit status open errors, and passing ones clear them. Prints nothing unless --json.
#[derive(Debug, Args)]
#[command(after_help = TOOL_AFTER_EXAMPLE)]
pub struct ToolAfter {
    /// Print one JSON line describing what changed
    #[arg(long)]
    pub json: bool,
}

const RENDER_EXAMPLE: &str = r#"Stdin: {"directory": D, "sessionID": S, "prompt"?: "latest user message", "messageID"?: M}

Example:
  echo '{"directory":"/home/dev/demo","sessionID":"ses_1"}' | ocmem render"#;

/// Print the memory block for the system prompt, and capture explicit memories
///
/// Prints the workspace memory block (frozen at the session's first render, so the model
/// provider's prompt cache keeps hitting) and the session's hot state, or nothing at all when
/// both are empty. When `prompt` asks to remember something ("remember this: …", "from now
/// on …", 记住…, 覚えて…, 기억해…), it is stored in workspace memory at once and listed under
/// pending_memories until the next promote.
#[derive(Debug, Args)]
#[command(after_help = RENDER_EXAMPLE)]
pub struct Render {
    /// Print {"workspace": …, "session": …} as one JSON line instead
    #[arg(long)]
    pub json: bool,
}

const COMPACT_EXAMPLE: &str = r#"Stdin: {"directory": D, "sessionID": S}

Example:
  echo '{"directory":"/home/dev/demo","sessionID":"ses_1"}' | ocmem compact"#;

/// Print what to add to the compaction prompt
///
/// An instruction to end the summary with a `Memory candidates:` block of durable facts,
/// followed by the current workspace memory and hot state as background not to be copied.
#[derive(Debug, Args)]
#[command(after_help = COMPACT_EXAMPLE)]
pub struct Compact {}

const PROMOTE_EXAMPLE: &str = r#"Stdin: {"directory": D, "sessionID": S, "summary"?: "compaction summary text"}

Example:
  echo '{"directory":"/home/dev/demo","sessionID":"ses_1",
         "summary":"...\nMemory candidates:\n- [decision] Use pnpm instead of npm Why: one lockfile for the monorepo\n"}' \
    | ocmem promote --json"#;

/// File the memory candidates of a finished compaction
///
/// Parses the candidates of the summary (`Memory candidates:`, `## Memory Candidates`,
/// `## Workspace Memory Candidates` or `<workspace_memory_candidates>`), rejects junk and
/// prompt injection, scrubs secrets, dedupes and merges them into workspace memory; then clears
/// the session's pending memories so its next render shows the new block.
#[derive(Debug, Args)]
#[command(after_help = PROMOTE_EXAMPLE)]
pub struct Promote {
    /// Print the accepted and rejected candidates, with the reason for each, as one JSON line
    #[arg(long)]
    pub json: bool,
}

const REPLAY_EXAMPLE: &str = "Example:
  ocmem replay examples/opencode-session.jsonl
  ocmem replay --data-dir /tmp/demo-memory session-hooks.jsonl";

/// Feed a recorded OpenCode hook log through ocmem and show what the agent would see
///
/// Reads a JSON-lines log of OpenCode plugin hooks ({"k": hook, "v": payload}), runs the
/// matching subcommands in order, and prints what render returns after each user turn and
/// at the end. Uses a temporary data directory, removed afterwards, unless --data-dir is given.
#[derive(Debug, Args)]
#[command(after_help = REPLAY_EXAMPLE)]
pub struct Replay {
    /// The hook log (JSON lines)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}
