//! The command line, declared once here (later also the source of completions and man pages).

pub mod hook_argv;

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::domain::base::host_name::HostName;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::workspace::Source;

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
  OCMEM_TTL_DAYS   days a session may stay idle before `gc --sweep` removes it (1-365, default 30)
  OCMEM_DISABLE    1 turns every hook off: they do nothing and print nothing

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
    Gc(Gc),
    Baseline(Baseline),
    Replay(Replay),
    Hook(Hook),
    Init(Init),
    Doctor(Doctor),
    Memory(Memory),
    /// Remember TEXT in this workspace's memory (short for `ocmem memory add`)
    #[command(after_help = REMEMBER_EXAMPLE)]
    Remember(MemoryAdd),
    /// Forget an entry of this workspace's memory (short for `ocmem memory forget`)
    #[command(after_help = FORGET_EXAMPLE)]
    Forget(MemoryForget),
    Mcp(Mcp),
    Sessions(Sessions),
    Handoff(Handoff),
    Idle(Idle),
    Explain(Explain),
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
/// known exit status open errors, and passing ones clear them. Prints nothing unless --json or
/// --prune.
#[derive(Debug, Args)]
#[command(after_help = TOOL_AFTER_EXAMPLE)]
pub struct ToolAfter {
    /// Print one JSON line describing what changed
    #[arg(long)]
    pub json: bool,
    /// Also print the output cut down for the model when it is long (bash, grep, glob and
    /// list only), its whole text saved under the data directory; nothing when it stays as
    /// it is. OCMEM_PRUNE=0 turns it off
    #[arg(long, conflicts_with = "json")]
    pub prune: bool,
}

const RENDER_EXAMPLE: &str = r#"Stdin: {"directory": D, "sessionID": S, "prompt"?: "latest user message", "messageID"?: M,
        "context"?: {"tokens": {"total"?, "input", "output", "cache": {"read", "write"}},
                     "limit": {"context", "input"?}}}

Example:
  echo '{"directory":"/home/dev/demo","sessionID":"ses_1"}' | ocmem render"#;

/// Print the memory block for the system prompt, and capture explicit memories
///
/// Prints the workspace memory block (frozen at the session's first render, so the model
/// provider's prompt cache keeps hitting) and the session's hot state, or nothing at all when
/// both are empty. When `prompt` asks to remember something ("remember this: …", "from now
/// on …", 记住…, 覚えて…, 기억해…, recuerda que…, merk dir…, n'oublie pas…, lembre-se…), it
/// is stored in workspace memory at once and listed under pending_memories until the next
/// promote. When `context` (OpenCode's token counts and model limits) puts the context window
/// at 75 % or 90 % full, the hot state carries one warning line; it only rises until the next
/// promote.
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

const GC_EXAMPLE: &str = r#"Stdin (session deleted): {"directory": D, "sessionID": S}

Examples:
  echo '{"directory":"/home/dev/demo","sessionID":"ses_1"}' | ocmem gc
  ocmem gc --sweep --dry-run
  ocmem gc --sweep --older-than 14 --workspace ~/src/demo
  ocmem gc --false-positives --dry-run --json
  ocmem gc --restore-archived mem_1767225600000_k3x9qa"#;

/// Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors
///
/// With a session event on stdin (OpenCode's session.deleted), removes that session's file;
/// its explicit memories are already in workspace memory. --sweep removes idle sessions (of
/// every host), old temp files, surplus quarantined copies, stale locks, workspaces left with
/// nothing but markers of host calls older than the TTL, and empty workspace directories, and
/// moves memory entries superseded more than 30 days ago to the workspace's archive.
/// --restore-archived brings an archived entry back.
/// --false-positives removes stored open errors and verified commands that today's rules
/// would not record, after backing up each file it changes under <data dir>/backups/.
/// Workspace memory entries are never deleted.
#[derive(Debug, Args)]
#[command(after_help = GC_EXAMPLE)]
#[command(group(clap::ArgGroup::new("mode").args(["sweep", "false_positives", "restore_archived"])))]
pub struct Gc {
    /// Remove idle sessions, old temp files, surplus quarantined copies, stale locks, idle host
    /// markers, old saved tool outputs and empty workspace directories
    #[arg(long)]
    pub sweep: bool,

