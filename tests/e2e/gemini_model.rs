//! A scripted Gemini API server (`http.rs`: plain HTTP/1.1 on 127.0.0.1, one request per
//! connection) for Gemini CLI, reached through `GOOGLE_GEMINI_BASE_URL`. It answers
//! `…:streamGenerateContent?alt=sse` with one server-sent event holding the whole step (a text,
//! or a function call with an id), decided from the request body alone: which user prompt the
//! turn started with and how many function calls the model made since. Every request is
//! recorded for the assertions; any other request is answered 404 and recorded as unserved.

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;

use serde_json::{json, Value};

use super::http::{self, write_event_stream_head, write_json, Request};
use super::workdir::Recorded;

/// What the model does at one step of a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Text(String),
    Call {
        id: String,
        name: String,
        args: Value,
        /// The prompt tokens reported with it: a large count makes Gemini CLI compress the
        /// history before its next request.
        prompt_tokens: u64,
    },
    /// The answer to a compression's (non-streamed) requests: its summary.
    Summary(String),
    /// A request the script has no answer for.
    Unserved,
}

/// One request and what it was answered.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub method: String,
    pub path: String,
    pub body: Value,
    pub reply: Reply,
}

impl Exchange {
    /// Every text part of the request's user contents, in order.
    pub fn user_texts(&self) -> Vec<String> {
        contents(&self.body)
            .iter()
            .filter(|c| c["role"] == "user")
            .flat_map(|c| c["parts"].as_array().cloned().unwrap_or_default())
            .filter_map(|p| p["text"].as_str().map(str::to_string))
            .collect()
    }
}

impl Recorded for Exchange {
    fn dump(&self) -> Value {
        json!({"method": self.method, "path": self.path, "body": self.body,
               "reply": format!("{:?}", self.reply)})
    }
    fn summary(&self) -> String {
        format!("{} {} -> {:?}", self.method, self.path, self.reply)
    }

    fn request_line(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    fn unserved(&self) -> bool {
        self.reply == Reply::Unserved
    }
}

fn contents(body: &Value) -> Vec<Value> {
    body["contents"].as_array().cloned().unwrap_or_default()
}

/// The turn a request belongs to: the text of the last user content that holds one of
/// `prompts`, and the number of function calls the model made after it.
pub fn turn<'a>(body: &Value, prompts: &[&'a str]) -> Option<(&'a str, usize)> {
    let contents = contents(body);
    let (start, prompt) = contents.iter().enumerate().rev().find_map(|(i, c)| {
        if c["role"] != "user" {
            return None;
        }
        let parts = c["parts"].as_array()?;
        let texts: Vec<&str> = parts.iter().filter_map(|p| p["text"].as_str()).collect();
        prompts
            .iter()
            .find(|prompt| texts.iter().any(|t| t.contains(**prompt)))
            .map(|prompt| (i, *prompt))
    })?;
    let calls = contents[start..]
        .iter()
        .filter(|c| c["role"] == "model")
        .flat_map(|c| c["parts"].as_array().cloned().unwrap_or_default())
        .filter(|p| !p["functionCall"].is_null())
        .count();
    Some((prompt, calls))
}

pub type Script = dyn Fn(&Value) -> Reply + Send + Sync;

/// Prompt tokens reported with an ordinary step.
const SMALL_USAGE: u64 = 1_200;

/// What a compression's summary holds: Gemini CLI asks for a `<state_snapshot>`.
pub const SNAPSHOT: &str =
    "<state_snapshot>\n<overall_goal>Fix the typecheck of the demo.</overall_goal>\n</state_snapshot>";

pub type Server = http::Recording<Exchange>;

impl Server {
    pub fn start(script: Arc<Script>) -> Server {
        Server::serve(
            "",
            move |request: Request, out: &mut TcpStream, recorded| {
                let reply = if request.path.contains(":streamGenerateContent") {
                    script(&request.body)
                } else if request.path.contains(":generateContent") {
                    Reply::Summary(SNAPSHOT.to_string())
                } else {
                    Reply::Unserved
                };
                recorded.lock().unwrap().push(Exchange {
                    method: request.method.clone(),
                    path: request.path.clone(),
                    body: request.body.clone(),
                    reply: reply.clone(),
                });
                let parts = match &reply {
                    Reply::Unserved => {
                        return write_json(
                            out,
                            "404 Not Found",
                            &json!({"error": {"code": 404,
                        "message": "not scripted", "status": "NOT_FOUND"}}),
                        );
                    }
                    Reply::Summary(text) => {
                        return write_json(
                            out,
                            "200 OK",
                            &json!({
                                "candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                                "finishReason": "STOP", "index": 0}],
                                "usageMetadata": {"promptTokenCount": SMALL_USAGE,
                                                  "candidatesTokenCount": 20,
                                                  "totalTokenCount": SMALL_USAGE + 20}
                            }),
                        );
                    }
                    Reply::Text(text) => (json!([{"text": text}]), SMALL_USAGE),
                    Reply::Call {
                        id,
                        name,
                        args,
                        prompt_tokens,
                    } => (
                        json!([{"functionCall": {"id": id, "name": name, "args": args}}]),
                        *prompt_tokens,
                    ),
                };
                let (parts, prompt_tokens) = parts;
                let chunk = json!({
                    "candidates": [{"content": {"role": "model", "parts": parts},
                                    "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"promptTokenCount": prompt_tokens, "candidatesTokenCount": 20,
                                      "totalTokenCount": prompt_tokens + 20},
                    "modelVersion": "gemini-2.5-pro"
                });
                write_event_stream_head(out)?;
                write!(out, "data: {chunk}\r\n\r\n")?;
                out.flush()
            },
        )
    }
}
