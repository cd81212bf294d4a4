// Retries against the real server: a second server on the same database lets a Context
// have one request in flight (MEMWARDEN_CONTEXT_MAX_IN_FLIGHT=1) and answers chat slowly
// (a scripted model that takes seconds), so a request sent meanwhile is refused 429
// `context_busy` with Retry-After: 1. Only the timeout needs a local server: one that
// never answers.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";
import { Memwarden, MemwardenTimeoutError, RateLimitedError } from "memwarden-client";
import { env, freshContext } from "./helpers.mjs";

/** A fetch that records each answer's status, to see the attempts a call made. */
function recordingFetch() {
  const statuses = [];
  const record = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { statuses, fetch: record };
}

test("a 429 is retried after the server's Retry-After, and refused without retries", async () => {
  const { key, contextId } = await freshContext("busy", undefined, env.busyUrl);
  const client = new Memwarden({ url: env.busyUrl, key, contextId, maxRetries: 0 });
  // The slow chat holds the Context's one slot once the server has authenticated it. It
  // may lose the race for the slot to the first probe below: then it is sent again.
  const holder = new Memwarden({ url: env.busyUrl, key, contextId, maxRetries: 5 });
  const slow = holder.chat(`hold the slot ${Date.now()}`, { remember: false });

  let refusal;
  for (let tries = 0; tries < 250 && refusal === undefined; tries++) {
    refusal = await client.state().then(
      () => new Promise((resolve) => setTimeout(() => resolve(undefined), 20)),
      (error) => error,
    );
  }
  assert.ok(refusal instanceof RateLimitedError, String(refusal));
  assert.equal(refusal.code, "context_busy");
  assert.equal(refusal.retryAfter, 1);

  const recorder = recordingFetch();
  const retries = [];
  const patient = new Memwarden({
    url: env.busyUrl,
    key,
    contextId,
    maxRetries: 5,
    fetch: recorder.fetch,
    onRetry: (event) => retries.push(event),
  });
  const started = performance.now();
  const state = await patient.state();
  const elapsed = performance.now() - started;
  assert.ok(state.instructions !== undefined);
  assert.equal(recorder.statuses[0], 429);
  assert.equal(recorder.statuses.at(-1), 200);
  assert.ok(elapsed >= 950 * (recorder.statuses.length - 1), `${elapsed} ms for ${recorder.statuses}`);
  assert.equal(retries.length, recorder.statuses.length - 1);
  assert.deepEqual(retries[0], {
    method: "GET",
    path: `/api/v1/${contextId}/state`,
    attempt: 1,
    status: 429,
    waitMs: 1000,
  });
  await slow;
});

test("a request past its timeout is a timeout error, and the caller's signal aborts it", async (t) => {
  const silent = createServer(() => {});
  await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    silent.closeAllConnections();
    silent.close();
  });
  const url = `http://127.0.0.1:${silent.address().port}`;
  const client = new Memwarden({ url, key: "mwk_x", contextId: "c", timeoutMs: 200 });

  const started = performance.now();
  const error = await client.state().catch((e) => e);
  assert.ok(error instanceof MemwardenTimeoutError, String(error));
  assert.equal(error.code, "timeout");
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 190 && elapsed < 2000, `${elapsed} ms`);

  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("stop")), 50);
  await assert.rejects(client.state({}, { signal: controller.signal, timeoutMs: 0 }), /stop/);
});