    /// Remove stored open errors and verified commands that today's rules would not record
    /// (backed up first)
    #[arg(long)]
    pub false_positives: bool,

    /// With --sweep: remove sessions idle longer than DAYS (1-365) [env: OCMEM_TTL_DAYS] [default: 30]
    #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u16).range(1..=365), requires = "sweep")]
    pub older_than: Option<u16>,

    /// Only the workspace that DIR belongs to
    #[arg(long, value_name = "DIR", requires = "mode")]
    pub workspace: Option<PathBuf>,

    /// Show what would be removed, and change nothing
    #[arg(long, requires = "mode")]
    pub dry_run: bool,

    /// Bring the archived workspace memory entry ID back as active
    #[arg(long, value_name = "ID", conflicts_with = "dry_run")]
    pub restore_archived: Option<String>,

    /// Print the report as one JSON document
    #[arg(long)]
    pub json: bool,
}

const BASELINE_EXAMPLE: &str = "Examples:
  ocmem baseline
  ocmem baseline --workspace ~/src/demo --json
  ocmem baseline --check || echo 'memory needs attention'
  ocmem baseline --check --team            # the repository's .ocmem/memory.md, for CI";

/// Audit every store under the data directory, read-only
///
/// For each workspace: memory entries by type and source, rendered chars against the budget,
/// entries still holding a secret, stale entries, sessions, open errors and suspected false
/// positives, corrupt or quarantined files, orphan temp files and bytes on disk; then totals.
/// Reads stores written by the TypeScript plugin too, and never writes.
#[derive(Debug, Args)]
#[command(after_help = BASELINE_EXAMPLE)]
pub struct Baseline {
    /// Only the workspace that DIR belongs to
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    /// Print a JSON document with a stable schema (see the `schema` field) instead of a table
    #[arg(long)]
    pub json: bool,

    /// Exit 1 when a suspected false positive, stored secret, corrupt file or newer-version
    /// store exists, saying why
    #[arg(long)]
    pub check: bool,

    /// Audit the team memory file (.ocmem/memory.md) of the repository of --workspace DIR or
    /// of the current directory instead: conflict markers, malformed lines, duplicates, and
    /// entries holding a secret or an instruction, one `FILE:LINE: reason` line each
    #[arg(long)]
    pub team: bool,
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

const HOOK_EXAMPLE: &str = r#"Claude Code events and what ocmem does:
  SessionStart        prints the workspace memory and the hot state as additionalContext
  UserPromptSubmit    captures what the prompt asks to remember; prints the hot state when it
                      changed since it was last printed in this session
  PostToolUse,        records the call (Bash, Read, Edit, MultiEdit, Write, NotebookEdit, Grep);
  PostToolUseFailure  a failing Bash opens an error, a passing one clears it
  PreCompact          prints the compaction instructions as plain text
  PostCompact         files the memory candidates of compact_summary
  others              nothing

Example (`ocmem init claude-code` installs the hooks):
  echo '{"hook_event_name":"SessionStart","session_id":"5f0c…","cwd":"/home/dev/demo",
         "source":"startup"}' | ocmem hook claude-code"#;

/// Run as a host's hook: one entry point for every event of a host that runs command hooks
///
/// Reads the host's hook event on stdin and prints what the host should add to the model's
/// context, in the host's format. Never blocks the agent: on any failure it prints nothing on
/// stdout, says why on stderr and in the warnings log (see `ocmem doctor`), and exits 0.
#[derive(Debug, Args)]
#[command(after_help = HOOK_EXAMPLE)]
pub struct Hook {
    /// The host whose hook event is on stdin
    #[arg(value_enum)]
    pub host: HookHost,
}

/// The hosts `ocmem hook` serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookHost {
    ClaudeCode,
    Codex,
    Gemini,
}

const INIT_EXAMPLE: &str = "Examples:
  ocmem init opencode                    # this project: .opencode/plugins/ocmem.js
  ocmem init claude-code --user          # every project: ~/.claude/settings.json
  ocmem init claude-code --print         # show what would be written
  ocmem init opencode --uninstall
  ocmem init claude-code --mcp           # the memory tools: this project's .mcp.json
  ocmem init codex --mcp                 # print what to add to ~/.codex/config.toml
  ocmem init codex --user                # every project: ~/.codex/hooks.json, trusted";

