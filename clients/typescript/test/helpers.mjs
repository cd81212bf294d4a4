// What every node test needs: the live server the pytest test started, and fresh
// Contexts made through the admin client so that one test's configuration stays its own.
import { Memwarden, MemwardenAdmin } from "memwarden-client";

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through tests/clients/typescript`);
  return value;
}

export const env = {
  get url() {
    return required("MEMWARDEN_URL");
  },
  get key() {
    return required("MEMWARDEN_KEY");
  },
  get contextId() {
    return required("MEMWARDEN_CONTEXT");
  },
  get adminToken() {
    return required("MEMWARDEN_ADMIN_TOKEN");
  },
  get busyUrl() {
    return required("MEMWARDEN_BUSY_URL");
  },
};

export function admin(url = env.url) {
  return new MemwardenAdmin({ url, token: env.adminToken });
}

/** A new Context with an owner key (every grant), optionally configured, and its client. */
export async function freshContext(name, config = undefined, url = env.url) {
  const created = await admin(url).contexts.create({ name, owner_subject: "alice" });
  if (config) await admin(url).config.patch(created.id, config);
  const client = new Memwarden({ url, key: created.owner_key.key, contextId: created.id });
  return { client, contextId: created.id, key: created.owner_key.key };
}
