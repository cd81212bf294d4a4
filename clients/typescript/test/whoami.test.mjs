// A client made with the key alone learns its Context from GET /whoami, once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AuthenticationError, InvalidRequestError, Memwarden } from "memwarden-client";
import { admin, env, freshContext } from "./helpers.mjs";

/** The global fetch, noting each path it is asked for. */
function counting() {
  const paths = [];
  const fetchImpl = (input, init) => {
    paths.push(new URL(String(input)).pathname);
    return fetch(input, init);
  };
  return { paths, fetchImpl };
}

test("a client without contextId asks whoami once, then names its Context in every path", async () => {
  const { key, contextId } = await freshContext("whoami");
  const { paths, fetchImpl } = counting();
  const client = new Memwarden({ url: env.url, key, fetch: fetchImpl });
  assert.equal(client.contextId, undefined);

  await client.memory.search({ contract_version: 1, scope: { visibility: "shared" }, query: "x" });
  assert.ok(!paths.includes("/api/v1/whoami"), "the memory contract names no Context");

  // Two first calls at once share one question.
  const [written, state] = await Promise.all([
    client.remember("I'm Dana, I lead the platform team at Initech."),
    client.state(),
  ]);
  assert.equal(client.contextId, contextId);
  assert.equal(written.held, false);
  assert.ok(state.instructions);
  assert.deepEqual(await client.documents.list().toArray(), []);
  const events = [];
  for await (const event of client.chatStream("Who is Dana?", { remember: false })) events.push(event.event);
  assert.equal(events[0], "memories");
  assert.equal(events.at(-1), "done");
  assert.equal((await client.context()).id, contextId);

  assert.equal(paths.filter((p) => p === "/api/v1/whoami").length, 1);
  assert.ok(paths.includes(`/api/v1/${contextId}/facts`), JSON.stringify(paths));
  assert.ok(!paths.some((p) => p.includes("{context}") || p.includes("%7Bcontext%7D")));
});

test("whoami answers the key's Context, principal and effective grants", async () => {
  const { contextId } = await freshContext("whoami-grants");
  const reader = await admin().keys.issue(contextId, {
    subject: "bob",
    grants: ["memory_read"],
    scope: "user/bob",
  });
  const client = new Memwarden({ url: env.url, key: reader.key });
  const me = await client.whoami();
  assert.equal(me.context_id, contextId);
  assert.equal(client.contextId, contextId);
  assert.equal(me.subject, "bob");
  assert.equal(me.key_scope, "user/bob");
  assert.deepEqual(me.grants, { memory_read: ["user/bob"] });
  assert.deepEqual(me.key_grants, ["memory_read"]);
});

test("without contextId a bad key is a 401 and the admin token a 400 naming context_key_required", async () => {
  const stranger = new Memwarden({ url: env.url, key: `mwk_${"0".repeat(32)}_nope` });
  await assert.rejects(stranger.remember("I am Alice."), (error) => {
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 401);
    return true;
  });
  const adminAsKey = new Memwarden({ url: env.url, key: env.adminToken });
  await assert.rejects(adminAsKey.query("anything"), (error) => {
    assert.ok(error instanceof InvalidRequestError);
    assert.equal(error.status, 400);
    assert.equal(error.code, "context_key_required");
    return true;
  });
  assert.equal(adminAsKey.contextId, undefined);
});
