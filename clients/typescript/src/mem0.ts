/**
 * A mem0-shaped facade over memwarden: `new Memory(client)` with mem0's verbs (`add`,
 * `search`, `getAll`, `get`, `update`, `delete`, `deleteAll`, `history`), mapped the way
 * the Python client's `memwarden_client.mem0` maps them (docs/clients/typescript.md):
 *
 * - `userId: "alice"` is the scope `user/alice`; `agentId: "bot"` adds `agent/bot`
 *   (`user/alice/agent/bot`, or `agent/bot` alone).
 * - `runId` is a session: the first `add` of a run starts one, later adds of the same run
 *   continue it (kept by this `Memory` object). Reads are not narrowed by run.
 * - `add(messages)` writes the user's messages as one turn to `/facts`; assistant and
 *   system messages are left out (memwarden reads "I" as the speaker). `infer: false`
 *   stores the turn without extraction.
 * - `metadata` is not stored (memwarden keeps provenance itself); passing it warns.
 * - `get`, `update`, `delete` and `history` work on record ids through the memory contract.
 */
import type { Memwarden } from "./client.js";
import { NotFoundError } from "./errors.js";
import type * as T from "./types.js";

export type Message = { role?: string; content?: string | null };
export type Messages = string | Message | Message[];

/** Which ids an add, search or deleteAll is about; at least one is needed. */
export interface Ids {
  userId?: string;
  agentId?: string;
  runId?: string;
}

export interface AddOptions extends Ids {
  metadata?: Record<string, unknown>;
  /** false: store the turn as text, without extraction (default true). */
  infer?: boolean;
}

/** `kinds` and `categories` are the only filters memwarden applies (metadata is not stored). */
export interface Filters {
  kinds?: string[];
  categories?: string[];
}

export interface SearchOptions extends Ids {
  /** 1 to 100 (default 100). */
  limit?: number;
  filters?: Filters;
}

export interface GetAllOptions extends Ids {
  limit?: number;
  filters?: Filters;
}

/** One memory as mem0 answers it, with memwarden's kind and scope in `metadata`. */
export interface MemoryItem {
  id: string;
  memory: string;
  kind?: string;
  score?: number;
  revision?: number;
  event?: string;
  createdAt?: string | null;
  updatedAt?: string | null;
  userId?: string | undefined;
  agentId?: string | undefined;
  metadata?: Record<string, unknown>;
}

export interface HistoryItem {
  id: string;
  memoryId: string;
  event: string;
  revision: number | null;
  createdAt: string;
  newMemory?: string;
}

const FACT_KINDS = ["attribute", "relation", "action", "instruction", "uncertainty", "note"];
const RECORD_LISTS = ["attributes", "relations", "actions", "instructions", "uncertainties"] as const;
const EVENTS: Record<string, string> = {
  created: "ADD",
  updated: "UPDATE",
  superseded: "UPDATE",
  deleted: "DELETE",
};
const SHARED = { visibility: "shared" } as const;
const PRIVATE = { visibility: "private" } as const;
type Visibility = typeof SHARED | typeof PRIVATE;
type Entry = Record<string, unknown>;

/** `user/<userId>` and/or `agent/<agentId>`; undefined is the Context root. */
export function scopePath(userId?: string, agentId?: string): string | undefined {
  const parts: string[] = [];
  if (userId) parts.push("user", String(userId));
  if (agentId) parts.push("agent", String(agentId));
  return parts.length ? parts.join("/") : undefined;
}

/** The user's messages as one turn's text (a plain string is one user message). */
export function userText(messages: Messages): string {
  if (typeof messages === "string") return messages;
  const items = Array.isArray(messages) ? messages : [messages];
  return items
    .filter((item) => (item.role ?? "user") === "user")
    .map((item) => String(item.content ?? "").trim())
    .filter(Boolean)
    .join("\n");
}

function requireIds(ids: Ids): void {
  if (!(ids.userId || ids.agentId || ids.runId)) {
    throw new TypeError("at least one of userId, agentId or runId must be given");
  }
}

function kindsOf(filters: Filters | undefined): { kinds: string[]; categories?: string[] } {
  const { kinds, categories, ...rest } = (filters ?? {}) as Filters & Record<string, unknown>;
  const others = Object.keys(rest);
  if (others.length) {
    throw new TypeError(
      `memwarden cannot filter on ${others.sort().join(", ")}: only kinds and categories (mem0 metadata is not stored)`,
    );
  }
  return { kinds: kinds ?? FACT_KINDS, ...(categories ? { categories } : {}) };
}

