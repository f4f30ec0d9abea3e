//! Reading fields of a host's JSON event. Every problem becomes one line naming the field by
//! its dotted path, the way the event spells it.

use anyhow::{bail, Context as _, Result};
use serde_json::Value;

/// The event on stdin: a JSON object in UTF-8.
pub fn parse_event(bytes: &[u8]) -> Result<Value> {
    let text = std::str::from_utf8(bytes).context("bad input: stdin is not valid UTF-8")?;
    if text.trim().is_empty() {
        bail!("bad input: stdin is empty; expected a JSON event");
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| anyhow::anyhow!("bad input: stdin is not valid JSON ({e})"))?;
    if !value.is_object() {
        bail!(
            "bad input: the event must be a JSON object, not {}",
            kind(&value)
        );
    }
    Ok(value)
}

fn lookup<'a>(event: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(event, |v, key| v.get(key))
}

/// A required non-empty string at a dotted `path` such as `input.sessionID`.
pub fn required_str<'a>(event: &'a Value, path: &str) -> Result<&'a str> {
    match lookup(event, path) {
        None | Some(Value::Null) => bail!("bad input: {path} is missing"),
        Some(Value::String(s)) if s.is_empty() => bail!("bad input: {path} is empty"),
        Some(Value::String(s)) => Ok(s),
        Some(other) => bail!("bad input: {path} must be a string, not {}", kind(other)),
    }
}

/// The longest session, call or message id accepted, in bytes. Real ids are far shorter
/// (OpenCode's are 30 chars, a UUID is 36); ids are stored and hashed into file names, so a
/// longer one is bad input rather than something to store 64 times over.
pub const MAX_ID_BYTES: usize = 256;

/// A required id (see `MAX_ID_BYTES`) at a dotted `path`.
pub fn required_id<'a>(event: &'a Value, path: &str) -> Result<&'a str> {
    checked_id(path, required_str(event, path)?)
}

/// An optional id (see `MAX_ID_BYTES`): absent or null is `None`.
pub fn optional_id<'a>(event: &'a Value, path: &str) -> Result<Option<&'a str>> {
    optional_str(event, path)?
        .map(|id| checked_id(path, id))
        .transpose()
}

fn checked_id<'a>(path: &str, id: &'a str) -> Result<&'a str> {
    if id.len() > MAX_ID_BYTES {
        bail!(
            "bad input: {path} is {} bytes long; an id may have at most {MAX_ID_BYTES}",
            id.len()
        );
    }
    Ok(id)
}

/// An optional string: absent or null is `None`; any other type is an error.
pub fn optional_str<'a>(event: &'a Value, path: &str) -> Result<Option<&'a str>> {
    match lookup(event, path) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => bail!("bad input: {path} must be a string, not {}", kind(other)),
    }
}

/// A required object.
pub fn required_object<'a>(event: &'a Value, path: &str) -> Result<&'a Value> {
    match lookup(event, path) {
        None | Some(Value::Null) => bail!("bad input: {path} is missing"),
        Some(v @ Value::Object(_)) => Ok(v),
        Some(other) => bail!("bad input: {path} must be an object, not {}", kind(other)),
    }
}

/// An optional object: absent or null reads as `null`, which every lookup treats as empty.
pub fn optional_object<'a>(event: &'a Value, path: &str) -> Result<&'a Value> {
    match lookup(event, path) {
        None => Ok(&Value::Null),
        Some(v @ (Value::Object(_) | Value::Null)) => Ok(v),
        Some(other) => bail!("bad input: {path} must be an object, not {}", kind(other)),
    }
}

/// The absolute directory the agent runs in.
pub fn directory(event: &Value) -> Result<&str> {
    let dir = required_str(event, "directory")?;
    if !std::path::Path::new(dir).is_absolute() {
        bail!("bad input: directory must be an absolute path, not {dir:?}");
    }
    Ok(dir)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(result: Result<impl std::fmt::Debug>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn stdin_problems_are_named() {
        assert!(err(parse_event(b"")).contains("stdin is empty"));
        assert!(err(parse_event(b"  \n")).contains("stdin is empty"));
        assert!(err(parse_event(b"{\"a\":")).contains("not valid JSON"));
        assert!(err(parse_event(b"\xff\xfe")).contains("not valid UTF-8"));
        assert!(err(parse_event(b"[1]")).contains("must be a JSON object, not an array"));
        assert!(parse_event(b"{}").is_ok());
    }

    #[test]
    fn fields_are_checked_by_path() {
        let event =
            json!({"directory": "/r", "input": {"sessionID": 5, "tool": ""}, "output": "x"});
        assert_eq!(required_str(&event, "directory").unwrap(), "/r");
        assert_eq!(
            err(required_str(&event, "input.sessionID")),
            "bad input: input.sessionID must be a string, not a number"
        );
        assert_eq!(
            err(required_str(&event, "input.tool")),
            "bad input: input.tool is empty"
        );
        assert_eq!(
            err(required_str(&event, "input.callID")),
            "bad input: input.callID is missing"
        );
        assert_eq!(optional_str(&event, "prompt").unwrap(), None);
        assert!(err(optional_object(&event, "output")).contains("must be an object, not a string"));
        assert!(optional_object(&event, "nothing").unwrap().is_null());
        assert!(err(directory(&json!({"directory": "rel/dir"}))).contains("absolute path"));
    }

    #[test]
    fn ids_longer_than_the_limit_are_bad_input() {
        let longest = "s".repeat(MAX_ID_BYTES);
        let event = json!({"a": longest, "b": format!("{longest}s"), "c": "ses_e012f93b8ffev6S3ivVW0qWQS9"});
        assert_eq!(required_id(&event, "a").unwrap(), longest);
        assert_eq!(
            err(required_id(&event, "b")),
            "bad input: b is 257 bytes long; an id may have at most 256"
        );
        assert!(err(optional_id(&event, "b")).contains("257 bytes"));
        assert_eq!(
            optional_id(&event, "c").unwrap(),
            Some("ses_e012f93b8ffev6S3ivVW0qWQS9")
        );
        assert_eq!(optional_id(&event, "none").unwrap(), None);
        assert!(err(required_id(&event, "none")).contains("none is missing"));
    }
}