/// Install ocmem into a host: OpenCode's plugin, or Claude Code's hooks
///
/// For OpenCode, writes the plugin (built into this binary) into the project's
/// .opencode/plugins/, or with --user into $XDG_CONFIG_HOME/opencode/plugins/ (else
/// ~/.config/opencode/plugins/). For Claude Code, adds ocmem's hooks to the project's
/// .claude/settings.local.json, or with --user to $CLAUDE_CONFIG_DIR/settings.json (else
/// ~/.claude/settings.json), keeping every other setting and hook. Either runs this very binary,
/// by its absolute path. Running it again changes nothing; an install that runs another ocmem
/// binary is updated in place. --uninstall takes out exactly what init put in, and puts back
/// the file as it was when nothing else changed since. A settings file that is not valid JSON
/// is refused, and left as it is.
///
/// For Codex, adds ocmem's hooks to the project's .codex/hooks.json, or with --user to
/// $CODEX_HOME/hooks.json (else ~/.codex/hooks.json), and trusts them in the user's
/// config.toml as Codex's own review does (`[hooks.state."<key>"]` with `trusted_hash`), with
/// the project's trust for a project install: Codex skips untrusted hooks silently.
/// For Gemini CLI, adds ocmem's hooks to the project's .gemini/settings.json, or with --user to
/// ~/.gemini/settings.json, the same way; their command exits 0 silently even when the binary
/// is gone (Gemini CLI would refuse the user's prompt otherwise).
///
/// With --mcp, registers the memory tools' server (`ocmem mcp`) instead of the hooks: for
/// Claude Code in the project's .mcp.json, or with --user in ~/.claude.json
/// ($CLAUDE_CONFIG_DIR/.claude.json), as `claude mcp add` writes them. For Codex and Gemini
/// CLI it prints what to add to their MCP servers and where. OpenCode's plugin
/// gives the agent the same tools itself.
#[derive(Debug, Args)]
#[command(after_help = INIT_EXAMPLE)]
pub struct Init {
    /// The host: opencode, claude-code or gemini; with --mcp also codex
    #[arg(
        value_name = "HOST",
        value_parser = PossibleValuesParser::new(["opencode", "claude-code", "codex", "gemini"])
            .map(|name| InitHost::from_name(&name).expect("a listed host"))
    )]
    pub host: InitHost,

    /// For the project of the current directory (its git worktree's top level), the default
    #[arg(long, conflicts_with = "user")]
    pub project: bool,

    /// For the user: every project
    #[arg(long)]
    pub user: bool,

    /// Show what would be written, and change nothing
    #[arg(long)]
    pub print: bool,

    /// Take ocmem out of the host again
    #[arg(long)]
    pub uninstall: bool,

    /// Register the MCP server of the agent's memory tools (`ocmem mcp`), not the hooks
    #[arg(long)]
    pub mcp: bool,

    /// Codex only: also replace its compaction prompt (`compact_prompt`) with ocmem's, which
    /// asks for memory candidates
    #[arg(long, conflicts_with = "mcp")]
    pub compact_prompt: bool,
}

/// The hosts `init` knows: every one whose files it manages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitHost {
    Managed(HostName),
}

impl InitHost {
    pub fn from_name(name: &str) -> Option<InitHost> {
        HostName::from_name(name).map(InitHost::Managed)
    }
}

const DOCTOR_EXAMPLE: &str = "Examples:
  ocmem doctor
  ocmem doctor --json | jq .problems";

/// Check that memory works, and say how to fix what does not
///
/// Reports this binary's version and path; the data directory and whether it is writable; for
/// each host, where ocmem is installed, at which level, which binary it runs and whether that
/// binary runs; the current directory's workspace, its repository's team file, when each host
/// last called ocmem for it, and the latest warnings. Exits 1 when something is broken
/// (nothing installed, a missing or broken binary, OpenCode's plugin at both levels, a
/// half-installed set of Claude Code hooks, a data directory that cannot be written, findings
/// in the team file), with one line per problem saying what to run.
#[derive(Debug, Args)]
#[command(after_help = DOCTOR_EXAMPLE)]
pub struct Doctor {
    /// Print a JSON document with a stable schema (see the `schema` field) instead of a report
    #[arg(long)]
    pub json: bool,
}

