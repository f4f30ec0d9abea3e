//! A scripted OpenAI-compatible chat-completions server (`http.rs`: plain HTTP/1.1 on
//! 127.0.0.1, one request per connection), streaming answers as server-sent events. Every reply
//! is decided from the request body alone (which kind of request it is, which user message it
//! carries, how many tool results it holds), never from timing or from the order of arrival, so
//! OpenCode may send requests concurrently (the title is generated alongside the first step)
//! without changing the script. Every request is recorded for the assertions.

use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Value};

use super::http::{self, write_event_stream_head, write_json, Request};
use super::scenario::{CANDIDATES_HEADER, FIRST_PROMPT, REMEMBERED, SECOND_PROMPT};
use super::workdir::Recorded;

/// The model id the server reports and OpenCode is configured with.
pub const MODEL_ID: &str = "mock-model";

/// Prompt tokens reported for an ordinary step: far below the configured context.
const SMALL_USAGE: u64 = 1_200;
/// Prompt tokens reported for the first session's final answer: above the configured
/// context (`limit.context` in opencode.json), so OpenCode compacts the session right after.
const OVERFLOW_USAGE: u64 = 60_000;

/// A user message that makes the model use the plugin's memory tools (`tools_session_calls`).
pub const TOOLS_PROMPT: &str = "how are releases made here? look it up in memory";
/// What the model asks `memory_add` to remember after `TOOLS_PROMPT`.
pub const MANUAL_MEMORY: &str = "Release builds are tagged from the main branch only";
/// The `memory_search` query that finds it, and none of the first session's memories.
pub const MANUAL_QUERY: &str = "release tagged";

/// The compaction candidates the scripted summary proposes (`CANDIDATES_HEADER` starts its
/// block, and marks in a later request's history that the session was compacted): two that
/// belong in workspace memory, a commit subject and a raw error that do not.
pub const GOOD_CANDIDATES: [&str; 2] = [
    "Use npm scripts for typecheck because the CI calls them directly",
    "This repo is a TypeScript demo with strict typecheck via check.js",
];
pub const BAD_CANDIDATES: [&str; 2] = [
    "fix: add new feature",
    "TypeError: Cannot read property 'x' of undefined",
];

/// A command printing 1 201 lines (about 42 KB, within OpenCode's own limits of 2 000 lines and
/// 50 KB, so that what the model gets is ocmem's doing), `LONG_OUTPUT_ERROR` in the middle.
pub const LONG_OUTPUT_COMMAND: &str = "for i in $(seq 1 1200); do echo \"seeded row $i of the fixture table\"; if [ $i -eq 600 ]; then echo 'ERROR: row 600 rejected: duplicate key value violates unique constraint'; fi; done";
pub const LONG_OUTPUT_ERROR: &str =
    "ERROR: row 600 rejected: duplicate key value violates unique constraint";
/// A line of the long output that pruning leaves out.
pub const LONG_OUTPUT_OMITTED: &str = "seeded row 300 of the fixture table";

/// What a chat request asks for, judged from its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// OpenCode's title generator: no tools, a system prompt about titles.
    Title,
    /// The compaction summariser: no tools, the conversation inlined in a user message.
    Summary,
    /// A step of the agent loop: the tools are offered.
    Agent,
    /// Anything else: answered with a short text.
    Other,
}

/// One request the server received, and a one-line description of its answer.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub method: String,
    pub path: String,
    /// The JSON body (`Null` when there was none or it did not parse).
    pub body: Value,
    /// For chat requests, what the request was judged to be.
    pub kind: Option<Kind>,
    pub reply: String,
}

impl Exchange {
    /// The system prompt: every system message's text, in order.
    pub fn system(&self) -> String {
        texts_of_role(&self.body, "system").join("\n")
    }

    /// The texts of the user messages, in order.
    pub fn user_texts(&self) -> Vec<String> {
        texts_of_role(&self.body, "user")
    }

