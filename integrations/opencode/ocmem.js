// ocmem for OpenCode: working memory that survives compaction and carries across sessions.
//
// Install: `ocmem init opencode` (or copy this file to ~/.config/opencode/plugins/ for all
// projects, .opencode/plugins/ for one). The plugin runs the `ocmem` binary named by OCMEM_BIN,
// else the one that installed it, else `ocmem` on PATH, once per hook, with the event as JSON
// on stdin. It never makes a tool call or a model request fail: every handler catches every
// error, every call is killed after 2 s, and a missing binary turns the plugin off after one
// warning (and one toast in the TUI).
//
// A long bash, grep, glob or list output is replaced by the cut-down form `ocmem tool-after
// --prune` prints (the whole output saved where its last line says); OCMEM_PRUNE=0 turns it off.
//
// It also gives the agent tools over that memory (memory_search, memory_list, memory_add,
// memory_forget, hot_state) through OpenCode's `tool` hook, each running `ocmem memory … --json`.
// A tool never throws: whatever goes wrong comes back to the model as the tool's text.

import { spawn, spawnSync } from "node:child_process";

const TIMEOUT_MS = 2000;
// The agent waits for a tool's answer, and a search reads the whole store: more time than a hook.
const TOOL_TIMEOUT_MS = 5000;
const SERVICE = "ocmem";
// The binary `ocmem init opencode` installed this file from, which it writes here; empty in a
// copy made by hand.
const INSTALLED_BIN = "";
// Spawn errors that mean the binary is not there (or not runnable) any more.
const CANNOT_RUN = new Set(["ENOENT", "EACCES"]);
// Tools whose long output ocmem may cut down for the model (`ocmem tool-after --prune`), as
// OpenCode names them; `read`, `edit` and `write` outputs are never touched.
const PRUNED_TOOLS = new Set(["bash", "grep", "glob", "list"]);
// OCMEM_PRUNE values that turn pruning off (ocmem checks them too).
const PRUNE_OFF = new Set(["0", "false", "no", "off"]);
const pruningOff = () => PRUNE_OFF.has((process.env.OCMEM_PRUNE || "").trim().toLowerCase());

