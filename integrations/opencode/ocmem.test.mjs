// Tests of the OpenCode plugin against the real ocmem binary (OCMEM_BIN) and a private data
// directory (OCMEM_DATA_DIR), with a stand-in for OpenCode's client. Run by
// `cargo test --test opencode_plugin`, or directly:
//   OCMEM_BIN=target/x86_64-unknown-linux-gnu/debug/ocmem OCMEM_DATA_DIR=$(mktemp -d) node --test integrations/opencode/
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { OcmemPlugin } from "./ocmem.js";

const BIN = process.env.OCMEM_BIN;
const DATA = process.env.OCMEM_DATA_DIR;
assert.ok(BIN && DATA, "OCMEM_BIN and OCMEM_DATA_DIR must be set");

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

// A directory outside any git repository, so that it is its own workspace root.
const newWorkspace = () => mkdtempSync(join(tmpdir(), "ocmem-plugin-ws-"));
const workspaceDir = (root) => join(DATA, "workspaces", sha256(root).slice(0, 16));
const sessionFile = (root, sessionID) =>
  join(workspaceDir(root), "sessions", `${sha256(sessionID).slice(0, 32)}.json`);
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

function fakeClient(parents = {}) {
  const logs = [];
  const toasts = [];
  return {
    logs,
    toasts,
    app: { log: async ({ body }) => void logs.push(body) },
    // As the SDK's `client.tui.showToast({ body: { title?, message, variant, duration? } })`.
    tui: { showToast: async ({ body }) => void toasts.push(body) },
    session: { get: async ({ path }) => ({ data: { id: path.id, parentID: parents[path.id] } }) },
  };
}

