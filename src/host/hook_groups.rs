//! The `hooks` object of a JSON settings file, in the shape Claude Code's settings, Gemini CLI's
//! settings and Codex's `hooks.json` share: `"hooks": {<event>: [{"matcher"?, "hooks":
//! [{"type": "command", "command", "timeout"}]}]}`. A group's matcher chooses which
//! occurrences of its event run its handlers (none: all). ocmem's handler is the one whose
//! command a host's `ocmem_program` recognises; everything else in the file is the user's.
//! Pure: JSON in, JSON out.

use anyhow::{bail, Result};
use serde_json::{json, Map, Value};

/// One host's hooks of ocmem's.
pub struct HookSet<'a> {
    /// Each event ocmem registers, with the matcher of its group (`None`: every occurrence)
    /// and its handler's timeout, in the host's unit (seconds or milliseconds).
    pub events: Vec<(&'a str, Option<&'a str>, u64)>,
    /// The program an ocmem hook command runs, unquoted, when a command is one.
    pub ocmem_program: fn(&str) -> Option<String>,
}

/// One handler of ocmem's found in a file: its event, the index of its group and of the
/// handler in it, the group and the handler as they stand, and the program it runs.
pub struct Found<'v> {
    pub event: &'v str,
    pub group_index: usize,
    pub handler_index: usize,
    pub group: &'v Value,
    pub handler: &'v Value,
    pub program: String,
}

impl<'a> HookSet<'a> {
    /// The set of `events` (each with its group's matcher) whose handlers all have `timeout`.
    pub fn timed(
        events: &[(&'a str, Option<&'a str>)],
        timeout: u64,
        ocmem_program: fn(&str) -> Option<String>,
    ) -> HookSet<'a> {
        HookSet {
            events: events
                .iter()
                .map(|&(event, matcher)| (event, matcher, timeout))
                .collect(),
            ocmem_program,
        }
    }

    /// The events of the set that are not among the `found` ones, in the set's order.
    pub fn missing<'f>(&self, found: impl Iterator<Item = &'f str> + Clone) -> Vec<&'a str> {
        self.events
            .iter()
            .map(|(event, ..)| *event)
            .filter(|event| !found.clone().any(|f| f == *event))
            .collect()
    }

    fn is_ocmem_handler(&self, handler: &Value) -> bool {
        handler["type"] == "command"
            && handler["command"]
                .as_str()
                .is_some_and(|c| (self.ocmem_program)(c).is_some())
    }

    /// `settings` with ocmem's hooks running `command` for every event. A group that holds
    /// only ocmem's handler is replaced where it is; any other handler of ocmem's is taken out
    /// of its group and a group of ocmem's own is added at the end. Everything else, and the
    /// order of every key, is kept. Fails, saying where, on a shape the host would not accept.
    pub fn install(&self, settings: &Value, command: &str) -> Result<Value> {
        let mut settings = settings.clone();
        let Some(root) = settings.as_object_mut() else {
            bail!("it is not a JSON object");
        };
        let hooks = root
            .entry("hooks")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(hooks) = hooks.as_object_mut() else {
            bail!("its \"hooks\" is not an object");
        };
        for &(event, matcher, timeout) in &self.events {
            let groups = hooks
                .entry(event)
                .or_insert_with(|| Value::Array(Vec::new()));
            let Some(groups) = groups.as_array_mut() else {
                bail!("its \"hooks\".\"{event}\" is not an array");
            };
            let wanted = ocmem_group(matcher, command, timeout);
            let holding: Vec<usize> = (0..groups.len())
                .filter(|&i| {
                    handlers(&groups[i])
                        .iter()
                        .any(|h| self.is_ocmem_handler(h))
                })
                .collect();
            match holding[..] {
                [only] if handlers(&groups[only]).len() == 1 => groups[only] = wanted,
                _ => {
                    self.remove_ocmem_handlers(groups);
                    groups.push(wanted);
                }
            }
        }
        Ok(settings)
    }

    /// Takes ocmem's handlers out of `groups`, and the groups they leave empty. Returns whether
    /// there were any.
    fn remove_ocmem_handlers(&self, groups: &mut Vec<Value>) -> bool {
        let mut removed = false;
        groups.retain_mut(|group| {
            let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let before = list.len();
            list.retain(|handler| !self.is_ocmem_handler(handler));
            if list.len() == before {
                return true;
            }
            removed = true;
            !list.is_empty()
        });
        removed
    }

    /// `settings` without ocmem's handlers under any event, and without the groups, event
    /// lists and `hooks` object that only they filled.
    pub fn uninstall(&self, settings: &Value) -> Value {
        let mut settings = settings.clone();
        let Some(root) = settings.as_object_mut() else {
            return settings;
        };
        let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else {
            return settings;
        };
        let mut emptied = Vec::new();
        let mut removed = false;
        for (event, groups) in hooks.iter_mut() {
            if let Some(groups) = groups.as_array_mut() {
                if self.remove_ocmem_handlers(groups) {
                    removed = true;
                    if groups.is_empty() {
                        emptied.push(event.clone());
                    }
                }
            }
        }
        for event in emptied {
            hooks.shift_remove(&event);
        }
        if removed && hooks.is_empty() {
            root.shift_remove("hooks");
        }
        settings
    }

    /// Every handler of ocmem's in `settings`, in file order.
    pub fn found<'v>(&self, settings: &'v Value) -> Vec<Found<'v>> {
        let Some(hooks) = settings.get("hooks").and_then(Value::as_object) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for (event, groups) in hooks {
            let groups = groups.as_array().map_or(&[][..], Vec::as_slice);
            for (group_index, group) in groups.iter().enumerate() {
                for (handler_index, handler) in handlers(group).iter().enumerate() {
                    if handler["type"] != "command" {
                        continue;
                    }
                    if let Some(program) = handler["command"].as_str().and_then(self.ocmem_program)
                    {
                        found.push(Found {
                            event,
                            group_index,
                            handler_index,
                            group,
                            handler,
                            program,
                        });
                    }
                }
            }
        }
        found
    }
}

fn handlers(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// ocmem's group for one event.
fn ocmem_group(matcher: Option<&str>, command: &str, timeout: u64) -> Value {
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".into(), matcher.into());
    }
    let handler = json!({"type": "command", "command": command, "timeout": timeout});
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
}
