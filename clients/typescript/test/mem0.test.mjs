// The mem0-shaped facade (memwarden-client/mem0) against a live server, on a client
// made with the key alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { JudgeRefusedError, Memwarden } from "memwarden-client";
import { Memory, scopePath, userText } from "memwarden-client/mem0";
import { env, freshContext } from "./helpers.mjs";

async function keyOnly(name, config) {
  const { key, client } = await freshContext(name, config);
  return { memory: new Memory(new Memwarden({ url: env.url, key })), client };
}

test("ids map onto scopes and a run keeps one session", async () => {
  assert.equal(scopePath("alice", "bot"), "user/alice/agent/bot");
  assert.equal(scopePath(undefined, "bot"), "agent/bot");
  assert.equal(
    userText([
      { role: "user", content: "I love jazz." },
      { role: "assistant", content: "I am a robot." },
    ]),
    "I love jazz.",
  );
  const { memory, client } = await keyOnly("mem0-ids");
  await memory.add("I love jazz.", { userId: "alice", runId: "r1" });
  await memory.add([{ role: "user", content: "I live in Porto." }], { userId: "alice", runId: "r1" });
  await memory.add("I love opera.", { userId: "bob" });
  const turns = new Set(
    (await client.query("jazz Porto", { scope: ["user/alice"] })).hits.map((h) => h.source.ref),
  );
  assert.equal(turns.size, 2);

  const alice = (await memory.search("What does she love?", { userId: "alice" })).results;
  assert.ok(
    alice.some((r) => r.memory.includes("jazz")),
    JSON.stringify(alice),
  );
  assert.ok(!alice.some((r) => r.memory.includes("opera")));
  assert.ok(alice.every((r) => r.userId === "alice"));
  const bob = (await memory.getAll({ userId: "bob" })).results;
  assert.ok(bob.length > 0 && bob.every((r) => r.userId === "bob"), JSON.stringify(bob));

  await assert.rejects(memory.add("I love tango."), /userId/);
  await assert.rejects(
    memory.search("jazz", { userId: "alice", filters: { category: "music" } }),
    /metadata/,
  );
});

test("an add without inference stores the turn; get, delete and history work on record ids", async () => {
  const { memory, client } = await keyOnly("mem0-records");
  const [raw] = (await memory.add("Remember the blue door.", { userId: "alice", infer: false })).results;
  assert.equal(raw.kind, "turn");
  assert.equal(raw.memory, "Remember the blue door.");
  assert.deepEqual(
    (await client.query("blue door", { scope: ["user/alice"] })).hits.map((h) => h.kind),
    ["chunk"],
  );
  const results = (await memory.add("I love jazz.", { userId: "alice" })).results;
  const fact = results.find((r) => r.memory.includes("jazz"));
  assert.ok(fact, JSON.stringify(results));
  assert.equal((await memory.get(fact.id)).userId, "alice");
  assert.deepEqual(await memory.delete(fact.id), { message: "Memory deleted successfully!" });
  assert.equal(await memory.get(fact.id), null);
  assert.deepEqual(
    (await memory.history(fact.id)).map((e) => e.event),
    ["ADD", "DELETE"],
  );
});

test("a note is updated in place at its revision, and deleteAll empties a user's memories", async () => {
  const { memory, client } = await keyOnly("mem0-note");
  const note = await client.memory.commands({
    scope: { visibility: "shared" },
    command: { contract_version: 1, op: "create", content: "Green tea." },
  });
  const updated = await memory.update(note.record_id, "Black tea.");
  assert.match(updated.message, /^Memory updated/);
  const after = await memory.get(note.record_id);
  assert.equal(after.memory, "Black tea.");
  assert.equal(after.revision, 2);
  const history = await memory.history(note.record_id);
  assert.deepEqual(
    history.map((e) => e.event),
    ["ADD", "UPDATE"],
  );
  assert.equal(history.at(-1).newMemory, "Black tea.");

  await memory.add("I love jazz. I live in Porto.", { userId: "carol" });
  assert.ok((await memory.getAll({ userId: "carol" })).results.length > 0);
  await memory.deleteAll({ userId: "carol" });
  assert.deepEqual((await memory.getAll({ userId: "carol" })).results, []);
});

test("a held add says HELD and a refused one throws with its reason codes", async () => {
  const { memory } = await keyOnly("mem0-judged", { judge: { enabled: true, on_warn: "hold" } });
  const [held] = (await memory.add("Mail me at alex@example.com.", { userId: "alex" })).results;
  assert.equal(held.event, "HELD");
  await assert.rejects(
    memory.add([{ role: "user", content: "My card is 4111 1111 1111 1111." }], { userId: "a" }),
    (error) => {
      assert.ok(error instanceof JudgeRefusedError);
      assert.deepEqual(error.reasons, ["payment_card"]);
      return true;
    },
  );
});
