// ocmem for OpenCode: working memory that survives compaction and carries across sessions.
//
// Install: `ocmem init opencode` (or copy this file to ~/.config/opencode/plugins/ for all
// projects, .opencode/plugins/ for one). The plugin runs the `ocmem` binary named by OCMEM_BIN,
// else the one that installed it, else `ocmem` on PATH, once per hook, with the event as JSON
// on stdin. It never makes a tool call or a model request fail: every handler catches every
// error, every call is killed after 2 s, and a missing binary turns the plugin off after one
// warning (and one toast in the TUI).

import { spawn, spawnSync } from "node:child_process";

const TIMEOUT_MS = 2000;
const SERVICE = "ocmem";
// The binary `ocmem init opencode` installed this file from, which it writes here; empty in a
// copy made by hand.
const INSTALLED_BIN = "";
// Spawn errors that mean the binary is not there (or not runnable) any more.
const CANNOT_RUN = new Set(["ENOENT", "EACCES"]);

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

  const reportStderr = (subcommand, stderr) => {
    const text = (stderr || "").trim();
    if (text) log("warn", `ocmem ${subcommand}: ${text}`);
  };

  // Runs `ocmem <subcommand>` with `event` on stdin, without a shell; resolves to its stdout
  // ("" on any failure). Killed after TIMEOUT_MS.
  const run = (subcommand, event) =>
    new Promise((resolve) => {
      let child;
      try {
        child = spawn(bin, [subcommand], { stdio: ["pipe", "pipe", "pipe"] });
      } catch (error) {
        log("error", `cannot run ocmem ${subcommand}: ${error.message}`);
        toastIfMissing(error);
        resolve("");
        return;
      }
      let stdout = "";
      let stderr = "";
      let settled = false;
      const finish = (text) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(text);
      };
      const timer = setTimeout(() => {
        log("warn", `ocmem ${subcommand} took more than ${TIMEOUT_MS} ms; killed`);
        try {
          child.kill("SIGKILL");
        } catch {}
        finish("");
      }, TIMEOUT_MS);
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", (error) => {
        log("error", `cannot run ocmem ${subcommand}: ${error.message}`);
        toastIfMissing(error);
        finish("");
      });
      child.on("close", (code) => {
        reportStderr(subcommand, stderr);
        finish(code === 0 ? stdout : "");
      });
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(event));
    });

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
        if (!sessionID || (await isSubAgent(sessionID))) return;
        const summary = summaries.get(sessionID);
        summaries.delete(sessionID);
        const text = summary ? [...summary.parts.values()].join("\n") : "";
        runSync("promote", { directory, sessionID, summary: text });
        return;
      }
      case "session.deleted": {
        const sessionID = props.sessionID ?? props.info?.id;
        if (!sessionID) return;
        const sub = Boolean(props.info?.parentID ?? parentOf.get(sessionID));
        latestPrompt.delete(sessionID);
        summaries.delete(sessionID);
        parentOf.delete(sessionID);
        if (!sub) runSync("gc", { directory, sessionID });
        return;
      }
      default:
        return;
    }
  };

  return {
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
      const text = (await run("render", event)).trimEnd();
      if (text && Array.isArray(output?.system)) output.system.push(text);
    }),

    "tool.execute.after": guard("tool.execute.after", async (input, output) => {
      if (await isSubAgent(input?.sessionID)) return;
      await run("tool-after", { directory, input, output });
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
