//! The HTTP/1.1 plumbing of the scripted model servers: a listener on 127.0.0.1 (port chosen by
//! the OS) that reads one request per connection, each connection in a thread of its own, and
//! the writing of a JSON answer or of the head of a server-sent event stream.

use std::io::{BufRead, BufReader, Write};
use std::marker::PhantomData;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

use super::workdir::Recorded;

/// One request as read from a connection.
pub struct Request {
    pub method: String,
    pub path: String,
    /// The JSON body (`Null` when there was none or it did not parse).
    pub body: Value,
}

/// Answers one request on its connection, which closes afterwards.
pub type Answer = dyn Fn(Request, &mut TcpStream) -> std::io::Result<()> + Send + Sync;

/// Starts listening and returns the port. The accepting thread lives as long as the test
/// process; every connection gets a thread of its own, because clients send some requests
/// concurrently.
pub fn serve(answer: Arc<Answer>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let answer = Arc::clone(&answer);
            thread::spawn(move || {
                // A client that goes away mid-answer is not the server's failure.
                let _ = handle(stream, &*answer);
            });
        }
    });
    port
}

/// A request a scripted server of the API `P` received, and a one-line description of its
/// answer, or "404" when it had none.
#[derive(Clone, Debug)]
pub struct Exchange<P> {
    pub method: String,
    pub path: String,
    /// The JSON body (`Null` when there was none or it did not parse).
    pub body: Value,
    pub reply: String,
    api: PhantomData<P>,
}

impl<P> Exchange<P> {
    /// `request`, not answered yet.
    pub fn new(request: Request) -> Exchange<P> {
        let Request { method, path, body } = request;
        Exchange {
            method,
            path,
            body,
            reply: String::new(),
            api: PhantomData,
        }
    }

    /// The path without its query.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }
}

impl<P: Clone> Recorded for Exchange<P> {
    fn dump(&self) -> Value {
        json!({"method": self.method, "path": self.path, "reply": self.reply, "body": self.body})
    }

    fn summary(&self) -> String {
        format!("{} {} -> {}", self.method, self.path, self.reply)
    }

    fn request_line(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    fn unserved(&self) -> bool {
        self.reply == "404"
    }
}

/// A scripted server: where it listens, and the record of every request it answered.
pub struct Recording<E> {
    pub base_url: String,
    log: Arc<Mutex<Vec<E>>>,
}

impl<E: Clone + Send + 'static> Recording<E> {
    /// Starts serving on a port chosen by the OS, at the base URL `http://127.0.0.1:<port><path>`:
    /// `answer` answers each request and records it in the log it is given.
    pub fn serve(
        path: &str,
        answer: impl Fn(Request, &mut TcpStream, &Mutex<Vec<E>>) -> std::io::Result<()>
            + Send
            + Sync
            + 'static,
    ) -> Recording<E> {
        let log = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&log);
        let port = serve(Arc::new(move |request: Request, out: &mut TcpStream| {
            answer(request, out, &shared)
        }));
        Recording {
            base_url: format!("http://127.0.0.1:{port}{path}"),
            log,
        }
    }

    /// The shared record of every request, for a failure report.
    pub fn log(&self) -> Arc<Mutex<Vec<E>>> {
        Arc::clone(&self.log)
    }

    /// Every request so far, in the order answered.
    pub fn exchanges(&self) -> Vec<E> {
        self.log.lock().unwrap().clone()
    }
}

/// Serves one connection: reads one request, answers it, closes.
fn handle(stream: TcpStream, answer: &Answer) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    let (method, path, raw) = read_request(&mut reader)?;
    let body: Value = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    answer(Request { method, path, body }, &mut out)
}

/// Reads the request line, the headers and the body (by `Content-Length`, or chunked).
fn read_request(reader: &mut impl BufRead) -> std::io::Result<(String, String, Vec<u8>)> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut words = line.split_whitespace();
    let method = words
        .next()
        .ok_or_else(|| bad("no request line"))?
        .to_string();
    let path = words
        .next()
        .ok_or_else(|| bad("no request path"))?
        .to_string();

    let mut content_length = 0usize;
    let mut chunked = false;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(bad("headers cut short"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                content_length = value.parse().map_err(|_| bad("bad content-length"))?;
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.to_ascii_lowercase().contains("chunked");
            }
        }
    }

    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size_hex = line.trim().split(';').next().unwrap_or("");
            let size = usize::from_str_radix(size_hex, 16).map_err(|_| bad("bad chunk"))?;
            if size == 0 {
                // Trailers, if any, end with an empty line.
                loop {
                    line.clear();
                    if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                        break;
                    }
                }
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..])?;
            line.clear();
            reader.read_line(&mut line)?; // the CRLF after the chunk
        }
    } else {
        body.resize(content_length, 0);
        reader.read_exact(&mut body)?;
    }
    Ok((method, path, body))
}

/// Answers with `value` as a JSON body.
pub fn write_json(out: &mut TcpStream, status: &str, value: &Value) -> std::io::Result<()> {
    let body = value.to_string();
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()
}

/// Starts a `200 OK` server-sent event stream; its body ends when the connection closes.
pub fn write_event_stream_head(out: &mut TcpStream) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
         Connection: close\r\n\r\n"
    )
}