    /// How many tool results the conversation holds.
    pub fn tool_results(&self) -> usize {
        messages(&self.body)
            .iter()
            .filter(|m| m["role"] == "tool")
            .count()
    }

    /// The texts of the tool results, in order.
    pub fn tool_texts(&self) -> Vec<String> {
        texts_of_role(&self.body, "tool")
    }

    pub fn has_user_text(&self, needle: &str) -> bool {
        self.user_texts().iter().any(|t| t.contains(needle))
    }

    /// Whether an earlier answer in the conversation is the scripted compaction summary.
    pub fn after_compaction(&self) -> bool {
        texts_of_role(&self.body, "assistant")
            .iter()
            .any(|t| t.contains(CANDIDATES_HEADER))
    }
}

impl Recorded for Exchange {
    fn dump(&self) -> Value {
        let kind = self.kind.map(|k| format!("{k:?}"));
        json!({"method": self.method, "path": self.path, "kind": kind,
               "reply": self.reply, "body": self.body})
    }

    fn summary(&self) -> String {
        let kind = self
            .kind
            .map_or_else(|| "-".to_string(), |k| format!("{k:?}"));
        format!(
            "{} {} [{kind}, {} tool results] -> {}",
            self.method,
            self.path,
            self.tool_results(),
            self.reply
        )
    }

    fn request_line(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    fn unserved(&self) -> bool {
        self.reply == "404"
    }
}

/// What the scripted model answers.
#[derive(Debug)]
enum Reply {
    /// A text answer, with the prompt tokens to report in `usage`.
    Text { text: String, prompt_tokens: u64 },
    /// One tool call.
    Tool {
        id: String,
        name: &'static str,
        arguments: Value,
    },
}

impl Reply {
    fn text(text: &str) -> Reply {
        Reply::Text {
            text: text.to_string(),
            prompt_tokens: SMALL_USAGE,
        }
    }

    fn describe(&self) -> String {
        match self {
            Reply::Text {
                text,
                prompt_tokens,
            } => {
                let first = text.lines().next().unwrap_or("");
                format!("text {first:?} (prompt_tokens {prompt_tokens})")
            }
            Reply::Tool {
                id,
                name,
                arguments,
            } => format!("tool call {id} {name} {arguments}"),
        }
    }
}

pub type Server = http::Recording<Exchange>;

impl Server {
    /// Starts the server on a port chosen by the OS. `demo` is the repository the first
    /// session works in (the file tools take absolute paths).
    pub fn start(demo: PathBuf) -> Server {
        Server::serve("/v1", move |request, out, log| {
            answer(request, out, &demo, log)
        })
    }
}

/// Answers one request and records it.
fn answer(
    request: Request,
    out: &mut TcpStream,
    demo: &Path,
    log: &Mutex<Vec<Exchange>>,
) -> std::io::Result<()> {
    let Request { method, path, body } = request;
    let mut exchange = Exchange {
        method: method.clone(),
        path: path.clone(),
        body,
        kind: None,
        reply: String::new(),
    };
    let path_only = path.split('?').next().unwrap_or("");
    if method == "POST" && path_only.ends_with("/chat/completions") {
        let (kind, reply) = decide(&exchange, demo);
        exchange.kind = Some(kind);
        exchange.reply = reply.describe();
        log.lock().unwrap().push(exchange);
        write_stream(out, &reply)
    } else if method == "GET" && path_only.ends_with("/models") {
        exchange.reply = "model list".into();
        log.lock().unwrap().push(exchange);
        let list = json!({
            "object": "list",
            "data": [{"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "ocmem-e2e"}]
        });
        write_json(out, "200 OK", &list)
    } else {
        exchange.reply = "404".into();
        log.lock().unwrap().push(exchange);
        let error = json!({"error": {"message": format!("no route for {method} {path}"),
                                     "type": "invalid_request_error"}});
        write_json(out, "404 Not Found", &error)
    }
}

/// Streams `reply` in the OpenAI chat-completions format: a `text/event-stream` of
/// `chat.completion.chunk` objects (the content or the tool call in pieces, then the finish
/// reason), a final chunk with `usage` and no choices, and `data: [DONE]`. The body ends when
/// the connection closes.
fn write_stream(out: &mut TcpStream, reply: &Reply) -> std::io::Result<()> {
    write_event_stream_head(out)?;
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-ocmem-e2e",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": MODEL_ID,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        })
    };
    let mut events = Vec::new();
    let prompt_tokens = match reply {
        Reply::Text {
            text,
            prompt_tokens,
        } => {
            events.push(chunk(
                json!({"role": "assistant", "content": ""}),
                Value::Null,
            ));
            // Line by line, as a model streams.
            for piece in text.split_inclusive('\n') {
                events.push(chunk(json!({"content": piece}), Value::Null));
            }
            events.push(chunk(json!({}), json!("stop")));
            *prompt_tokens
        }
        Reply::Tool {
            id,
            name,
            arguments,
        } => {
            // The call's id and name first, then its arguments in two pieces.
            let arguments = arguments.to_string();
            let (head, tail) = arguments.split_at(arguments.len() / 2);
            events.push(chunk(
                json!({"role": "assistant", "content": null, "tool_calls": [{
                    "index": 0, "id": id, "type": "function",
                    "function": {"name": name, "arguments": ""}}]}),
                Value::Null,
            ));
            for piece in [head, tail] {
                events.push(chunk(
                    json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
                    Value::Null,
                ));
            }
            events.push(chunk(json!({}), json!("tool_calls")));
            SMALL_USAGE
        }
    };
    events.push(json!({
        "id": "chatcmpl-ocmem-e2e",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": MODEL_ID,
        "choices": [],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 40,
                  "total_tokens": prompt_tokens + 40},
    }));
    for event in events {
        write!(out, "data: {event}\n\n")?;
        out.flush()?;
    }
    write!(out, "data: [DONE]\n\n")?;
    out.flush()
}

