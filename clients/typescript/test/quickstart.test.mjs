import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { env, freshContext } from "./helpers.mjs";

const QUICKSTART = fileURLToPath(new URL("../examples/quickstart.mjs", import.meta.url));

test("the quick start runs unchanged against the server", async () => {
  const { key } = await freshContext("quickstart");
  const { stdout } = await promisify(execFile)(process.execPath, [QUICKSTART], {
    env: { ...process.env, MEMWARDEN_URL: env.url, MEMWARDEN_KEY: key, MEMWARDEN_CONTEXT: "" },
    timeout: 60_000,
  });
  assert.match(stdout, /^remembered turn /m);
  assert.match(stdout, /Initech/);
  assert.match(stdout, /^- .*Initech/m);
});