export const OcmemPlugin = async ({ client, directory }) => {
  const bin = process.env.OCMEM_BIN || INSTALLED_BIN || "ocmem";

  const log = (level, message) => {
    try {
      const pending = client?.app?.log?.({ body: { service: SERVICE, level, message } });
      pending?.catch?.(() => {});
    } catch {
      // Logging must never be the thing that fails.
    }
  };

  // Tells the user once, in the TUI, that memory is off; OpenCode's log is seldom read.
  let toasted = false;
  const toast = (message) => {
    if (toasted) return;
    toasted = true;
    try {
      const pending = client?.tui?.showToast?.({ body: { title: "ocmem", message, variant: "warning" } });
      pending?.catch?.(() => {});
    } catch {
      // A toast is a courtesy: never the thing that fails.
    }
  };
  const missingMessage = () =>
    `ocmem cannot run ${JSON.stringify(bin)}, so working memory is off. Install ocmem and put it on PATH, or set OCMEM_BIN to its path, then restart OpenCode.`;
  const toastIfMissing = (error) => {
    if (CANNOT_RUN.has(error?.code)) toast(missingMessage());
  };

  const probe = spawnSync(bin, ["--version"], { timeout: TIMEOUT_MS, encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    const why = probe.error ? probe.error.message : `exit ${probe.status}: ${probe.stderr}`.trim();
    log("warn", `ocmem binary ${JSON.stringify(bin)} is not usable (${why}); plugin disabled. Set OCMEM_BIN or put ocmem on PATH.`);
    const message = CANNOT_RUN.has(probe.error?.code)
      ? missingMessage()
      : `ocmem ${JSON.stringify(bin)} failed to start (${why.replace(/\s+/g, " ").slice(0, 120)}), so working memory is off. Run \`ocmem doctor\` in a terminal.`;
    // Shown on the user's first message rather than now: the TUI may not be listening yet
    // while plugins load, and a toast sent to nobody is lost.
    return {
      "chat.message": async () => toast(message),
    };
  }

  // Per session: the latest user message, whether it is a sub-agent session, and the text
  // parts of the compaction summary being written.
  const latestPrompt = new Map(); // sessionID -> { prompt, messageID }
  const parentOf = new Map(); // sessionID -> parentID or null
  const summaries = new Map(); // sessionID -> { messageID, parts: Map(partID -> text) }
  // Per session, for ocmem to tell how full the context is: the latest non-zero token counts
  // of an assistant message, and the model's limits, both as OpenCode gives them (ocmem reads
  // their fields). Forgotten at compaction: they describe the prompt it replaced.
  const tokensOf = new Map(); // sessionID -> info.tokens
  const limitOf = new Map(); // sessionID -> model.limit

  const reportStderr = (subcommand, stderr) => {
    const text = (stderr || "").trim();
    if (text) log("warn", `ocmem ${subcommand}: ${text}`);
  };

  // Runs `ocmem <args>` without a shell, with `input` on stdin; resolves to
  // { code, stdout, stderr, error, timedOut } and never rejects. Killed after `timeoutMs`.
  const spawnOcmem = (args, input, timeoutMs) =>
    new Promise((resolve) => {
      const name = args.slice(0, 2).join(" ");
      let child;
      try {
        child = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"] });
      } catch (error) {
        log("error", `cannot run ocmem ${name}: ${error.message}`);
        toastIfMissing(error);
        resolve({ code: null, stdout: "", stderr: "", error });
        return;
      }
      let stdout = "";
      let stderr = "";
      let settled = false;
      const finish = (result) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ stdout, stderr, ...result });
      };
      const timer = setTimeout(() => {
        log("warn", `ocmem ${name} took more than ${timeoutMs} ms; killed`);
        try {
          child.kill("SIGKILL");
        } catch {}
        finish({ code: null, timedOut: true });
      }, timeoutMs);
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", (error) => {
        log("error", `cannot run ocmem ${name}: ${error.message}`);
        toastIfMissing(error);
        finish({ code: null, error });
      });
      child.on("close", (code) => finish({ code }));
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    });

  // Runs `ocmem <subcommand> <flags>` with `event` on stdin; resolves to its stdout ("" on any
  // failure), its stderr going to OpenCode's log.
  const run = async (subcommand, event, flags = []) => {
    const result = await spawnOcmem([subcommand, ...flags], JSON.stringify(event), TIMEOUT_MS);
    if (result.error || result.timedOut) return "";
    reportStderr(subcommand, result.stderr);
    return result.code === 0 ? result.stdout : "";
  };

  // The same, synchronously: for events OpenCode does not await, emitted by processes that
  // may exit right after (`opencode session delete`), so the call finishes anyway.
  const runSync = (subcommand, event) => {
    const result = spawnSync(bin, [subcommand], {
      input: JSON.stringify(event),
      timeout: TIMEOUT_MS,
      killSignal: "SIGKILL",
      encoding: "utf8",
    });
    if (result.error) {
      log("error", `ocmem ${subcommand} failed: ${result.error.message}`);
      toastIfMissing(result.error);
    }
    reportStderr(subcommand, result.stderr);
  };

  // Sub-agent sessions get no memory of their own. Known from session events, else asked
  // once of the OpenCode server.
  const isSubAgent = async (sessionID) => {
    if (!sessionID) return true;
    if (!parentOf.has(sessionID)) {
      let parent = null;
      try {
        const response = await client.session.get({ path: { id: sessionID } });
        parent = response?.data?.parentID ?? null;
      } catch {}
      parentOf.set(sessionID, parent);
    }
    return Boolean(parentOf.get(sessionID));
  };

  const guard = (name, handler) => async (...args) => {
    try {
      await handler(...args);
    } catch (error) {
      log("error", `${name}: ${error?.message ?? error}`);
    }
  };

  const onEvent = async (event) => {
    const props = event?.properties ?? {};
    switch (event?.type) {
      case "session.created":
      case "session.updated": {
        const info = props.info;
        if (info?.id) parentOf.set(info.id, info.parentID ?? null);
        return;
      }
      case "message.updated": {
        // The compaction summary is an assistant message with `summary: true`.
        const info = props.info;
        if (info?.role === "assistant" && info.summary === true && info.sessionID) {
          const current = summaries.get(info.sessionID);
          if (current?.messageID !== info.id) {
            summaries.set(info.sessionID, { messageID: info.id, parts: new Map() });
          }
        }
        // Streaming updates repeat a message's counts many times: kept here, sent with the
        // next render. A message starts with all counts zero; the previous counts stand then.
        if (info?.role === "assistant" && info.summary !== true && info.sessionID && hasCount(info.tokens)) {
          tokensOf.set(info.sessionID, info.tokens);
        }
        return;
      }
      case "message.part.updated": {
        const part = props.part;
        if (part?.type !== "text" || typeof part.text !== "string") return;
        const summary = summaries.get(part.sessionID);
        if (summary && summary.messageID === part.messageID) summary.parts.set(part.id, part.text);
        return;
      }
      case "session.compacted": {
        const sessionID = props.sessionID;
        if (sessionID) tokensOf.delete(sessionID);
        if (!sessionID || (await isSubAgent(sessionID))) return;
        const summary = summaries.get(sessionID);
        summaries.delete(sessionID);
        const text = summary ? [...summary.parts.values()].join("\n") : "";
        runSync("promote", { directory, sessionID, summary: text });
        return;
      }
      case "session.idle": {
        // The session's digest catches up with the turn that just ended.
        const sessionID = props.sessionID;
        if (!sessionID || (await isSubAgent(sessionID))) return;
        await run("idle", { directory, sessionID });
        return;
      }
      case "session.deleted": {
        const sessionID = props.sessionID ?? props.info?.id;
        if (!sessionID) return;
        const sub = Boolean(props.info?.parentID ?? parentOf.get(sessionID));
        latestPrompt.delete(sessionID);
        summaries.delete(sessionID);
        parentOf.delete(sessionID);
        tokensOf.delete(sessionID);
        limitOf.delete(sessionID);
        if (!sub) runSync("gc", { directory, sessionID });
        return;
      }
      default:
        return;
    }
  };

  const z = await schemaLibrary();

  return {
    tool: memoryTools(spawnOcmem, directory, z),

    "chat.message": guard("chat.message", async (input, output) => {
      const sessionID = input?.sessionID ?? output?.message?.sessionID;
      if (!sessionID) return;
      const text = (output?.parts ?? [])
        .filter((part) => part?.type === "text" && !part.synthetic && typeof part.text === "string")
        .map((part) => part.text)
        .join("\n");
      latestPrompt.set(sessionID, { prompt: text, messageID: output?.message?.id });
    }),

    "experimental.chat.system.transform": guard("system.transform", async (input, output) => {
      const sessionID = input?.sessionID;
      if (!sessionID || (await isSubAgent(sessionID))) return;
      const latest = latestPrompt.get(sessionID) ?? {};
      const event = { directory, sessionID };
      if (latest.prompt) event.prompt = latest.prompt;
      if (latest.messageID) event.messageID = latest.messageID;
      const limit = input?.model?.limit;
      if (limit && typeof limit === "object") limitOf.set(sessionID, limit);
      if (tokensOf.has(sessionID)) {
        event.context = { tokens: tokensOf.get(sessionID) };
        if (limitOf.has(sessionID)) event.context.limit = limitOf.get(sessionID);
      }
      const text = (await run("render", event)).trimEnd();
      if (text && Array.isArray(output?.system)) output.system.push(text);
    }),

    "tool.execute.after": guard("tool.execute.after", async (input, output) => {
      if (await isSubAgent(input?.sessionID)) return;
      const prune = PRUNED_TOOLS.has(input?.tool) && typeof output?.output === "string" && !pruningOff();
      if (!prune) {
        await run("tool-after", { directory, input, output });
        return;
      }
      // A long output comes back cut down, its whole text saved by ocmem; "" leaves it whole
      // (a short output, or ocmem failing).
      const pruned = (await run("tool-after", { directory, input, output }, ["--prune"])).trimEnd();
      if (pruned) output.output = pruned;
    }),

    "experimental.session.compacting": guard("session.compacting", async (input, output) => {
      const sessionID = input?.sessionID;
      if (!sessionID || (await isSubAgent(sessionID))) return;
      const text = (await run("compact", { directory, sessionID })).trimEnd();
      if (text && Array.isArray(output?.context)) output.context.push(text);
    }),

    event: guard("event", async ({ event }) => onEvent(event)),
  };
};

