//! A scripted OpenAI Responses API server (`http.rs`: plain HTTP/1.1 on 127.0.0.1, one request
//! per connection), as Codex CLI talks to a `[model_providers.<id>]` with `wire_api =
//! "responses"`. `POST /v1/responses` is answered as a stream of server-sent events
//! (`response.created`, one `response.output_item.done`, `response.completed` with the usage);
//! `GET /v1/models` gets an empty list. What to answer is decided by the script the test passes
//! in, from the request body alone. Every request is recorded for the assertions.

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::http::{self, write_event_stream_head, write_json, Request};

/// Input tokens reported for an ordinary answer: far below any compaction limit.
pub const SMALL_USAGE: u64 = 1_200;

/// What Codex asks the model when it compacts a session: its own summary prompt says this, and
/// the one `ocmem init codex --compact-prompt` sets asks for this block.
const COMPACTION_PROMPTS: [&str; 2] = ["CONTEXT CHECKPOINT COMPACTION", "Memory candidates:"];

/// The OpenAI Responses API.
#[derive(Clone, Debug)]
pub struct Responses;

/// One request the server received, and a one-line description of its answer.
pub type Exchange = http::Exchange<Responses>;

impl Exchange {
    /// Whether this asks for a model answer.
    pub fn is_response(&self) -> bool {
        self.method == "POST" && self.route() == "/v1/responses"
    }

    fn input(&self) -> &[Value] {
        self.body["input"].as_array().map_or(&[], Vec::as_slice)
    }

    /// Every message's role and text, in order (`instructions` first, as `system`).
    pub fn texts(&self) -> Vec<(String, String)> {
        let mut texts = Vec::new();
        if let Some(instructions) = self.body["instructions"].as_str() {
            texts.push(("system".to_string(), instructions.to_string()));
        }
        for item in self.input().iter().filter(|i| i["type"] == "message") {
            let role = item["role"].as_str().unwrap_or("").to_string();
            let text: Vec<&str> = item["content"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|part| part["text"].as_str())
                .collect();
            texts.push((role, text.join("\n")));
        }
        texts
    }

    pub fn has_user_text(&self, needle: &str) -> bool {
        self.texts()
            .iter()
            .any(|(role, text)| role == "user" && text.contains(needle))
    }

    /// How many tool results (of commands and of patches) the conversation holds.
    pub fn tool_results(&self) -> usize {
        self.input()
            .iter()
            .filter(|i| {
                i["type"] == "function_call_output" || i["type"] == "custom_tool_call_output"
            })
            .count()
    }

    /// The text of the last user message.
    pub fn last_user_text(&self) -> String {
        self.texts()
            .into_iter()
            .rev()
            .find(|(role, _)| role == "user")
            .map(|(_, text)| text)
            .unwrap_or_default()
    }

    /// Whether this is Codex's request for a compaction summary: its last user message is a
    /// summary prompt.
    pub fn is_compaction(&self) -> bool {
        let last = self.last_user_text();
        COMPACTION_PROMPTS
            .iter()
            .any(|prompt| last.contains(prompt))
    }
}

/// What the scripted model answers, with the input tokens its usage reports.
#[derive(Clone, Debug)]
pub enum Reply {
    Text {
        text: String,
        input_tokens: u64,
    },
    /// A shell command through Codex's `exec_command` tool.
    Command {
        id: String,
        command: String,
    },
    /// A patch through Codex's freeform `apply_patch` tool.
    Patch {
        id: String,
        patch: String,
    },
}

impl Reply {
    pub fn text(text: &str) -> Reply {
        Reply::Text {
            text: text.into(),
            input_tokens: SMALL_USAGE,
        }
    }

    fn describe(&self) -> String {
        match self {
            Reply::Text { text, input_tokens } => {
                format!("text ({input_tokens} tokens): {text:.60}")
            }
            Reply::Command { id, command } => format!("exec_command {id}: {command}"),
            Reply::Patch { id, .. } => format!("apply_patch {id}"),
        }
    }

    fn item(&self) -> Value {
        match self {
            Reply::Text { text, .. } => json!({"type": "message", "role": "assistant",
                "id": "msg_ocmem_e2e", "content": [{"type": "output_text", "text": text}]}),
            Reply::Command { id, command } => json!({"type": "function_call",
                "name": "exec_command", "call_id": id,
                "arguments": json!({"cmd": command}).to_string()}),
            Reply::Patch { id, patch } => json!({"type": "custom_tool_call",
                "name": "apply_patch", "call_id": id, "input": patch}),
        }
    }

    fn input_tokens(&self) -> u64 {
        match self {
            Reply::Text { input_tokens, .. } => *input_tokens,
            _ => SMALL_USAGE,
        }
    }
}

pub type Script = dyn Fn(&Exchange) -> Reply + Send + Sync;

pub type Server = http::Recording<Exchange>;

impl Server {
    /// Starts the server on a port chosen by the OS.
    pub fn start(script: Arc<Script>) -> Server {
        Server::serve("/v1", move |request, out, log| {
            answer(request, out, &*script, log)
        })
    }

    /// The model requests only.
    pub fn responses(&self) -> Vec<Exchange> {
        self.exchanges()
            .into_iter()
            .filter(Exchange::is_response)
            .collect()
    }
}

fn answer(
    request: Request,
    out: &mut TcpStream,
    script: &Script,
    log: &Mutex<Vec<Exchange>>,
) -> std::io::Result<()> {
    let mut exchange = Exchange::new(request);
    let route = exchange.route().to_string();
    if exchange.is_response() {
        let reply = script(&exchange);
        exchange.reply = reply.describe();
        log.lock().unwrap().push(exchange);
        write_stream(out, &reply)
    } else if exchange.method == "GET" && route == "/v1/models" {
        exchange.reply = "models".into();
        log.lock().unwrap().push(exchange);
        write_json(out, "200 OK", &json!({"models": []}))
    } else {
        exchange.reply = "404".into();
        log.lock().unwrap().push(exchange);
        write_json(
            out,
            "404 Not Found",
            &json!({"error": {"message": "not scripted"}}),
        )
    }
}

fn write_stream(out: &mut TcpStream, reply: &Reply) -> std::io::Result<()> {
    write_event_stream_head(out)?;
    let input_tokens = reply.input_tokens();
    let events = [
        json!({"type": "response.created", "response": {"id": "resp_ocmem_e2e"}}),
        json!({"type": "response.output_item.done", "item": reply.item()}),
        json!({"type": "response.completed", "response": {"id": "resp_ocmem_e2e", "usage": {
            "input_tokens": input_tokens, "input_tokens_details": null,
            "output_tokens": 40, "output_tokens_details": null,
            "total_tokens": input_tokens + 40}}}),
    ];
    for event in events {
        write!(
            out,
            "event: {}\ndata: {event}\n\n",
            event["type"].as_str().unwrap()
        )?;
    }
    out.flush()
}