/// The script: what to answer to a chat request.
fn decide(request: &Exchange, demo: &Path) -> (Kind, Reply) {
    let kind = kind_of(request);
    let reply = match kind {
        Kind::Title => Reply::text("Fix the demo typecheck"),
        Kind::Summary => Reply::Text {
            text: summary(),
            prompt_tokens: SMALL_USAGE,
        },
        Kind::Agent => agent_step(request, demo),
        Kind::Other => Reply::text("Nothing is scripted for this request."),
    };
    (kind, reply)
}

fn kind_of(request: &Exchange) -> Kind {
    let system = request.system();
    let has_tools = request.body["tools"]
        .as_array()
        .is_some_and(|tools| !tools.is_empty());
    if system.contains("title generator") {
        Kind::Title
    } else if !has_tools && (system.contains("summariz") || request.has_user_text("<conversation>"))
    {
        Kind::Summary
    } else if has_tools {
        Kind::Agent
    } else {
        Kind::Other
    }
}

/// The first session's tool calls, in order.
fn first_session_calls(demo: &Path) -> Vec<(&'static str, Value)> {
    let file = |relative: &str| demo.join(relative).to_string_lossy().into_owned();
    vec![
        (
            "bash",
            json!({"command": "npm run typecheck", "description": "Run the typecheck"}),
        ),
        (
            "bash",
            json!({"command": "git log --oneline -5", "description": "Show recent commits"}),
        ),
        (
            "bash",
            json!({"command": "npm test", "description": "Run the tests"}),
        ),
        ("read", json!({"filePath": file("src/index.ts")})),
        (
            "edit",
            json!({"filePath": file("src/index.ts"),
                   "oldString": "add(\"1\", 2)", "newString": "add(1, 2)"}),
        ),
        (
            "write",
            json!({"filePath": file("src/util.ts"),
                   "content": "export function add(a: number, b: number): number {\n  return a + b;\n}\n"}),
        ),
        ("grep", json!({"pattern": "export", "path": file("src")})),
        ("glob", json!({"pattern": "**/*.ts"})),
        (
            "bash",
            json!({"command": "touch fixed && npm run typecheck",
                   "description": "Run the typecheck again"}),
        ),
        // A long output with one error line in its middle: ocmem cuts it down for the model.
        (
            "bash",
            json!({"command": LONG_OUTPUT_COMMAND, "description": "Seed the fixture table"}),
        ),
        // The plugin's own tool: what ocmem keeps of this session.
        ("hot_state", json!({})),
    ]
}

