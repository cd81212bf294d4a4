import assert from "node:assert/strict";
import { test } from "node:test";
import { NotFoundError } from "memwarden-client";
import { freshContext } from "./helpers.mjs";

test("an uploaded document is processed, found by recall, and deleted", async () => {
  const { client } = await freshContext("documents");
  const text = "Orbital Widgets Ltd makes the quietest gyroscopes in Leeds.";
  const uploaded = await client.documents.upload(new Blob([text], { type: "text/markdown" }), {
    filename: "widgets.md",
    scope: "org/acme",
  });
  assert.equal(uploaded.filename, "widgets.md");
  assert.equal(uploaded.sizeBytes, text.length);

  const done = await client.documents.wait(uploaded.id, { waitMs: 60_000, intervalMs: 200 });
  assert.equal(done.status, "processed", JSON.stringify(done));
  assert.equal(done.chunks, 1);
  const recalled = await client.query("quietest gyroscopes", { kinds: ["chunk"] });
  assert.ok(
    recalled.hits.some((hit) => hit.text.includes("gyroscopes")),
    JSON.stringify(recalled),
  );

  await client.documents.delete(uploaded.id);
  await assert.rejects(client.documents.get(uploaded.id), NotFoundError);
});
