// The two parsers that need no server: server-sent events split across arbitrary chunks,
// and Retry-After in both of its forms.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readEvents } from "memwarden-client";
import { retryAfter } from "../dist/transport.js";

function streamOf(chunks) {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

test("events are parsed whatever the chunks, and an unfinished one is dropped", async () => {
  const text =
    ': comment\r\nevent: token\r\ndata: {"text":"a"}\r\n\r\nevent: done\ndata: {"x":\ndata: 1}\n\nevent: token\ndata: cut';
  const expected = [
    { event: "token", data: '{"text":"a"}' },
    { event: "done", data: '{"x":\n1}' },
  ];
  for (const size of [1, 2, 3, 7, text.length]) {
    const chunks = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    const events = [];
    for await (const event of readEvents(streamOf(chunks))) events.push(event);
    assert.deepEqual(events, expected, `chunks of ${size}`);
  }
});

test("retry-after is read as seconds or as an HTTP date", () => {
  assert.equal(retryAfter("1"), 1);
  assert.equal(retryAfter(null), undefined);
  assert.equal(retryAfter("soon"), undefined);
  const inTwoSeconds = new Date(Date.now() + 2500).toUTCString();
  const seconds = retryAfter(inTwoSeconds);
  assert.ok(seconds > 0.5 && seconds <= 2.5, String(seconds));
});

test("the built library uses no Node built-ins, so edge runtimes can load it", async () => {
  const { readdir, readFile } = await import("node:fs/promises");
  const dist = new URL("../dist/", import.meta.url);
  const files = (await readdir(dist)).filter((name) => name.endsWith(".js"));
  assert.ok(files.includes("index.js") && files.includes("client.js"), String(files));
  for (const name of files) {
    const code = await readFile(new URL(name, dist), "utf8");
    const imports = [...code.matchAll(/\bfrom\s+"([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(
      imports.filter((spec) => !spec.startsWith("./") && spec !== "ai"),
      [],
      `${name} imports a package`,
    );
    assert.doesNotMatch(code, /\b(require\(|import\(|process\.|Buffer\b|__dirname)/, name);
  }
});
