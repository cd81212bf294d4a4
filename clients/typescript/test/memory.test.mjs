import assert from "node:assert/strict";
import { test } from "node:test";
import { JudgeRefusedError, Memwarden, PermissionDeniedError } from "memwarden-client";
import { env, freshContext } from "./helpers.mjs";

test("a remembered fact comes back through query, profile and state", async () => {
  const client = new Memwarden({ url: env.url, key: env.key, contextId: env.contextId });
  const written = await client.remember("I'm Alice, CTO at Acme. Always answer in French.");
  assert.equal(written.held, false);
  assert.ok(written.sessionId && written.turnId);
  assert.deepEqual(written.extraction.entities.map((e) => e.name).slice(0, 1), ["Alice"]);

  const recalled = await client.query("Acme CTO", { limit: 5 });
  assert.ok(
    recalled.hits.some((hit) => hit.text.includes("Acme")),
    JSON.stringify(recalled),
  );
  const profile = await client.profile({ entity: "Alice" });
  assert.match(JSON.stringify(profile), /CTO/);
  const state = await client.state();
  assert.match(JSON.stringify(state.instructions), /Always answer in French/);
  assert.equal((await client.context()).id, env.contextId);
});

test("a batch answers every item", async () => {
  const { client } = await freshContext("batch");
  const answer = await client.rememberBatch([
    { text: "I live in Paris." },
    { text: "I like tea.", infer: "none" },
  ]);
  assert.equal(answer.extractions.length, 2);
});

test("a held write says it is held", async () => {
  const { client } = await freshContext("held", { judge: { enabled: true, on_warn: "hold" } });
  const written = await client.remember("My email is alice@example.com.");
  assert.equal(written.held, true);
  const holds = await client.judgements.list({ held: true }).toArray();
  assert.ok(holds.length > 0);
  for (const hold of holds) {
    assert.equal(hold.turn_id, written.turnId);
    assert.deepEqual(hold.reasons, ["personal_data"]);
  }
  for (const hold of holds) {
    const decided = await client.judgements.approve(hold.id);
    assert.equal(decided.judgement.hold_decision, "approved");
  }
  assert.deepEqual(await client.judgements.list({ held: true }).toArray(), []);
});

test("a judge refusal is an error with the reason code and without the content", async () => {
  const { client } = await freshContext("refused", { judge: { enabled: true } });
  const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  const refusal = await client.remember(`The deploy key is ${secret}`).then(
    () => assert.fail("the write was not refused"),
    (error) => error,
  );
  assert.ok(refusal instanceof JudgeRefusedError, String(refusal));
  assert.equal(refusal.status, 422);
  assert.equal(refusal.code, "judge_refused");
  assert.deepEqual(refusal.reasons, ["credential"]);
  assert.ok(!JSON.stringify({ body: refusal.body, message: refusal.message }).includes(secret));
  assert.ok(!String(refusal.stack).includes(secret));
});

test("a key without the grant gets a permission error naming its code", async () => {
  const { client: owner, contextId } = await freshContext("grants");
  const issued = await owner.keys.issue({ subject: "reader", grants: ["memory_read"] });
  const reader = new Memwarden({ url: env.url, key: issued.key, contextId });
  const error = await reader.remember("I like tea.").catch((e) => e);
  assert.ok(error instanceof PermissionDeniedError, String(error));
  assert.equal(error.status, 403);
  assert.equal(error.code, "missing_grant");
});

test("lists follow the cursor to the last page", async () => {
  const { client } = await freshContext("pages");
  const uploaded = [];
  for (const n of [1, 2, 3])
    uploaded.push((await client.documents.upload(`note ${n}`, { filename: `n${n}.txt` })).id);

  const first = await client.documents.list({ limit: 2 });
  assert.equal(first.documents.length, 2);
  assert.ok(first.next_cursor);
  const pages = [];
  for await (const page of client.documents.list({ limit: 2 }).pages()) pages.push(page.documents.length);
  assert.deepEqual(pages, [2, 1]);
  const seen = [];
  for await (const document of client.documents.list({ limit: 2 })) seen.push(document.id);
  assert.deepEqual([...seen].sort(), [...uploaded].sort());
  assert.equal((await client.documents.list({ limit: 1 }).toArray(2)).length, 2);
});
