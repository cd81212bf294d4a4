import assert from "node:assert/strict";
import { test } from "node:test";
import { AuthenticationError, InvalidRequestError, Memwarden, PermissionDeniedError } from "memwarden-client";
import { admin, env } from "./helpers.mjs";

test("the admin client creates a Context, issues, lists and revokes its keys", async () => {
  const created = await admin().contexts.create({ name: "admin-test" });
  assert.equal(created.owner_key ?? null, null);
  assert.equal((await admin().contexts.get(created.id)).name, "admin-test");
  const listed = await admin().contexts.list({ limit: 100 }).toArray();
  assert.ok(listed.some((c) => c.id === created.id));

  const issued = [];
  for (const subject of ["ann", "ben", "cat"]) {
    issued.push(await admin().keys.issue(created.id, { subject, grants: ["memory_read", "memory_write"] }));
  }
  const keys = await admin().keys.list(created.id, { limit: 2 }).toArray();
  assert.deepEqual(keys.map((k) => k.subject).sort(), ["ann", "ben", "cat"]);
  assert.ok(
    keys.every((k) => !("key" in k)),
    "a listed key carries no secret",
  );

  const ann = new Memwarden({ url: env.url, key: issued[0].key, contextId: created.id });
  assert.equal((await ann.remember("I like tea.", { infer: "none" })).held, false);
  await admin().keys.revoke(created.id, issued[0].id);
  await assert.rejects(ann.query("tea"), (e) => e instanceof AuthenticationError && e.status === 401);
});

test("the admin client reads and patches a configuration, and a bad field is named", async () => {
  const { id } = await admin().contexts.create({ name: "config-test" });
  const before = await admin().config.get(id);
  assert.equal(before.judge.enabled, false);
  const after = await admin().config.patch(id, { judge: { enabled: true } });
  assert.equal(after.judge.enabled, true);
  const refused = await admin()
    .config.patch(id, { judge: { no_such_field: 1 } })
    .catch((e) => e);
  assert.ok(refused instanceof InvalidRequestError, String(refused));
  assert.match(refused.field ?? "", /judge/);
});

test("the admin client reads health, audit and usage, and memory refuses its token", async () => {
  const health = await admin().health();
  assert.ok(["ok", "degraded", "down"].includes(health.status));
  assert.ok(health.database);
  const { id } = await admin().contexts.create({ name: "audit-test", owner_subject: "alice" });
  const events = await admin().audit(id, { limit: 50 }).toArray();
  assert.ok(events.length > 0);
  assert.ok(await admin().usage(id, { days: 1 }));

  const asAdmin = new Memwarden({ url: env.url, key: env.adminToken, contextId: id });
  await assert.rejects(
    asAdmin.query("anything"),
    (e) => e instanceof PermissionDeniedError && e.code === "context_key_required",
  );
});
