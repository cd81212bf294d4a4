import assert from "node:assert/strict";
import { test } from "node:test";
import { ConflictError, NotFoundError } from "memwarden-client";
import { freshContext } from "./helpers.mjs";

test("a pass run and a hygiene scan are queued and waited for until they finish", async () => {
  const { client } = await freshContext("runs");
  await client.remember("I'm Alice, CTO at Acme.");

  const pass = await client.passes.run("rollup");
  const finished = await client.passes.wait(pass.runId, { waitMs: 60_000, intervalMs: 200 });
  assert.equal(finished.status, "done", JSON.stringify(finished));
  assert.deepEqual(Object.keys(finished.counts).sort(), ["dropped", "held", "inputs", "written"]);

  const scan = await client.hygiene.scan();
  const scanned = await client.hygiene.wait(scan.runId, { waitMs: 60_000, intervalMs: 200 });
  assert.equal(scanned.status, "done", JSON.stringify(scanned));
  assert.deepEqual(await client.hygiene.queue().toArray(), []);
});

test("an unknown pass and a restore with nothing to restore are the server's errors", async () => {
  const { client } = await freshContext("run-errors");
  const written = await client.remember("I'm Bob.");
  await assert.rejects(
    client.passes.run("nonsense"),
    (e) => e instanceof NotFoundError && e.code === "unknown_pass",
  );
  const entity = written.extraction.entities[0].id;
  await assert.rejects(
    client.hygiene.restore(entity),
    (e) => e instanceof ConflictError && e.code === "nothing_to_restore",
  );
});
