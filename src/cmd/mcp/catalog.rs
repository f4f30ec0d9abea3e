//! The tools `ocmem mcp` offers: each one's name, title, description and input schema, in one
//! table, as a model reads them in `tools/list`. The descriptions say what a call changes and
//! what it answers, so that a model can choose the right tool and fill its arguments.

use serde_json::{json, Value};

/// Each tool: name, title, whether it only reads, description, input schema. A schema keeps
/// to plain properties (no `oneOf` or `anyOf` at its top, which some model APIs refuse): what
/// it cannot say, such as "id or match", the description says and the call checks.
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub read_only: bool,
    pub description: &'static str,
    pub schema: fn() -> Value,
}

pub const SEARCH: &str = "memory_search";
pub const LIST: &str = "memory_list";
pub const ADD: &str = "memory_add";
pub const FORGET: &str = "memory_forget";
pub const HOT_STATE: &str = "hot_state";

/// At most this many results of one search.
pub const MAX_LIMIT: u64 = 50;
/// Results of a search that names no limit.
pub const DEFAULT_LIMIT: u64 = 10;

const TYPES: [&str; 4] = ["feedback", "project", "decision", "reference"];
const SOURCES: [&str; 3] = ["explicit", "manual", "compaction"];

pub const TOOLS: [ToolSpec; 5] = [
    ToolSpec {
        name: SEARCH,
        title: "Search memory",
        read_only: true,
        description: "Search the long-term memory of this workspace and the user's memory (preferences that \
apply to every project) for entries about a topic, best match first. Use it before deciding \
something the project or the user may already have settled (tools, conventions, commands, \
preferences). Lexical search over each entry's text and rationale: give the words an entry \
would contain (any language; Chinese, Japanese and Korean need no spaces; a word of 3 or more \
letters also finds longer words it starts). Each result says its scope (\"workspace\" or \
\"user\"), id, type, source, text, whether the memory block shows it, and its score.",
        schema: search_schema,
    },
    ToolSpec {
        name: LIST,
        title: "List memory",
        read_only: true,
        description: "List the entries of this workspace's memory and the user's memory. By default, the \
entries the memory block at the start of a session shows (user entries first, then the \
workspace's, best first); with all=true, every entry, each with why it is not shown \
(\"capped\": beyond the block's top entries, \"over budget\": its line does not fit, \
\"shared\": the block shows the same entry from team or user memory, \"superseded\": \
forgotten or replaced, never shown). Filter by type, source or scope.",
        schema: list_schema,
    },
    ToolSpec {
        name: ADD,
        title: "Remember",
        read_only: false,
        description: "Remember one durable fact or rule for future sessions: a convention, a decision and why, \
a command that must be run, where something lives, or a preference the user stated. State \
the fact itself in one sentence (\"Use pnpm, not npm, for every package\"), not what happened \
in this session: progress, fixes made, errors seen, test counts, commit hashes, branch state \
and \"the user asked …\" are refused, as are instructions addressed to an AI. Secrets are \
scrubbed; an entry with the same text is not added twice. Stored with source \"manual\" in \
this workspace's memory, or with user=true in the user's memory, which every project shows \
(only for preferences the user wants everywhere). A new session shows it; the current block \
does not change. Nothing is stored while the user has turned memory off. When the user asks \
you to remember something and the hot state's pending_memories does not list it, save it \
with this tool, in the user's words; what is listed there is saved already.",
        schema: add_schema,
    },
    ToolSpec {
        name: FORGET,
        title: "Forget",
        read_only: false,
        description: "Forget one memory entry, in this workspace's memory or the user's: it is marked \
superseded (kept on disk, never deleted; `ocmem memory restore ID` brings it back) and leaves \
the block from the next session on. Give id (an entry's id, or its last 6 or more characters, \
from memory_search or memory_list), or match: words the entry's text holds, all of them. \
When several active entries match, nothing changes and they are listed: call again with the \
id of the one to forget. Use it when the user says a remembered fact is wrong or no longer \
wanted.",
        schema: forget_schema,
    },
    ToolSpec {
        name: HOT_STATE,
        title: "Session hot state",
        read_only: true,
        description: "The working state ocmem records for a session of this workspace: the files it has \
been reading and editing most (active files, paths relative to the workspace root) and the \
errors of commands that failed and have not passed since (open errors), with the hot-state \
block as the session shows it. Without session_id, the session of this workspace updated \
last. Useful after context was compacted, to see what was in progress.",
        schema: hot_state_schema,
    },
];

fn search_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "description": "Words to look for, e.g. \"typecheck before commit\" or \"package manager\"",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "default": DEFAULT_LIMIT,
                "description": "At most this many results",
            },
        },
        "required": ["query"],
        "additionalProperties": false,
    })
}

fn list_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "type": {
                "type": "string",
                "enum": TYPES,
                "description": "Only entries of this type",
            },
            "source": {
                "type": "string",
                "enum": SOURCES,
                "description": "Only entries from this source: explicit (the user asked to remember it in a conversation), manual (added by hand or by memory_add), compaction (kept from a compaction summary)",
            },
            "scope": {
                "type": "string",
                "enum": ["workspace", "user", "both"],
                "default": "both",
                "description": "Whose entries: this workspace's, the user's, or both",
            },
            "all": {
                "type": "boolean",
                "default": false,
                "description": "Every entry, also those the block does not show, with the reason",
            },
        },
        "additionalProperties": false,
    })
}

fn add_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "text": {
                "type": "string",
                "minLength": 1,
                "maxLength": 2000,
                "description": "The fact or rule, one sentence (stored cut to 260 characters)",
            },
            "type": {
                "type": "string",
                "enum": TYPES,
                "description": "feedback: how the user wants the work done; project: a fact about the project; decision: a choice made and why; reference: where something is found. Read from the text when omitted",
            },
            "user": {
                "type": "boolean",
                "default": false,
                "description": "Store it in the user's memory, shown in every project, instead of this workspace's",
            },
        },
        "required": ["text"],
        "additionalProperties": false,
    })
}

fn forget_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {
                "type": "string",
                "minLength": 4,
                "description": "The entry's id, or its last characters (at least 4)",
            },
            "match": {
                "type": "string",
                "minLength": 1,
                "description": "Words the entry's text or rationale holds, every one of them",
            },
        },
        "additionalProperties": false,
    })
}

fn hot_state_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "session_id": {
                "type": "string",
                "minLength": 1,
                "description": "The host's session id; omit it for the workspace's latest session",
            },
        },
        "additionalProperties": false,
    })
}

/// The tool named `name`.
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}