// Whether a token-count object holds any positive count, however OpenCode nests them.
function hasCount(value) {
  if (typeof value === "number") return Number.isFinite(value) && value > 0;
  if (value && typeof value === "object") return Object.values(value).some(hasCount);
  return false;
}

// ---------------------------------------------------------------------------------------------
// The agent's tools
// ---------------------------------------------------------------------------------------------

const MEMORY_TYPES = ["feedback", "project", "decision", "reference"];

// Each tool's arguments, declared once: OpenCode is given them as Zod schemas when the plugin
// API it installs beside its plugin directories can be loaded, else as JSON Schema, which it
// marks all required, so that form leaves the optional ones out. `execute` checks them
// either way.
const TOOL_ARGS = {
  memory_search: {
    query: { type: "string", required: true, description: "Words to look for, in any language" },
    limit: { type: "integer", min: 1, max: 50, description: "At most this many results per memory (default 10)" },
  },
  memory_list: {
    type: { type: "enum", values: MEMORY_TYPES, description: "Only entries of this type" },
    all: { type: "boolean", description: "Also list the entries a new session's block does not show, with why" },
  },
  memory_add: {
    text: { type: "string", required: true, description: "One self-contained sentence, at most 260 characters" },
    type: {
      type: "enum",
      values: MEMORY_TYPES,
      description: "feedback (how the user wants work done), project (facts about this repository), decision (a choice and its reason) or reference (where to find things); default: read from the text",
    },
    user: { type: "boolean", description: "Keep it in the user's memory for all their projects; only when the user asks for that" },
  },
  memory_forget: {
    id: { type: "string", required: true, description: "The entry's id, as memory_list or memory_search shows it" },
  },
  hot_state: {},
};