const MEMORY_EXAMPLE: &str = "Examples:
  ocmem memory list --all
  ocmem memory show k3x9qa
  ocmem memory share k3x9qa                # into the team's .ocmem/memory.md, to commit
  ocmem memory add 'Use pnpm for all packages' --type decision
  ocmem memory edit k3x9qa                 # opens $VISUAL or $EDITOR on its text
  ocmem memory forget --match 'pnpm'
  ocmem memory search 'typecheck' --limit 5 --json
  ocmem memory export --format markdown > memory.md
  ocmem memory off                         # hooks do nothing for this workspace";

/// See and steer what ocmem remembers for a workspace
///
/// Lists, shows, adds, edits, forgets, restores, searches, exports and imports the entries of
/// a workspace's memory, through the same locks, atomic writes, secret scrubbing and checks as
/// the hooks. Nothing is ever deleted: a forgotten or edited entry is kept as superseded, and
/// `restore` brings it back. A session already running keeps the block it started with; a
/// change shows from the next session on. Every subcommand takes --workspace DIR (default: the
/// workspace of the current directory, found as the hooks find it) and --json.
#[derive(Debug, Args)]
#[command(after_help = MEMORY_EXAMPLE)]
pub struct Memory {
    #[command(subcommand)]
    pub command: MemoryCommand,
}

#[derive(Debug, Subcommand)]
pub enum MemoryCommand {
    List(MemoryList),
    Show(MemoryShow),
    Add(MemoryAdd),
    Edit(MemoryEdit),
    Forget(MemoryForget),
    Restore(MemoryRestore),
    Search(MemorySearch),
    Export(MemoryExport),
    Import(MemoryImport),
    Where(MemoryWhere),
    Off(MemoryOff),
    On(MemoryOn),
    HotState(MemoryHotState),
    Share(MemoryShare),
    Unshare(MemoryUnshare),
}

/// The options every `memory` subcommand takes.
#[derive(Debug, Clone, Args)]
pub struct MemoryScope {
    /// The workspace that DIR belongs to [default: the current directory's]
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,

    /// Act on user memory, the preferences that follow you across projects, instead of the
    /// workspace's
    #[arg(long, conflicts_with = "workspace")]
    pub user: bool,
}

fn memory_type_parser() -> impl TypedValueParser<Value = MemoryType> {
    PossibleValuesParser::new(["feedback", "project", "decision", "reference"])
        .map(|name| MemoryType::parse(&name).expect("a listed type"))
}

fn source_parser() -> impl TypedValueParser<Value = Source> {
    PossibleValuesParser::new(["explicit", "manual", "compaction"]).map(|name| {
        match name.as_str() {
            "explicit" => Source::Explicit,
            "manual" => Source::Manual,
            _ => Source::Compaction,
        }
    })
}

/// List the entries: id, type, source, age, whether the block shows them, and their text
///
/// Without --all, the entries a new session's block shows, best first. --all adds the others
/// with the reason each is not shown: capped (beyond the block's top entries by rank), over
/// budget (its line does not fit the block's characters), superseded (forgotten, edited, or
/// replaced by a stronger entry with the same text). Text is cut to the terminal's width
/// (COLUMNS, else the terminal's); colour only on a terminal, never with NO_COLOR.
#[derive(Debug, Args)]
pub struct MemoryList {
    /// Every entry, with the reason those not shown are not
    #[arg(long)]
    pub all: bool,

    /// Only entries of this type
    #[arg(long = "type", value_name = "TYPE", value_parser = memory_type_parser())]
    pub kind: Option<MemoryType>,

    /// Only entries from this source
    #[arg(long, value_name = "SOURCE", value_parser = source_parser(), conflicts_with = "team")]
    pub source: Option<Source>,

    /// Team memory instead: the repository's .ocmem/memory.md, shared through git
    #[arg(long, conflicts_with = "user")]
    pub team: bool,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Show one entry whole, with its history: what it superseded, what superseded it, when, why
///
/// ID is an entry's id, or the end of exactly one id (its last 6 characters are enough).
/// Entries `gc --sweep` moved to the workspace's archive are shown too.
#[derive(Debug, Args)]
pub struct MemoryShow {
    /// The entry's id, or the end of it
    #[arg(value_name = "ID")]
    pub id: String,

