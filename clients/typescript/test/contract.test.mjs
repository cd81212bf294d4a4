// The memory contract and review verbs, and the feeds a manage key reads.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConflictError } from "memwarden-client";
import { freshContext } from "./helpers.mjs";

const scope = { project_id: "p1", mission_id: null, agent_id: "a1", visibility: "shared" };
const v1 = { contract_version: 1, scope };

test("a note is created, read, searched, reviewed with a receipt, and in the change feed", async () => {
  const { client } = await freshContext("contract");
  const created = await client.memory.commands({
    scope,
    command: { contract_version: 1, op: "create", content: "The launch window opens in May." },
  });
  assert.equal(created.revision, 1);
  const read = await client.memory.read({ ...v1, record_id: created.record_id });
  assert.match(JSON.stringify(read), /launch window/);
  const found = await client.memory.search({ ...v1, query: "launch window" });
  assert.match(JSON.stringify(found), new RegExp(created.record_id));

  const decision = {
    contract_version: 1,
    record_id: created.record_id,
    expected_revision: created.revision,
    disposition: "approved",
    evidence_ref: "case://ts/1",
  };
  const decided = await client.memory.reviews({ scope, command: decision });
  assert.equal(decided.receipt.disposition, "approved");
  const state = await client.memory.reviewState({ ...v1, record_id: created.record_id });
  assert.match(JSON.stringify(state), /approved/);
  const receipt = await client.memory.reviewRead({
    ...v1,
    record_id: created.record_id,
    revision: decided.receipt.revision,
  });
  assert.equal(receipt.receipt.receipt_id, decided.receipt.receipt_id);
  assert.ok(await client.memory.eligibility({ ...v1, record_id: created.record_id }));
  await assert.rejects(
    client.memory.reviews({ scope, command: { ...decision, expected_revision: 99 } }),
    (e) => e instanceof ConflictError && e.code === "stale_revision",
  );

  const changes = await client.changes({ limit: 1 }).toArray();
  assert.ok(
    changes.some((entry) => JSON.stringify(entry).includes(created.record_id)),
    JSON.stringify(changes),
  );
  assert.ok((await client.audit({ limit: 10 }).toArray()).length > 0);
  assert.ok(await client.usage({ days: 1 }));
  assert.equal((await client.config.get()).judge.enabled, false);
  assert.equal((await client.keys.list().toArray()).length, 1);
});