const TOOL_DESCRIPTIONS = {
  memory_search:
    "Search what ocmem remembers across sessions, for this project and for the user across projects: rules, preferences, decisions and facts. Ranked word search; returns the matching entries with their ids.",
  memory_list:
    "List what ocmem remembers for this project and for the user across projects, best first: the entries a new session's memory block shows (all=true adds the others). Each line has the entry's id, type, text and source.",
  memory_add:
    "Remember a durable fact, rule, preference or decision about this project for future sessions. Use it for what will still hold next week, not for the state of the current task. Secrets are removed; text that reads as an instruction to an agent is refused; the same text is not stored twice. Future sessions show it; this one keeps its current block. When the user asks you to remember something and the hot state's pending_memories does not list it, save it with this tool, in the user's words; what is listed there is saved already.",
  memory_forget:
    "Forget a remembered entry that is wrong or outdated, by its id from memory_list or memory_search. The entry is kept as superseded, and the user can restore it with `ocmem memory restore ID`.",
  hot_state:
    "Show this session's hot state as ocmem tracks it: the files worked on, the errors still open (and those an edit may have fixed), recent decisions, and memories captured in this session.",
};

// Zod, as the plugin API exposes it to tools (`tool.schema`); null when it cannot be loaded.
async function schemaLibrary() {
  try {
    const api = await import("@opencode-ai/plugin/tool");
    return api?.tool?.schema ?? null;
  } catch {
    return null;
  }
}

function zodArg(z, spec) {
  let schema;
  if (spec.type === "string") schema = z.string();
  else if (spec.type === "integer") schema = z.number().int().min(spec.min).max(spec.max);
  else if (spec.type === "boolean") schema = z.boolean();
  else schema = z.enum(spec.values);
  schema = schema.describe(spec.description);
  return spec.required ? schema : schema.optional();
}

function jsonSchemaArg(spec) {
  const schema = { description: spec.description };
  if (spec.type === "enum") return { ...schema, type: "string", enum: spec.values };
  if (spec.type === "integer") return { ...schema, type: "integer", minimum: spec.min, maximum: spec.max };
  return { ...schema, type: spec.type };
}