/** userId and agentId read back from a scope path. */
function idsOf(path: string | null | undefined): { userId?: string; agentId?: string } {
  const segments = (path ?? "").split("/");
  const out: { userId?: string; agentId?: string } = {};
  for (let i = 0; i + 1 < segments.length; i += 2) {
    if (segments[i] === "user") out.userId = segments[i + 1];
    if (segments[i] === "agent") out.agentId = segments[i + 1];
  }
  return out;
}

function hitItem(hit: T.MemoryHit): MemoryItem {
  return {
    id: hit.id,
    memory: hit.text ?? "",
    score: hit.score ?? undefined,
    kind: hit.kind,
    createdAt: (hit.validFrom as string | null | undefined) ?? null,
    updatedAt: null,
    metadata: { scope: hit.scope.path, source: hit.source.kind },
    ...idsOf(hit.scope.path as string | null | undefined),
  };
}

type ContractRecord = T.ReadAnswer["record"];

function recordItem(record: ContractRecord): MemoryItem {
  const scope = record.scope as { path?: string | null; visibility?: string };
  return {
    id: record.id,
    memory: (record.body as string | null | undefined) ?? "",
    kind: record.kind,
    revision: record.revision,
    createdAt: record.created_at as string | null,
    updatedAt: record.modified_at as string | null,
    metadata: { scope: scope.path ?? null, visibility: scope.visibility },
    ...idsOf(scope.path),
  };
}

function under(path: string | null | undefined, prefix: string | undefined): boolean {
  if (!prefix) return true;
  return path === prefix || (path ?? "").startsWith(`${prefix}/`);
}

function entryText(entry: Entry, entity: string | undefined): string {
  if ("key" in entry) {
    return `${entity ?? ""} — ${String(entry.key)}: ${String(entry.value ?? "")}`.replace(
      /^[ —]+|[ —]+$/g,
      "",
    );
  }
  if ("label" in entry) {
    const label = String(entry.label).replace(/_/g, " ");
    return [entry.subject, label, entry.object].filter(Boolean).map(String).join(" ");
  }
  return String(entry.text ?? entry.about ?? entry.description ?? "");
}

/** mem0's `results` of an add: the new records (or, without inference or held, the turn). */
function added(written: T.FactsResponse, text: string, infer: boolean): MemoryItem[] {
  if (!infer) return [{ id: written.turnId, memory: text, event: "ADD", kind: "turn" }];
  if (written.held) return [{ id: written.turnId, memory: text, event: "HELD", kind: "turn" }];
  const extraction = written.extraction as unknown as Record<string, Entry[] | undefined>;
  const names = new Map<unknown, string>();
  for (const entity of extraction.entities ?? []) names.set(entity.id, String(entity.name ?? ""));
  const out: MemoryItem[] = [];
  for (const list of RECORD_LISTS) {
    for (const entry of extraction[list] ?? []) {
      if (!entry || typeof entry !== "object" || !entry.id) continue;
      const event = entry.isNew === false ? "NONE" : "ADD";
      out.push({ id: String(entry.id), memory: entryText(entry, names.get(entry.entityId)), event });
    }
  }
  return out;
}

/** mem0's `Memory` verbs on a `Memwarden` client (its Context id may be left to whoami). */
export class Memory {
  private readonly sessions = new Map<string, string>();

  constructor(readonly client: Memwarden) {}

  async add(messages: Messages, options: AddOptions = {}): Promise<{ results: MemoryItem[] }> {
    requireIds(options);
    if (options.metadata && Object.keys(options.metadata).length) {
      console.warn("memwarden does not store mem0 metadata; it was dropped");
    }
    const text = userText(messages);
    if (!text) return { results: [] };
    const infer = options.infer ?? true;
    const path = scopePath(options.userId, options.agentId);
    const sessionId = options.runId ? this.sessions.get(options.runId) : undefined;
    const written = await this.client.remember(text, {
      ...(path ? { scope: [path] } : {}),
      ...(sessionId ? { sessionId } : {}),
      infer: infer ? "full" : "none",
    });
    if (options.runId) this.sessions.set(options.runId, written.sessionId);
    return { results: added(written, text, infer) };
  }

  async search(query: string, options: SearchOptions = {}): Promise<{ results: MemoryItem[] }> {
    requireIds(options);
    const path = scopePath(options.userId, options.agentId);
    const found = await this.client.query(query, {
      ...(path ? { scope: [path] } : {}),
      limit: Math.min(Math.max(options.limit ?? 100, 1), 100),
      ...(kindsOf(options.filters) as Pick<T.QueryOptions, "kinds" | "categories">),
    });
    return { results: found.hits.map(hitItem) };
  }

