//! A scripted Anthropic Messages API server (`http.rs`: plain HTTP/1.1 on 127.0.0.1, one
//! request per connection). `POST /v1/messages` is answered as a stream of server-sent events
//! (`message_start`, `content_block_start`/`_delta`/`_stop`, `message_delta`, `message_stop`)
//! or, when the request does not ask for a stream, as one JSON message; `count_tokens` gets a
//! small count. What to answer is decided by the script the test passes in, from the request body
//! alone (never from timing or order of arrival). Every request is recorded for the assertions.

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::http::{self, write_event_stream_head, write_json, Request};

/// Input tokens reported for an ordinary answer: far below any context window.
pub const SMALL_USAGE: u64 = 1_200;

/// The Anthropic Messages API.
#[derive(Clone, Debug)]
pub struct Messages;

/// One request the server received, and a one-line description of its answer.
pub type Exchange = http::Exchange<Messages>;

impl Exchange {
    /// Whether this asks for a model answer (not a token count or anything else).
    pub fn is_message(&self) -> bool {
        self.method == "POST" && self.route() == "/v1/messages"
    }

    /// The system prompt: every text block of `system`, in order.
    pub fn system(&self) -> String {
        text_of(&self.body["system"])
    }

    /// Every message's role and text (tool results' contents included), in order.
    pub fn texts(&self) -> Vec<(String, String)> {
        messages(&self.body)
            .iter()
            .map(|m| {
                let role = m["role"].as_str().unwrap_or("").to_string();
                (role, text_of(&m["content"]))
            })
            .collect()
    }

    /// The texts of the user messages, in order.
    pub fn user_texts(&self) -> Vec<String> {
        self.texts()
            .into_iter()
            .filter(|(role, _)| role == "user")
            .map(|(_, text)| text)
            .collect()
    }

    pub fn has_user_text(&self, needle: &str) -> bool {
        self.user_texts().iter().any(|t| t.contains(needle))
    }

    /// The last text block of the last user message (which may hold tool results before it).
    pub fn last_user_block(&self) -> String {
        let last = messages(&self.body)
            .iter()
            .rev()
            .find(|m| m["role"] == "user");
        match last.map(|m| &m["content"]) {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(blocks)) => blocks
                .iter()
                .rev()
                .find_map(|b| (b["type"] == "text").then(|| b["text"].as_str()).flatten())
                .unwrap_or("")
                .to_string(),
            _ => String::new(),
        }
    }

    /// The `tool_result` blocks of the conversation, in order.
    pub fn tool_results(&self) -> Vec<&Value> {
        messages(&self.body)
            .iter()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .filter(|block| block["type"] == "tool_result")
            .collect()
    }
}

/// What the scripted model answers.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A text answer, with the input tokens to report in `usage`.
    Text { text: String, input_tokens: u64 },
    /// One tool call.
    Tool {
        id: String,
        name: String,
        input: Value,
        input_tokens: u64,
    },
}

impl Reply {
    pub fn text(text: &str) -> Reply {
        Reply::Text {
            text: text.to_string(),
            input_tokens: SMALL_USAGE,
        }
    }

    pub fn tool(id: &str, name: &str, input: Value) -> Reply {
        Reply::Tool {
            id: id.to_string(),
            name: name.to_string(),
            input,
            input_tokens: SMALL_USAGE,
        }
    }

    fn input_tokens(&self) -> u64 {
        match self {
            Reply::Text { input_tokens, .. } | Reply::Tool { input_tokens, .. } => *input_tokens,
        }
    }

    fn describe(&self) -> String {
        match self {
            Reply::Text { text, input_tokens } => {
                let first = text.lines().next().unwrap_or("");
                format!("text {first:?} (input_tokens {input_tokens})")
            }
            Reply::Tool {
                id,
                name,
                input,
                input_tokens,
            } => format!("tool_use {id} {name} {input} (input_tokens {input_tokens})"),
        }
    }

    /// The content blocks of the answer as a whole message.
    fn content(&self) -> Value {
        match self {
            Reply::Text { text, .. } => json!([{"type": "text", "text": text}]),
            Reply::Tool {
                id, name, input, ..
            } => json!([{"type": "tool_use", "id": id, "name": name, "input": input}]),
        }
    }

    fn stop_reason(&self) -> &'static str {
        match self {
            Reply::Text { .. } => "end_turn",
            Reply::Tool { .. } => "tool_use",
        }
    }
}

/// Whether `request` asks for Claude Code's compaction summary: its last user message ends with
/// the summariser's instructions (text only, an `<analysis>` block, then a `<summary>` block), after
/// the conversation to summarise. A session that goes on after a compaction carries the summary
/// in an earlier user message, never as the last one.
pub fn is_compaction(request: &Exchange) -> bool {
    let last = request.last_user_block();
    last.starts_with("CRITICAL: Respond with TEXT ONLY") && last.contains("<summary>")
}