function declaredArgs(specs, z) {
  const args = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (z) args[name] = zodArg(z, spec);
    else if (spec.required) args[name] = jsonSchemaArg(spec);
  }
  return args;
}

// The arguments of a call, checked against `specs`: { values } or { problem }.
function checkArgs(specs, given) {
  const args = given && typeof given === "object" ? given : {};
  const values = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = args[name];
    if (value === undefined || value === null) {
      if (spec.required) return { problem: `\`${name}\` is required` };
      continue;
    }
    const ok =
      spec.type === "string"
        ? typeof value === "string" && value.trim() !== ""
        : spec.type === "integer"
          ? Number.isInteger(value) && value >= spec.min && value <= spec.max
          : spec.type === "boolean"
            ? typeof value === "boolean"
            : spec.values.includes(value);
    if (!ok) {
      const wanted =
        spec.type === "string"
          ? "a non-empty string"
          : spec.type === "integer"
            ? `an integer from ${spec.min} to ${spec.max}`
            : spec.type === "boolean"
              ? "true or false"
              : `one of ${spec.values.join(", ")}`;
      return { problem: `\`${name}\` must be ${wanted}, not ${JSON.stringify(value)}` };
    }
    values[name] = value;
  }
  return { values };
}

// One line per entry: its id (what memory_forget takes), type, text, reason and source.
function entryLine(entry) {
  const why = entry.rationale ? ` Why: ${entry.rationale}` : "";
  const notes = [entry.source];
  if (entry.notShown) notes.push(`not shown: ${entry.notShown}`);
  return `- ${entry.id} [${entry.type}] ${entry.text}${why} (${notes.join(", ")})`;
}

function firstLine(text) {
  const line = (text || "").trim().split("\n")[0] ?? "";
  return line.replace(/^ocmem: /, "");
}