    /// Team memory instead: the repository's .ocmem/memory.md, shared through git
    #[arg(long, conflicts_with = "user")]
    pub team: bool,

    #[command(flatten)]
    pub scope: MemoryScope,
}

const REMEMBER_EXAMPLE: &str = "Examples:
  ocmem remember 'Deploys go through the staging cluster first'
  ocmem remember 'Use pnpm for all packages' --type decision";

/// Add TEXT to memory, as source `manual`
///
/// The text is cleaned like every memory (invisible characters and <private> spans removed,
/// secrets scrubbed, one line, at most 260 characters) and refused when it is too short or
/// reads as an instruction to the agent. Unless --force, it then passes the gate every memory
/// passes, which refuses a raw error, a commit hash, a file list or a secret, saying why (with
/// --agent, session narration and a question too). Its type is TYPE, else the one its text
/// reads as. An entry with the same text is not added twice.
#[derive(Debug, Args)]
pub struct MemoryAdd {
    /// What to remember
    #[arg(value_name = "TEXT")]
    pub text: String,

    /// feedback, project, decision or reference [default: read from the text]
    #[arg(long = "type", value_name = "TYPE", value_parser = memory_type_parser())]
    pub kind: Option<MemoryType>,

    /// The agent wrote TEXT (the agent's memory tools pass this): it cannot be forced past
    /// the gate
    #[arg(long)]
    pub agent: bool,

    /// Keep TEXT even when the gate that every memory passes refuses it (a raw error, a
    /// commit hash, a file list, session narration)
    #[arg(long, conflicts_with = "agent")]
    pub force: bool,

    /// Team memory instead: the repository's .ocmem/memory.md, shared through git
    #[arg(long, conflicts_with = "user")]
    pub team: bool,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Replace an entry's text: TEXT, or what you write in $VISUAL or $EDITOR
///
/// The entry is superseded by a new one with the new text and the same type, source and
/// rationale; `show` tells the two apart, and `restore` of the old one undoes the edit.
#[derive(Debug, Args)]
pub struct MemoryEdit {
    /// The entry's id, or the end of it
    #[arg(value_name = "ID")]
    pub id: String,

    /// The new text [default: edit the current one in $VISUAL, else $EDITOR]
    #[arg(value_name = "TEXT")]
    pub text: Option<String>,

    #[command(flatten)]
    pub scope: MemoryScope,
}

const FORGET_EXAMPLE: &str = "Examples:
  ocmem forget k3x9qa
  ocmem forget --match 'staging cluster'
  ocmem forget --match pnpm --all";

/// Forget an entry: by ID, or the one whose text holds every word of --match
///
/// A forgotten entry is superseded, never deleted, and leaves the block from the next session
/// on; `ocmem memory restore ID` brings it back. When several entries match, they are listed
/// and nothing changes, unless --all.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("which").args(["id", "matching"]).required(true)))]
pub struct MemoryForget {
    /// The entry's id, or the end of it
    #[arg(value_name = "ID")]
    pub id: Option<String>,

    /// The active entry whose text (or rationale) holds every word of TEXT
    #[arg(long = "match", value_name = "TEXT", conflicts_with = "id")]
    pub matching: Option<String>,

    /// With --match: forget every entry that matches
    #[arg(long, requires = "matching")]
    pub all: bool,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Bring a forgotten, edited or replaced entry back as active
///
/// Whatever took its place (the entry that superseded it, an active entry with the same text)
/// is superseded in turn. An entry `gc --sweep` archived is brought back from the archive.
#[derive(Debug, Args)]
pub struct MemoryRestore {
    /// The entry's id, or the end of it
    #[arg(value_name = "ID")]
    pub id: String,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Search the active entries, best match first
///
/// Ranked lexical search over text and rationale: words in any script, Chinese, Japanese and
/// Korean by pairs of characters (no spaces needed), a word of 3 or more letters also finding
/// the longer words it starts.
#[derive(Debug, Args)]
pub struct MemorySearch {
    /// What to look for
    #[arg(value_name = "QUERY")]
    pub query: String,

