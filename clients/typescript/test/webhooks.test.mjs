// Webhook subscriptions and erasures through the client. The delivery goes from the
// server's worker to a receiver on 127.0.0.1 that this test runs.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { test } from "node:test";
import { InvalidRequestError } from "memwarden-client";
import { freshContext } from "./helpers.mjs";

function receiver() {
  const received = [];
  let arrived;
  const first = new Promise((resolve) => (arrived = resolve));
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, raw: body, body: JSON.parse(body) });
      response.writeHead(204).end();
      arrived();
    });
  });
  return { server, received, first };
}

test("a webhook is created, delivered to, listed, paused, rotated and deleted", async (t) => {
  const { server, received, first } = receiver();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => server.close());
  const { client } = await freshContext("webhooks");

  const url = `http://127.0.0.1:${server.address().port}/hook`;
  const created = await client.webhooks.create({ url, events: ["created"] });
  assert.match(created.secret, /^whsec_/);
  assert.equal((await client.webhooks.get(created.id)).url, url);
  assert.deepEqual(
    (await client.webhooks.list().toArray()).map((w) => w.id),
    [created.id],
  );

  await client.remember("I'm Alice, CTO at Acme.");
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("no delivery in 30 s")), 30_000);
  });
  await Promise.race([first, late]).finally(() => clearTimeout(timer));
  const [delivery] = received;
  assert.equal(delivery.headers["memwarden-event"], "created");
  assert.equal(delivery.body.type, "created");
  assert.equal(delivery.body.id, `feed:${delivery.body.feedId}`);
  const [, stamp, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(delivery.headers["memwarden-signature"]);
  const expected = createHmac("sha256", created.secret).update(`${stamp}.${delivery.raw}`).digest("hex");
  assert.equal(v1, expected, "the delivery is signed with the secret the create answered");
  const deliveries = await client.webhooks.deliveries(created.id).toArray();
  assert.ok(deliveries.length >= 1);

  assert.equal((await client.webhooks.update(created.id, { active: false })).status, "paused");
  const rotated = await client.webhooks.rotateSecret(created.id);
  assert.notEqual(rotated.secret, created.secret);
  await client.webhooks.delete(created.id);
  assert.deepEqual(await client.webhooks.list().toArray(), []);

  const refused = await client.webhooks.create({ url, events: ["no_such_kind"] }).catch((e) => e);
  assert.ok(refused instanceof InvalidRequestError, String(refused));
  assert.equal(refused.field, "events");
});

test("an erasure of a record is requested and waited for", async () => {
  const { client } = await freshContext("erasures");
  const written = await client.remember("I'm Alice, CTO at Acme.");
  const recordIds = written.extraction.attributes.map((a) => a.id);
  assert.ok(recordIds.length > 0);
  const started = await client.erasures.request({ recordIds });
  assert.equal(started.status, "queued");
  const erased = await client.erasures.wait(started.erasureId, { waitMs: 60_000, intervalMs: 200 });
  assert.equal(erased.status, "done", JSON.stringify(erased));
  const after = await client.query("CTO Acme", { kinds: ["attribute"] });
  assert.ok(!after.hits.some((hit) => recordIds.includes(hit.id)), JSON.stringify(after));
});
