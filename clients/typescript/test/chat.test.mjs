import assert from "node:assert/strict";
import { test } from "node:test";
import { Memwarden, PermissionDeniedError } from "memwarden-client";
import { admin, env, freshContext } from "./helpers.mjs";

test("the chat stream gives memories, then tokens that make the answer, then done", async () => {
  const { client } = await freshContext("chat");
  await client.remember("I'm Alice, CTO at Acme.");
  const events = [];
  for await (const event of client.chatStream("Where does Alice work?", { remember: false }))
    events.push(event);

  assert.deepEqual([...new Set(events.map((e) => e.event))], ["memories", "token", "done"]);
  assert.equal(events[0].event, "memories");
  assert.ok(events[0].data.memories.length > 0);
  assert.equal(events.at(-1).event, "done");
  assert.equal(events.at(-1).data.turnId, null);
  const streamed = events
    .filter((e) => e.event === "token")
    .map((e) => e.data.text)
    .join("");
  const answered = await client.chat("Where does Alice work?", { remember: false });
  assert.equal(streamed, answered.answer);
  assert.match(streamed, /Acme/);
});

test("a stream refused before it starts throws the server's error", async () => {
  const { contextId } = await freshContext("chat-refused");
  const issued = await admin().keys.issue(contextId, { subject: "writer", grants: ["memory_write"] });
  const writer = new Memwarden({ url: env.url, key: issued.key, contextId });
  await assert.rejects(
    async () => {
      for await (const _ of writer.chatStream("hello")) assert.fail("an event came");
    },
    (error) => error instanceof PermissionDeniedError && error.code === "missing_grant",
  );
});

test("a stream that fails after it started ends with an error event", async () => {
  const { client } = await freshContext(
    "chat-broken",
    { models: { chat: { provider: "openai", model: "broken-model" } } },
    env.busyUrl,
  );
  const events = [];
  for await (const event of client.chatStream("hello", { remember: false })) events.push(event);
  assert.deepEqual(
    events.map((e) => e.event),
    ["memories", "token", "error"],
  );
  assert.equal(events[1].data.text, "Hel");
  assert.equal(events[2].data.error.code, "model_provider_error");
});