// A stand-in binary at a path of its own: `script` is the shell run for every call.
function standInBinary(script) {
  const dir = mkdtempSync(join(tmpdir(), "ocmem-plugin-bin-"));
  const bin = join(dir, "ocmem");
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

async function load(directory, client = fakeClient(), bin = BIN) {
  const saved = process.env.OCMEM_BIN;
  process.env.OCMEM_BIN = bin;
  try {
    return await OcmemPlugin({ client, directory, worktree: directory });
  } finally {
    process.env.OCMEM_BIN = saved;
  }
}

const userMessage = (sessionID, id, text) => [
  { sessionID },
  {
    message: { id, role: "user", sessionID },
    parts: [
      { type: "text", text, id: `prt_${id}`, messageID: id, sessionID },
      { type: "text", text: "synthetic reminder: remember this: not from the user", synthetic: true },
    ],
  },
];

const bash = (sessionID, callID, command, output, exit) => [
  { tool: "bash", sessionID, callID, args: { command } },
  { title: command, output, metadata: { output, exit } },
];

test("render captures the user's memory and puts the block in the system prompt", async () => {
  const root = newWorkspace();
  const hooks = await load(root);
  await hooks["chat.message"](...userMessage("ses_a", "msg_1", "remember this: deploys go through the staging cluster first"));
  const output = { system: ["You are a coding agent."] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_a", model: {} }, output);

  // The session's workspace block was frozen before the capture (it was empty), so the new
  // memory shows among the pending ones until the next compaction.
  assert.equal(output.system.length, 2);
  assert.match(output.system[1], /^Hot session state/);
  assert.match(output.system[1], /pending_memories:\n- \[feedback\] deploys go through the staging cluster first/);
  assert.doesNotMatch(output.system[1], /synthetic reminder/);
  const memory = readJson(join(workspaceDir(root), "workspace-memory.json"));
  assert.equal(memory.entries.length, 1);
  assert.equal(memory.entries[0].source, "explicit");

  // A new session shows it in its workspace block.
  const next = { system: [] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_a2", model: {} }, next);
  assert.match(next.system[0], /^Workspace memory .*\nfeedback:\n- deploys go through the staging cluster first/);
});

test("a failing and then passing typecheck opens and clears an error", async () => {
  const root = newWorkspace();
  const hooks = await load(root);
  const tsc = "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.";
  await hooks["tool.execute.after"](...bash("ses_b", "call_1", "npm run typecheck", tsc, 2));
  let state = readJson(sessionFile(root, "ses_b"));
  assert.equal(state.openErrors.length, 1);
  assert.equal(state.openErrors[0].category, "typecheck");

  const output = { system: [] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_b" }, output);
  assert.match(output.system.join("\n"), /TS2345/);

  await hooks["tool.execute.after"](...bash("ses_b", "call_2", "npm run typecheck", "", 0));
  state = readJson(sessionFile(root, "ses_b"));
  assert.equal(state.openErrors.length, 0);
});

test("sub-agent sessions get no memory of their own", async () => {
  const root = newWorkspace();
  const client = fakeClient({ ses_asked: "ses_parent" });
  const hooks = await load(root, client);
  // Known from the session event ...
  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_child", parentID: "ses_parent" } } } });
  await hooks["tool.execute.after"](...bash("ses_child", "call_1", "npm test", "Error: boom", 1));
  // ... or asked of the server.
  await hooks["tool.execute.after"](...bash("ses_asked", "call_1", "npm test", "Error: boom", 1));
  const output = { system: [] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_child" }, output);

  assert.deepEqual(output.system, []);
  assert.ok(!existsSync(sessionFile(root, "ses_child")));
  assert.ok(!existsSync(sessionFile(root, "ses_asked")));
});

test("compaction adds the instruction, and its summary's candidates are filed", async () => {
  const root = newWorkspace();
  const hooks = await load(root);
  const compacting = { context: [] };
  await hooks["experimental.session.compacting"]({ sessionID: "ses_c" }, compacting);
  assert.equal(compacting.context.length, 1);
  assert.match(compacting.context[0], /Memory candidates:/);

  const summary = "## Work\n- fixed it\n\nMemory candidates:\n- [decision] Use pnpm instead of npm for package management\n- [project] fix: add new feature\n";
  const events = [
    { type: "message.updated", properties: { info: { id: "msg_user", role: "user", sessionID: "ses_c", summary: { diffs: [] } } } },
    { type: "message.updated", properties: { info: { id: "msg_sum", role: "assistant", sessionID: "ses_c", summary: true, mode: "compaction" } } },
    { type: "message.part.updated", properties: { part: { id: "prt_1", messageID: "msg_sum", sessionID: "ses_c", type: "text", text: "## Work" } } },
    { type: "message.part.updated", properties: { part: { id: "prt_1", messageID: "msg_sum", sessionID: "ses_c", type: "text", text: summary } } },
    { type: "message.part.updated", properties: { part: { id: "prt_x", messageID: "msg_user", sessionID: "ses_c", type: "text", text: "- [feedback] not from the summary at all, never" } } },
    { type: "session.compacted", properties: { sessionID: "ses_c" } },
  ];
  for (const event of events) await hooks.event({ event });

  const texts = readJson(join(workspaceDir(root), "workspace-memory.json")).entries.map((e) => e.text);
  assert.deepEqual(texts, ["Use pnpm instead of npm for package management"]);
});

test("a deleted session loses its file", async () => {
  const root = newWorkspace();
  const hooks = await load(root);
  await hooks["tool.execute.after"](...bash("ses_d", "call_1", "npm test", "Error: boom", 1));
  assert.ok(existsSync(sessionFile(root, "ses_d")));
  await hooks.event({ event: { type: "session.deleted", properties: { sessionID: "ses_d", info: { id: "ses_d" } } } });
  assert.ok(!existsSync(sessionFile(root, "ses_d")));
});

test("a missing binary turns the plugin off with one warning and, on the first message, one toast", async () => {
  const client = fakeClient();
  const missing = join(tmpdir(), "no-such-ocmem-binary");
  const hooks = await load(newWorkspace(), client, missing);
  // Nothing runs ocmem any more: the only hook left is the one that tells the user.
  assert.deepEqual(Object.keys(hooks), ["chat.message"]);
  assert.equal(client.logs.length, 1);
  assert.equal(client.logs[0].level, "warn");
  assert.match(client.logs[0].message, /not usable/);
  assert.deepEqual(client.toasts, [], "not while plugins load: the TUI may not listen yet");

  await hooks["chat.message"](...userMessage("ses_t", "msg_1", "hello"));
  await hooks["chat.message"](...userMessage("ses_t", "msg_2", "again"));
  assert.equal(client.toasts.length, 1, JSON.stringify(client.toasts));
  const [toast] = client.toasts;
  assert.equal(toast.variant, "warning");
  assert.equal(toast.title, "ocmem");
  assert.ok(toast.message.includes(JSON.stringify(missing)), toast.message);
  assert.match(toast.message, /working memory is off/);
  assert.match(toast.message, /PATH/);
  assert.match(toast.message, /OCMEM_BIN/);
  assert.equal(client.logs.length, 1, "the toast is not logged again");
});

test("a binary that fails its version check says to run ocmem doctor", async () => {
  const client = fakeClient();
  const broken = standInBinary(`echo "ocmem: cannot find the home directory" >&2\nexit 1`);
  const hooks = await load(newWorkspace(), client, broken);
  await hooks["chat.message"](...userMessage("ses_u", "msg_1", "hello"));
  assert.equal(client.toasts.length, 1);
  assert.match(client.toasts[0].message, /`ocmem doctor`/);
  assert.match(client.toasts[0].message, /cannot find the home directory/);
  assert.doesNotMatch(client.toasts[0].message, /\n/);
});

test("a binary that disappears later is toasted once, and the hooks go on", async () => {
  const client = fakeClient();
  const bin = standInBinary(`[ "$1" = --version ] && { echo ocmem 0; exit 0; }\ncat >/dev/null`);
  const hooks = await load(newWorkspace(), client, bin);
  await hooks["tool.execute.after"](...bash("ses_v", "call_1", "ls", "a", 0));
  assert.deepEqual(client.toasts, [], "a binary that runs is not toasted");

  rmSync(bin);
  const output = { system: [] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_v" }, output);
  await hooks["tool.execute.after"](...bash("ses_v", "call_2", "ls", "a", 0));
  await hooks.event({ event: { type: "session.deleted", properties: { sessionID: "ses_v" } } });
  assert.deepEqual(output.system, []);
  assert.equal(client.toasts.length, 1, JSON.stringify(client.toasts));
  assert.ok(client.toasts[0].message.includes(JSON.stringify(bin)), client.toasts[0].message);
  assert.match(client.toasts[0].message, /OCMEM_BIN/);
  // Each failed call is still logged.
  assert.equal(client.logs.filter((l) => l.level === "error").length, 3, JSON.stringify(client.logs));
});

test("a toast that fails never fails a hook", async () => {
  const missing = join(tmpdir(), "no-such-ocmem-binary");
  const throwing = fakeClient();
  throwing.tui.showToast = () => {
    throw new Error("no TUI");
  };
  const rejecting = fakeClient();
  rejecting.tui.showToast = async () => {
    throw new Error("no TUI");
  };
  const without = fakeClient();
  delete without.tui;
  for (const client of [throwing, rejecting, without]) {
    const hooks = await load(newWorkspace(), client, missing);
    await hooks["chat.message"](...userMessage("ses_w", "msg_1", "hello"));
  }
  // A rejection left unhandled would fail this file's run.
  await new Promise((resolve) => setTimeout(resolve, 10));
});

test("a hanging binary is killed and the hook goes on", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ocmem-plugin-bin-"));
  const slow = join(dir, "slow-ocmem");
  // Answers --version at once, then hangs on every hook before printing a block.
  writeFileSync(slow, `#!/bin/sh\n[ "$1" = --version ] && { echo ocmem 0; exit 0; }\nexec sleep 30\necho 'Workspace memory: too late'\n`);
  chmodSync(slow, 0o755);
  const client = fakeClient();
  const hooks = await load(newWorkspace(), client, slow);
  const output = { system: [] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_e" }, output);
  assert.deepEqual(output.system, []);
  assert.ok(client.logs.some((l) => /killed/.test(l.message)), JSON.stringify(client.logs));
});

test("handlers never throw, whatever OpenCode passes", async () => {
  const hooks = await load(newWorkspace());
  await hooks["chat.message"](undefined, undefined);
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_f" }, undefined);
  await hooks["tool.execute.after"]({ sessionID: "ses_f" }, null);
  await hooks["experimental.session.compacting"]({}, {});
  await hooks.event({});
  await hooks.event({ event: { type: "session.compacted", properties: {} } });
  await hooks.event({ event: { type: "file.edited", properties: { file: "x" } } });
});