function memoryTools(spawnOcmem, pluginDirectory, z) {
  // Runs `ocmem memory <args> --json` for the workspace of `directory`: { value } or
  // { failure } (one line saying why). Positional arguments go after `--`, so that a text
  // starting with a dash stays a text.
  const memory = async (directory, subcommand, flags = [], positional = []) => {
    const args = ["memory", subcommand, "--json", ...flags];
    if (!flags.includes("--user")) args.push("--workspace", directory);
    args.push("--", ...positional);
    const result = await spawnOcmem(args, "", TOOL_TIMEOUT_MS);
    if (result.error) return { failure: `ocmem could not be run (${result.error.message})` };
    if (result.timedOut) return { failure: `ocmem did not answer within ${TOOL_TIMEOUT_MS / 1000} s` };
    if (result.code !== 0) {
      return { failure: firstLine(result.stderr) || `ocmem memory ${subcommand} failed (exit ${result.code})` };
    }
    try {
      return { value: JSON.parse(result.stdout) };
    } catch {
      return { failure: `ocmem memory ${subcommand} printed no JSON` };
    }
  };

  // The reason the tools do nothing for `directory`, when the user turned memory off.
  const offReason = async (directory) => {
    const where = await memory(directory, "where");
    if (where.failure) return null; // the call itself will say what is wrong
    if (where.value?.disabledByEnv) return "memory is off: OCMEM_DISABLE is set";
    if (where.value?.off) return "memory is off for this workspace (`ocmem memory on` turns it back on)";
    return null;
  };

  const sections = (workspace, user, render) => {
    const lines = [];
    for (const [heading, result] of [
      ["Project memory", workspace],
      ["User memory (all projects)", user],
    ]) {
      if (result.failure) lines.push(`${heading}: could not be read: ${result.failure}`);
      else lines.push(...render(heading, result.value));
    }
    return lines.join("\n");
  };

  const handlers = {
    memory_search: async ({ query, limit }, directory) => {
      const flags = limit ? ["--limit", String(limit)] : [];
      const [workspace, user] = await Promise.all([
        memory(directory, "search", flags, [query]),
        memory(directory, "search", [...flags, "--user"], [query]),
      ]);
      if (workspace.failure && user.failure) return { failure: workspace.failure };
      // A workspace's search covers user memory too; it is shown once, under its own heading.
      if (workspace.value?.results) {
        workspace.value.results = workspace.value.results.filter((r) => r.layer !== "user");
      }
      const found = [workspace, user].reduce((n, r) => n + (r.value?.results?.length ?? 0), 0);
      if (found === 0 && !workspace.failure && !user.failure) {
        return { output: `Nothing in memory matches ${JSON.stringify(query)}.` };
      }
      return {
        output: sections(workspace, user, (heading, value) => {
          const results = value.results ?? [];
          return results.length ? [`${heading}:`, ...results.map(entryLine)] : [`${heading}: no match`];
        }),
      };
    },

    memory_list: async ({ type, all }, directory) => {
      const flags = [...(type ? ["--type", type] : []), ...(all ? ["--all"] : [])];
      const [workspace, user] = await Promise.all([
        memory(directory, "list", flags),
        memory(directory, "list", [...flags, "--user"]),
      ]);
      if (workspace.failure && user.failure) return { failure: workspace.failure };
      return {
        output: sections(workspace, user, (heading, value) => {
          const entries = value.entries ?? [];
          return entries.length ? [`${heading}:`, ...entries.map(entryLine)] : [`${heading}: nothing yet`];
        }),
      };
    },

    memory_add: async ({ text, type, user }, directory) => {
      const flags = ["--agent", ...(type ? ["--type", type] : []), ...(user ? ["--user"] : [])];
      const added = await memory(directory, "add", flags, [text]);
      if (added.failure) return { failure: `not remembered: ${added.failure}` };
      const { outcome, entry } = added.value;
      const line = entry ? entryLine(entry).slice(2) : "";
      const where = user ? "user memory" : "project memory";
      if (outcome === "duplicate") return { output: `Already remembered: ${line}` };
      if (!entry) return { failure: `not remembered (${outcome ?? "no entry"})` };
      const replaced = added.value.superseded ? ` It replaces ${added.value.superseded}.` : "";
      return { output: `Remembered in ${where}: ${line}.${replaced} New sessions show it.` };
    },

    memory_forget: async ({ id }, directory) => {
      // The id may be one of user memory's: memory_list and memory_search show those too.
      let flags = [];
      const inProject = await memory(directory, "show", [], [id]);
      if (inProject.failure) {
        const inUser = await memory(directory, "show", ["--user"], [id]);
        if (inUser.failure) return { failure: `not forgotten: ${inProject.failure}` };
        flags = ["--user"];
      }
      const forgotten = await memory(directory, "forget", flags, [id]);
      if (forgotten.failure) return { failure: `not forgotten: ${forgotten.failure}` };
      const { forgotten: done = [], already = [] } = forgotten.value;
      if (done.length) return { output: `Forgot ${done.join(", ")}. The user can bring it back with \`ocmem memory restore ${done[0]}\`.` };
      return { output: `${already.join(", ") || id} was forgotten already; nothing changed.` };
    },

    hot_state: async (_args, directory, context) => {
      const sessionID = context?.sessionID;
      if (!sessionID) return { failure: "no session id was given to the tool" };
      const state = await memory(directory, "hot-state", [], [sessionID]);
      if (state.failure) return state;
      return { output: state.value.text || "Nothing is open in this session: no active file, no open error." };
    },
  };

  const tools = {};
  for (const [name, specs] of Object.entries(TOOL_ARGS)) {
    tools[name] = {
      description: TOOL_DESCRIPTIONS[name],
      args: declaredArgs(specs, z),
      execute: async (given, context) => {
        let answer;
        try {
          const directory = context?.directory || pluginDirectory;
          const checked = checkArgs(specs, given);
          const off = checked.problem ? null : await offReason(directory);
          answer = checked.problem
            ? { failure: `bad arguments: ${checked.problem}` }
            : off
              ? { failure: `${off}; nothing was read or changed` }
              : await handlers[name](checked.values, directory, context);
        } catch (error) {
          answer = { failure: `unexpected error: ${error?.message ?? error}` };
        }
        if (answer.failure) return { title: `${name} failed`, output: `Error: ${answer.failure}` };
        return { title: name, output: answer.output };
      },
    };
  }
  return tools;
}