/// The tool calls after `TOOLS_PROMPT`, in order: the plugin's memory tools. The last one is
/// the agent as a second reader saving what the user asked it to remember in the first
/// session, which ocmem had already captured: it must not be stored twice.
pub fn tools_session_calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "memory_add",
            json!({"text": MANUAL_MEMORY, "type": "decision"}),
        ),
        ("memory_search", json!({"query": MANUAL_QUERY})),
        ("memory_search", json!({"query": "typecheck", "limit": 2})),
        ("memory_add", json!({"text": REMEMBERED})),
    ]
}

/// The number of tool calls the first session makes.
pub fn first_session_call_count() -> usize {
    first_session_calls(Path::new("/")).len()
}

fn agent_step(request: &Exchange, demo: &Path) -> Reply {
    if request.after_compaction() {
        // The step OpenCode runs after compacting ("continue"): finish quietly.
        Reply::text("All done.")
    } else if request.has_user_text(FIRST_PROMPT) {
        // One tool call per step, chosen by how many results the conversation holds; then
        // the final answer, reporting a usage above the context limit.
        let calls = first_session_calls(demo);
        let done = request.tool_results();
        match calls.into_iter().nth(done) {
            Some((name, arguments)) => Reply::Tool {
                id: format!("call_{}", done + 1),
                name,
                arguments,
            },
            None => Reply::Text {
                text: "The typecheck passes now; `npm test` still fails.".into(),
                prompt_tokens: OVERFLOW_USAGE,
            },
        }
    } else if request.has_user_text(SECOND_PROMPT) {
        Reply::text("Run `npm run typecheck` before you commit.")
    } else if request.has_user_text(TOOLS_PROMPT) {
        let done = request.tool_results();
        match tools_session_calls().into_iter().nth(done) {
            Some((name, arguments)) => Reply::Tool {
                id: format!("call_memory_{}", done + 1),
                name,
                arguments,
            },
            None => Reply::text("Releases are tagged from main; noted."),
        }
    } else {
        Reply::text("Nothing is scripted for this request.")
    }
}

/// The compaction summary: ends with a candidate block holding two good candidates, a
/// commit subject and a raw error.
fn summary() -> String {
    let mut text = String::from(
        "## Objective\n\
         - Fix the typecheck of the demo repository.\n\
         \n\
         ## Progress\n\
         - Fixed the argument type in src/index.ts; `npm run typecheck` passes.\n\
         - `npm test` still fails.\n\
         \n",
    );
    text.push_str(CANDIDATES_HEADER);
    text.push('\n');
    let lines = [
        ("decision", GOOD_CANDIDATES[0]),
        ("project", GOOD_CANDIDATES[1]),
        ("project", BAD_CANDIDATES[0]),
        ("feedback", BAD_CANDIDATES[1]),
    ];
    for (kind, candidate) in lines {
        text.push_str(&format!("- [{kind}] {candidate}\n"));
    }
    text
}

fn messages(body: &Value) -> &[Value] {
    body["messages"].as_array().map_or(&[], Vec::as_slice)
}

/// The text of a message's `content`: a string, or the text parts of an array.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn texts_of_role(body: &Value, role: &str) -> Vec<String> {
    messages(body)
        .iter()
        .filter(|m| m["role"] == role)
        .map(|m| text_of(&m["content"]))
        .collect()
}