/// Decides the answer to a message request.
pub type Script = dyn Fn(&Exchange) -> Reply + Send + Sync;

pub type Server = http::Recording<Exchange>;

impl Server {
    /// Starts the server on a port chosen by the OS.
    pub fn start(script: Arc<Script>) -> Server {
        Server::serve("", move |request, out, log| {
            answer(request, out, &*script, log)
        })
    }

    /// The message requests only.
    pub fn messages(&self) -> Vec<Exchange> {
        self.exchanges()
            .into_iter()
            .filter(Exchange::is_message)
            .collect()
    }
}

/// Answers one request and records it.
fn answer(
    request: Request,
    out: &mut TcpStream,
    script: &Script,
    log: &Mutex<Vec<Exchange>>,
) -> std::io::Result<()> {
    let mut exchange = Exchange::new(request);
    let route = exchange.route().to_string();
    if exchange.method == "POST" && route == "/v1/messages/count_tokens" {
        exchange.reply = "count_tokens".into();
        log.lock().unwrap().push(exchange);
        write_json(out, "200 OK", &json!({"input_tokens": SMALL_USAGE}))
    } else if exchange.is_message() {
        let reply = script(&exchange);
        exchange.reply = reply.describe();
        let model = exchange.body["model"].as_str().unwrap_or("").to_string();
        let stream = exchange.body["stream"] == true;
        log.lock().unwrap().push(exchange);
        if stream {
            write_stream(out, &model, &reply)
        } else {
            let message = json!({
                "id": "msg_ocmem_e2e", "type": "message", "role": "assistant", "model": model,
                "content": reply.content(), "stop_reason": reply.stop_reason(),
                "stop_sequence": null,
                "usage": {"input_tokens": reply.input_tokens(), "output_tokens": 40},
            });
            write_json(out, "200 OK", &message)
        }
    } else {
        exchange.reply = "404".into();
        let error = json!({"type": "error", "error": {"type": "not_found_error",
            "message": format!("no route for {} {}", exchange.method, exchange.path)}});
        log.lock().unwrap().push(exchange);
        write_json(out, "404 Not Found", &error)
    }
}

/// Streams `reply` as the Messages API does: `message_start` (with the input tokens), one
/// content block (text line by line, or a tool call's input JSON in two pieces),
/// `message_delta` with the stop reason, `message_stop`. The body ends when the connection
/// closes.
fn write_stream(out: &mut TcpStream, model: &str, reply: &Reply) -> std::io::Result<()> {
    write_event_stream_head(out)?;
    let mut events = vec![(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": "msg_ocmem_e2e", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": reply.input_tokens(), "output_tokens": 1}}}),
    )];
    let block_start = |block: Value| {
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": block}),
        )
    };
    let delta = |delta: Value| {
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        )
    };
    match reply {
        Reply::Text { text, .. } => {
            events.push(block_start(json!({"type": "text", "text": ""})));
            for piece in text.split_inclusive('\n') {
                events.push(delta(json!({"type": "text_delta", "text": piece})));
            }
        }
        Reply::Tool {
            id, name, input, ..
        } => {
            events.push(block_start(
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
            ));
            let input = input.to_string();
            let mut cut = input.len() / 2;
            while !input.is_char_boundary(cut) {
                cut += 1;
            }
            let (head, tail) = input.split_at(cut);
            for piece in [head, tail] {
                events.push(delta(
                    json!({"type": "input_json_delta", "partial_json": piece}),
                ));
            }
        }
    }
    events.push((
        "content_block_stop",
        json!({"type": "content_block_stop", "index": 0}),
    ));
    events.push((
        "message_delta",
        json!({"type": "message_delta",
               "delta": {"stop_reason": reply.stop_reason(), "stop_sequence": null},
               "usage": {"output_tokens": 40}}),
    ));
    events.push(("message_stop", json!({"type": "message_stop"})));
    for (name, data) in events {
        write!(out, "event: {name}\ndata: {data}\n\n")?;
        out.flush()?;
    }
    Ok(())
}

fn messages(body: &Value) -> &[Value] {
    body["messages"].as_array().map_or(&[], Vec::as_slice)
}

/// The text of a `content` or `system` value: a string, or the text of its blocks (a tool
/// result's own content included), joined by newlines.
pub fn text_of(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .map(|block| match block["type"].as_str() {
                Some("tool_result") => text_of(&block["content"]),
                _ => block["text"].as_str().unwrap_or("").to_string(),
            })
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