    /// At most this many results
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Team memory instead: the repository's .ocmem/memory.md, shared through git
    #[arg(long, conflicts_with = "user")]
    pub team: bool,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// The formats of `memory export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// A document in the workspace memory format, which `import` reads
    Json,
    /// A section per type, a line per entry, which `import` reads too
    Markdown,
}

/// Print the active entries, to move them to another machine, folder or person
#[derive(Debug, Args)]
pub struct MemoryExport {
    /// json (the store's format) or markdown; --json is --format json
    #[arg(long, value_enum, default_value_t = ExportFormat::Json)]
    pub format: ExportFormat,

    /// Write the team memory into a marked section of AGENTS.md at the repository's root
    /// (created if absent; the rest of the file is kept byte for byte), for agents without ocmem
    #[arg(long, conflicts_with_all = ["claude_md", "format"])]
    pub agents_md: bool,

    /// The same, into CLAUDE.md
    #[arg(long, conflicts_with = "format")]
    pub claude_md: bool,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory
///
/// Each entry is checked and cleaned as `add` does, and merged with the usual dedupe: the same
/// text is not added twice, and a stronger source replaces a weaker one. FILE - reads stdin.
#[derive(Debug, Args)]
pub struct MemoryImport {
    /// A JSON or Markdown file as `export` writes it; - for stdin
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Print the workspace's root and key, and where its stores are
#[derive(Debug, Args)]
pub struct MemoryWhere {
    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Turn memory off for the workspace: every hook for it does nothing and prints nothing
///
/// A marker in the data directory (never a file in the repository); `ocmem memory on` removes
/// it. OCMEM_DISABLE=1 turns every workspace off.
#[derive(Debug, Args)]
pub struct MemoryOff {
    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Turn memory back on for the workspace
#[derive(Debug, Args)]
pub struct MemoryOn {
    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Print a session's hot state: its active files, open errors, recent decisions and pending
/// memories
///
/// Read only: what the hooks keep for SESSION (the host's session id) in the workspace, as the
/// block a render shows, or with --json every active file (best first) and every open error
/// (open before maybe fixed, newest first). A session with nothing kept prints that it has none.
#[derive(Debug, Args)]
pub struct MemoryHotState {
    /// The host's session id
    #[arg(value_name = "SESSION")]
    pub session: String,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Copy entries of your memory into team memory, the repository's .ocmem/memory.md
///
/// Each entry (an id, or the end of one) is checked more strictly than personal memory, since
/// the file is committed and every teammate's agent reads it: one that holds a secret, a
/// redacted secret or an instruction to the agent is refused, and then nothing is shared.
/// Your own entry stays as it is. Commit the file to share it: the change shows in `git diff`.
#[derive(Debug, Args)]
pub struct MemoryShare {
    /// The entries' ids, or the ends of them
    #[arg(value_name = "ID", required = true)]
    pub ids: Vec<String>,

    #[command(flatten)]
    pub scope: MemoryScope,
}

/// Take an entry out of team memory, keeping it in your own
///
/// ID is a team entry's id (8 hex digits, as `memory list --team` shows), or the start of
/// exactly one. When your memory does not hold the same text, it is added to it, so nothing
/// you asked to remember is lost.
#[derive(Debug, Args)]
pub struct MemoryUnshare {
    /// The team entry's id, or the start of it
    #[arg(value_name = "ID")]
    pub id: String,

