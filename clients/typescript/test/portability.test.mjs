// A record's history, the export's JSON Lines and an import job, through the client.
import assert from "node:assert/strict";
import { test } from "node:test";
import { NotFoundError } from "memwarden-client";
import { freshContext } from "./helpers.mjs";

const shared = { visibility: "shared" };

test("a record's history lists its revisions newest first", async () => {
  const { client } = await freshContext("history");
  const note = await client.memory.commands({
    scope: shared,
    command: { contract_version: 1, op: "create", content: "Green tea." },
  });
  await client.memory.commands({
    scope: shared,
    command: {
      contract_version: 1,
      op: "update",
      record_id: note.record_id,
      expected_revision: 1,
      content: "Black tea.",
    },
  });
  const history = await client.recordHistory(note.record_id);
  assert.equal(history.record_id, note.record_id);
  assert.deepEqual(
    history.revisions.map((r) => r.revision),
    [2, 1],
  );
  assert.ok((await client.recordHistory(note.record_id, { limit: 1 })).next_cursor);
  await assert.rejects(client.recordHistory("00000000-0000-4000-8000-000000000000"), NotFoundError);
});

test("an export streams its lines and an import of texts runs to done with progress", async () => {
  const { client } = await freshContext("portability");
  await client.memory.commands({
    scope: shared,
    command: { contract_version: 1, op: "create", content: "The launch window opens in May." },
  });
  const lines = [];
  for await (const line of client.export()) lines.push(line);
  assert.equal(lines[0].kind, "header");
  assert.equal(lines.at(-1).kind, "end");
  assert.ok(lines.some((line) => line.kind === "record" && JSON.stringify(line).includes("launch window")));

  const body = [JSON.stringify("I love jazz."), JSON.stringify({ text: "I live in Porto." })].join("\n");
  const seen = [];
  const started = await client.imports.start(body, {
    sourceDir: "exports/texts",
    format: "texts",
    scope: "user/alice",
    onProgress: (sent, total) => seen.push([sent, total]),
  });
  assert.equal(started.format, "texts");
  assert.equal(started.total, 2);
  assert.deepEqual(seen.at(-1), [body.length, body.length]);
  const done = await client.imports.wait(started.importId, { waitMs: 60_000, intervalMs: 200 });
  assert.equal(done.status, "done", JSON.stringify(done));
  assert.equal(done.counts.imported, 2);
  const found = await client.query("Porto", { scope: ["user/alice"] });
  assert.ok(
    found.hits.some((hit) => hit.text.includes("Porto")),
    JSON.stringify(found),
  );
});
