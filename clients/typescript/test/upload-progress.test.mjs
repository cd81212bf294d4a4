// documents.upload with onProgress: told the bytes handed to fetch, in steps, to the end.
import assert from "node:assert/strict";
import { test } from "node:test";
import { freshContext } from "./helpers.mjs";

test("an upload reports its progress from zero to the whole multipart body, then is processed", async () => {
  const { client } = await freshContext("upload-progress");
  const line = "Orbital Widgets Ltd makes the quietest gyroscopes in Leeds.\n";
  const text = line.repeat(Math.ceil((200 * 1024) / line.length)); // past three 64 KiB steps
  const seen = [];
  const uploaded = await client.documents.upload(text, {
    filename: "widgets.txt",
    scope: "org/acme",
    onProgress: (sent, total) => seen.push([sent, total]),
  });
  assert.equal(uploaded.sizeBytes, text.length);
  const total = seen[0][1];
  assert.ok(total > text.length, "the total is the multipart body, the file and its framing");
  assert.deepEqual(seen[0], [0, total]);
  assert.deepEqual(seen.at(-1), [total, total]);
  assert.ok(seen.length >= 5, JSON.stringify(seen));
  for (let i = 1; i < seen.length; i++) {
    assert.ok(seen[i][0] > seen[i - 1][0], "each step sends more");
    assert.equal(seen[i][1], total);
  }
  const done = await client.documents.wait(uploaded.id, { waitMs: 60_000, intervalMs: 200 });
  assert.equal(done.status, "processed", JSON.stringify(done));
});

test("an upload without onProgress is sent as before", async () => {
  const { client } = await freshContext("upload-plain");
  const uploaded = await client.documents.upload("A short note about tea.", { filename: "tea.txt" });
  assert.equal(uploaded.filename, "tea.txt");
});