    #[command(flatten)]
    pub scope: MemoryScope,
}

const MCP_EXAMPLE: &str = r#"Tools:
  memory_search   ranked search over the workspace's and the user's entries
  memory_list     the entries the memory block shows (all: every entry, with why not shown)
  memory_add      remember a durable fact or rule (source manual; checked like a compaction
                  candidate, since the agent wrote it)
  memory_forget   forget an entry by id, or the one entry whose text holds every word of match
  hot_state       the session's active files and open errors

Examples:
  ocmem init claude-code --mcp           # or: claude mcp add ocmem -- "$(command -v ocmem)" mcp
  ocmem mcp --workspace ~/src/demo"#;

/// Serve the agent's memory tools over the Model Context Protocol, on stdin and stdout
///
/// An MCP server for one workspace: the one DIR belongs to, else the current directory's (the
/// host starts it in the project). Its tools search, list, add to and forget from that
/// workspace's memory and the user's, and read a session's hot state, through the same locks,
/// checks and secret scrubbing as the hooks. When memory is off (OCMEM_DISABLE, `ocmem memory
/// off`) the tools still read but change nothing. Every problem is answered as a tool error;
/// nothing but protocol messages is written to stdout.
#[derive(Debug, Args)]
#[command(after_help = MCP_EXAMPLE)]
pub struct Mcp {
    /// The workspace that DIR belongs to [default: the current directory's]
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}

const SESSIONS_EXAMPLE: &str = "Examples:
  ocmem sessions
  ocmem sessions --workspace ~/src/demo --json | jq '.[0].title'";

/// List the digests of a workspace's past sessions, the latest first
///
/// A digest is kept for every session of every host: it is brought up to date at each user
/// request, when the session is compacted and when it ends, and swept by `gc --sweep` like
/// the sessions. Each line says when the session last did something, its host, a one-line
/// title (its first request) and its counts. Reads only.
#[derive(Debug, Args)]
#[command(after_help = SESSIONS_EXAMPLE)]
pub struct Sessions {
    /// The workspace that DIR belongs to [default: the current directory's]
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Print the digests as a JSON array instead of a listing
    #[arg(long)]
    pub json: bool,
}

const HANDOFF_EXAMPLE: &str = "Examples:
  ocmem handoff
  ocmem handoff --session ses_1 --write HANDOFF.md
  ocmem handoff --write HANDOFF.md --force     # over a file edited since ocmem wrote it";

/// Print a handoff note for the latest (or a given) session of a workspace
///
/// Markdown with `## Now`, `## Decisions`, `## Next` and `## Risks`, 3 to 5 bullets each, every
/// bullet ending with the digest field it comes from (see `ocmem sessions`). Printed; with
/// --write also written to PATH, but never over a file that changed since ocmem last wrote it
/// there, unless --force.
#[derive(Debug, Args)]
#[command(after_help = HANDOFF_EXAMPLE)]
pub struct Handoff {
    /// The session's id (as the host names it) [default: the latest]
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Also write the note to PATH
    #[arg(long, value_name = "PATH")]
    pub write: Option<PathBuf>,
    /// With --write: replace PATH even when it changed since ocmem last wrote it
    #[arg(long, requires = "write")]
    pub force: bool,
    /// The workspace that DIR belongs to [default: the current directory's]
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}

const IDLE_EXAMPLE: &str = r#"Stdin: {"directory": D, "sessionID": S}

Example:
  echo '{"directory":"/home/dev/demo","sessionID":"ses_1"}' | ocmem idle"#;

/// Bring a session's digest up to date when it goes idle
///
/// OpenCode's plugin runs it on `session.idle`: the session's hot state (files edited, errors
/// open and fixed, decisions and memories captured) goes into its digest (see `ocmem
/// sessions`). Prints nothing.
#[derive(Debug, Args)]
#[command(after_help = IDLE_EXAMPLE)]
pub struct Idle {}

const EXPLAIN_EXAMPLE: &str = r#"Examples:
  ocmem explain "pls remeber: we deploy on fridays only after the smoke tests"
  ocmem explain --candidate "- [project] Migrated the session store to the new lock helper"
  echo "what did we do last time?" | ocmem explain --json"#;

/// Show what ocmem makes of a text, and why
///
/// A user message: which memories it asks to keep (each sentence's best proposal, its
/// probability and the features that weighed most), whether it asks to recall an earlier
/// session, to forget a memory, or instructs the agent. With --candidate, a `Memory
/// candidates:` line: whether the compaction gate keeps it, the rules that matched and the
/// model's weighing. Reads standard input when TEXT is absent. Changes nothing.
#[derive(Debug, Args)]
#[command(after_help = EXPLAIN_EXAMPLE)]
pub struct Explain {
    /// The text (words are joined by spaces); standard input when absent
    #[arg(allow_hyphen_values = true)]
    pub text: Vec<String>,
    /// Read the text as a memory candidate line (`- [type] text`)
    #[arg(long)]
    pub candidate: bool,
    /// Print the report as one JSON object
    #[arg(long)]
    pub json: bool,
}