  /** The newest records under the ids' scope, among the newest 100 the key reads. */
  async getAll(options: GetAllOptions = {}): Promise<{ results: MemoryItem[] }> {
    const prefix = scopePath(options.userId, options.agentId);
    const found = await this.client.memory.search({
      contract_version: 1,
      scope: SHARED,
      filter: kindsOf(options.filters),
      limit: 100,
    } as T.SearchRequest);
    const items = found.hits
      .filter((hit) => under((hit.record.scope as { path?: string | null }).path, prefix))
      .map((hit) => recordItem(hit.record));
    return { results: items.slice(0, options.limit ?? 100) };
  }

  private async record(memoryId: string): Promise<ContractRecord | undefined> {
    for (const scope of [SHARED, PRIVATE]) {
      try {
        const read = await this.client.memory.read({
          contract_version: 1,
          scope,
          record_id: memoryId,
        } as T.ReadRequest);
        return read.record;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return undefined;
  }

  async get(memoryId: string): Promise<MemoryItem | null> {
    const record = await this.record(memoryId);
    return record ? recordItem(record) : null;
  }

  private command(command: Record<string, unknown>, scope: Visibility): Promise<T.CommandResult> {
    return this.client.memory.commands({
      scope,
      command: { contract_version: 1, ...command },
    } as T.CommandRequest);
  }

  /**
   * A note is updated in place at its revision; an extracted record is written anew in
   * its scope, after which the old one leaves serving (superseded, else deleted).
   */
  async update(memoryId: string, data: string): Promise<Record<string, unknown>> {
    const record = await this.record(memoryId);
    if (!record) throw notFound();
    const scopeOf = record.scope as { path?: string | null; visibility?: string };
    const scope = scopeOf.visibility === "private" ? PRIVATE : SHARED;
    if (record.kind === "note") {
      await this.command(
        { op: "update", record_id: record.id, expected_revision: record.revision, content: data },
        scope,
      );
      return { message: "Memory updated successfully!", id: memoryId };
    }
    const written = await this.client.remember(data, {
      ...(scopeOf.path ? { scope: [scopeOf.path] } : {}),
      visibility: scope.visibility,
    });
    if (written.held) return { message: "Memory update held for review", id: memoryId };
    const still = await this.record(memoryId);
    if (still) {
      await this.command({ op: "delete", record_id: memoryId, expected_revision: still.revision }, scope);
    }
    const replacedBy = added(written, data, true).map((item) => item.id);
    return { message: "Memory updated successfully!", id: memoryId, replacedBy };
  }

  async delete(memoryId: string): Promise<{ message: string }> {
    for (const scope of [SHARED, PRIVATE]) {
      let revision: number;
      try {
        const answer = await this.client.memory.reviewState({
          contract_version: 1,
          scope,
          record_id: memoryId,
        } as T.ReadRequest);
        revision = Number(answer.state.revision);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        continue;
      }
      await this.command({ op: "delete", record_id: memoryId, expected_revision: revision }, scope);
      return { message: "Memory deleted successfully!" };
    }
    throw notFound();
  }

  async deleteAll(options: Ids = {}): Promise<{ message: string }> {
    requireIds(options);
    for (;;) {
      const { results } = await this.getAll({
        ...(options.userId ? { userId: options.userId } : {}),
        ...(options.agentId ? { agentId: options.agentId } : {}),
      });
      if (!results.length) return { message: "Memories deleted successfully!" };
      for (const item of results) await this.delete(item.id);
    }
  }

  /**
   * The record's changes in commit order (ids and kinds; the content of the current
   * revision only, since memwarden's feed never carries content).
   */
  async history(memoryId: string): Promise<HistoryItem[]> {
    const events: HistoryItem[] = [];
    for await (const change of this.client.changes()) {
      if (change.record_id !== memoryId) continue;
      events.push({
        id: String(change.seq),
        memoryId: change.record_id,
        event: EVENTS[change.entry_type] ?? change.entry_type.toUpperCase(),
        revision: change.revision,
        createdAt: change.at,
      });
    }
    const current = await this.record(memoryId);
    const last = events[events.length - 1];
    if (last && current) last.newMemory = (current.body as string | null | undefined) ?? "";
    return events;
  }
}

function notFound(): NotFoundError {
  return new NotFoundError({ status: 404, code: "not_found", message: "no such memory", field: "memoryId" });
}
