/**
 * `Memwarden`: every route a Context key can use, one method each, with the server's
 * own request and answer types. The key decides the principal and grants. The Context id
 * names the Context in every path (the server checks that it is the key's own): given as
 * `contextId`, or asked of `GET /whoami` once, by the first call that needs it.
 */
import { MemwardenTimeoutError } from "./errors.js";
import { Paginator, paginate } from "./pages.js";
import { readEvents } from "./sse.js";
import { type ClientOptions, type Query, type RequestOptions, sleep, Transport } from "./transport.js";
import type * as T from "./types.js";

export interface MemwardenOptions extends ClientOptions {
  /** A Context key, `mwk_<id>_<secret>`. */
  key: string;
  /**
   * The key's Context id (`memwarden contexts create` prints it). Optional: without it
   * the client asks `GET /whoami` once, before the first call that names the Context.
   */
  contextId?: string | undefined;
}

export interface UploadOptions {
  /** The name the server keeps (and guesses the type from); default `document.txt`. */
  filename?: string;
  /** The MIME type, when the name does not say it. */
  contentType?: string;
  /** A scope path, e.g. `org/acme/project/p1`. */
  scope?: string;
  visibility?: "shared" | "private";
  /**
   * Told the bytes handed to fetch so far and the total (the multipart body), from
   * `(0, total)` to `(total, total)`; a retried upload starts again from 0. Where the
   * runtime cannot stream a request body it is told `(0, total)`, then `(total, total)`
   * once the server answered.
   */
  onProgress?: (sent: number, total: number) => void;
}

export interface WaitOptions extends RequestOptions {
  /** How long to wait for `processed` or `failed` in all (default 120,000 ms). */
  waitMs?: number;
  /** How often to ask (default 500 ms). */
  intervalMs?: number;
}

const DONE = new Set(["processed", "failed"]);
const FINISHED_RUN = new Set(["done", "failed"]);
const KNOWN_EVENTS = new Set(["memories", "token", "done", "error"]);

// Where a path names the Context before the client knows it (filled in before sending;
// `encodeURIComponent` never leaves braces in an id, so no real segment reads this).
const CONTEXT = "{context}";

export class Memwarden {
  private known: string | undefined;
  private asking: Promise<string> | undefined;
  private readonly http: Transport;

  constructor(options: MemwardenOptions) {
    this.http = new Transport(options, options.key);
    this.known = options.contextId || undefined;
    this.http.resolvePath = (path, callOptions) =>
      path.includes(CONTEXT)
        ? this.resolveContext(callOptions).then((id) => path.replace(CONTEXT, encodeURIComponent(id)))
        : Promise.resolve(path);
  }

  /** The key's Context: as given, or as `whoami` answered it; undefined until then. */
  get contextId(): string | undefined {
    return this.known;
  }

  /** The key's Context, principal, effective grants and own narrowing (`GET /whoami`). */
  async whoami(options?: RequestOptions): Promise<T.WhoAmI> {
    const me = await this.get<T.WhoAmI>("/api/v1/whoami", undefined, options);
    this.known = me.context_id;
    return me;
  }

  /** The Context id, asked of the server once (a failed ask is asked again next time). */
  private resolveContext(options: RequestOptions): Promise<string> {
    if (this.known) return Promise.resolve(this.known);
    this.asking ??= this.whoami(options).then(
      (me) => me.context_id,
      (error: unknown) => {
        this.asking = undefined;
        throw error;
      },
    );
    return this.asking;
  }

  private get base(): string {
    return `/api/v1/${this.known ? encodeURIComponent(this.known) : CONTEXT}`;
  }

  /** The Context's own admin routes (keys, configuration), which a manage key may use. */
  private get admin(): string {
    return `/api/v1/contexts/${this.known ? encodeURIComponent(this.known) : CONTEXT}`;
  }

  private get<R>(path: string, query?: Query, options?: RequestOptions): Promise<R> {
    return this.http.json<R>({ method: "GET", path, query }, options);
  }

  private post<R>(path: string, json: unknown, options?: RequestOptions): Promise<R> {
    return this.http.json<R>({ method: "POST", path, json }, options);
  }

  /** Judge, extract, reconcile and store one text; `held` says when it waits for a reviewer. */
  remember(text: string, body: T.RememberOptions = {}, options?: RequestOptions): Promise<T.FactsResponse> {
    return this.post(`${this.base}/facts`, { ...body, text }, options);
  }

  /** Many texts in one request; each item answers on its own (an `error` per refused item). */
  rememberBatch(items: T.BatchItem[], options?: RequestOptions): Promise<T.BatchResponse> {
    return this.post(`${this.base}/facts/batch`, { items }, options);
  }

  /** Hybrid full-text and vector recall. */
  query(query: string, body: T.QueryOptions = {}, options?: RequestOptions): Promise<T.QueryResponse> {
    return this.post(`${this.base}/query`, { ...body, query }, options);
  }

  /** What is known about one entity; without `entity`, the speaker's own. */
  profile(query: T.ProfileOptions = {}, options?: RequestOptions): Promise<T.ProfileResponse> {
    return this.get(`${this.base}/profile`, query as Query, options);
  }

  /** Standing instructions, open uncertainties and recent actions. */
  state(query: T.StateOptions = {}, options?: RequestOptions): Promise<T.StateResponse> {
    return this.get(`${this.base}/state`, query as Query, options);
  }

  /** An answer from recalled memory (the message is remembered unless `remember: false`). */
  chat(message: string, body: T.ChatOptions = {}, options?: RequestOptions): Promise<T.ChatResponse> {
    return this.post(`${this.base}/chat`, { ...body, message }, options);
  }

  /**
   * The same answer as events: `memories`, then `token`s, then `done` (or `error` when it
   * failed after starting). The request is sent when iteration starts, and a refusal is
   * thrown there. `timeoutMs` is an idle timeout here: the longest wait for a chunk.
   */
  async *chatStream(
    message: string,
    body: T.ChatOptions = {},
    options?: RequestOptions,
  ): AsyncGenerator<T.ChatStreamEvent, void, undefined> {
    const call = { method: "POST" as const, path: `${this.base}/chat/stream`, json: { ...body, message } };
    const { response, idle, release, failure } = await this.http.stream(call, options);
    try {
      if (!response.body) return;
      for await (const raw of readEvents(response.body, idle)) {
        if (!KNOWN_EVENTS.has(raw.event)) continue;
        yield { event: raw.event, data: JSON.parse(raw.data) } as T.ChatStreamEvent;
      }
    } catch (cause) {
      throw failure(cause);
    } finally {
      release();
    }
  }

  /** Derive and store reflections from recalled memory. */
  reflect(body: T.ReflectBody = {}, options?: RequestOptions): Promise<T.ReflectResponse> {
    return this.post(`${this.base}/reflect`, body, options);
  }

  /** Extract again the windows of a turn whose extraction failed. */
  reprocessTurn(turnId: string, options?: RequestOptions): Promise<T.ReprocessResponse> {
    return this.post(`${this.base}/turns/${encodeURIComponent(turnId)}/reprocess`, undefined, options);
  }

  /** A record's revisions, newest first and content-free (`next_cursor` for older ones). */
  recordHistory(
    recordId: string,
    query: { limit?: number; cursor?: string } = {},
    options?: RequestOptions,
  ): Promise<T.RecordHistory> {
    return this.get(`${this.base}/memories/${encodeURIComponent(recordId)}/history`, query, options);
  }

  /**
   * The Context's memories as JSON Lines, yielded as objects while they arrive: a
   * `header`, records, links, sessions, turns, ..., then `end` (docs/portability.md).
   * `timeoutMs` is an idle timeout here, as for `chatStream`.
   */
  async *export(
    query: { subject?: string; scope?: string; sessions?: boolean; include?: ("keys" | "judgements")[] } = {},
    options?: RequestOptions,
  ): AsyncGenerator<T.ExportLine, void, undefined> {
    const call = { method: "GET" as const, path: `${this.base}/export`, query: query as Query };
    const { response, idle, release, failure } = await this.http.stream(call, options);
    try {
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffered = "";
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        idle();
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, end).trim();
          buffered = buffered.slice(end + 1);
          if (line) yield JSON.parse(line) as T.ExportLine;
        }
      }
      const last = (buffered + decoder.decode()).trim();
      if (last) yield JSON.parse(last) as T.ExportLine;
    } catch (cause) {
      throw failure(cause);
    } finally {
      release();
    }
  }

  /** A file imported as a job (a memwarden or mem0 export, or JSON Lines of texts). */
  readonly imports = {
    /** `sourceDir` names where the file came from; kept on every item. */
    start: (
      content: string | Uint8Array,
      query: {
        sourceDir: string;
        format?: "auto" | "memwarden" | "mem0" | "texts";
        scope?: string;
        visibility?: "shared" | "private";
        onProgress?: (sent: number, total: number) => void;
      },
      options?: RequestOptions,
    ): Promise<T.ImportStarted> => {
      const { sourceDir, onProgress, ...rest } = query;
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      const upload = { bytes, contentType: "application/x-ndjson", onProgress };
      const path = `${this.base}/imports`;
      return this.http.json(
        { method: "POST", path, query: { ...rest, source_dir: sourceDir }, upload },
        options,
      );
    },
    get: (importId: string, options?: RequestOptions): Promise<T.ImportJob> =>
      this.get(`${this.base}/imports/${encodeURIComponent(importId)}`, undefined, options),
    /** Ask until the import is `done` or `failed`. */
    wait: (importId: string, options: WaitOptions = {}): Promise<T.ImportJob> =>
      until(() => this.imports.get(importId, options), FINISHED_RUN, `import ${importId}`, options),
  };

  /** The Context's id, name and creation time. */
  context(options?: RequestOptions): Promise<T.ContextInfo> {
    return this.get(`${this.admin}`, undefined, options);
  }

  readonly documents = {
    /** Upload a document (text, a Blob, or bytes); a worker processes it: see `wait`. */
    upload: async (
      content: string | Blob | Uint8Array,
      upload: UploadOptions = {},
      options?: RequestOptions,
    ): Promise<T.Document> => {
      const form = new FormData();
      const type =
        upload.contentType ?? (typeof content === "string" ? "text/plain" : "application/octet-stream");
      const blob = content instanceof Blob ? content : new Blob([content as BlobPart], { type });
      form.append("file", blob, upload.filename ?? "document.txt");
      if (upload.scope !== undefined) form.append("scope", upload.scope);
      if (upload.visibility !== undefined) form.append("visibility", upload.visibility);
      const path = `${this.base}/documents`;
      if (!upload.onProgress) return this.http.json({ method: "POST", path, form }, options);
      // The multipart body as bytes (with its boundary), so its reading can be counted.
      const encoded = new Response(form);
      const contentType = encoded.headers.get("content-type") ?? "multipart/form-data";
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      const body = { bytes, contentType, onProgress: upload.onProgress };
      return this.http.json({ method: "POST", path, upload: body }, options);
    },
    get: (documentId: string, options?: RequestOptions): Promise<T.Document> =>
      this.get(`${this.base}/documents/${encodeURIComponent(documentId)}`, undefined, options),
    /** Every document the key can see, newest first. */
    list: (
      query: T.ListOptions<"/api/v1/{context_id}/documents"> & { cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.Document, T.DocumentList> =>
      paginate(this.http, `${this.base}/documents`, query, (page: T.DocumentList) => page.documents, options),
    /** Ask until the document is `processed` or `failed`; MemwardenTimeoutError past `waitMs`. */
    wait: (documentId: string, options: WaitOptions = {}): Promise<T.Document> =>
      until(() => this.documents.get(documentId, options), DONE, `document ${documentId}`, options),
    reprocess: (documentId: string, options?: RequestOptions): Promise<T.ReprocessResponse> =>
      this.post(`${this.base}/documents/${encodeURIComponent(documentId)}/reprocess`, undefined, options),
    delete: (documentId: string, options?: RequestOptions): Promise<T.DocumentDeleted> =>
      this.http.json(
        { method: "DELETE", path: `${this.base}/documents/${encodeURIComponent(documentId)}` },
        options,
      ),
  };

  readonly judgements = {
    /** The judge's review log, newest first (needs `grant:manage`). */
    list: (
      filters: T.JudgementFilters & { cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.Judgement, T.JudgementList> =>
      paginate(
        this.http,
        `${this.base}/judgements`,
        filters,
        (page: T.JudgementList) => page.judgements,
        options,
      ),
    get: (judgementId: string, options?: RequestOptions): Promise<T.Judgement> =>
      this.get(`${this.base}/judgements/${encodeURIComponent(judgementId)}`, undefined, options),
    override: (
      judgementId: string,
      body: T.OverrideBody,
      options?: RequestOptions,
    ): Promise<T.OverrideResult> =>
      this.post(`${this.base}/judgements/${encodeURIComponent(judgementId)}/override`, body, options),
    /** Release what a held warn kept back. */
    approve: (judgementId: string, options?: RequestOptions): Promise<T.HoldDecision> =>
      this.post(`${this.base}/judgements/${encodeURIComponent(judgementId)}/approve`, undefined, options),
    /** Delete what a held warn kept back. */
    reject: (judgementId: string, options?: RequestOptions): Promise<T.HoldDecision> =>
      this.post(`${this.base}/judgements/${encodeURIComponent(judgementId)}/reject`, undefined, options),
    /** Re-judge logged inputs under a candidate addendum; stores nothing. */
    dryRun: (body: T.DryRunBody, options?: RequestOptions): Promise<T.DryRunResult> =>
      this.post(`${this.base}/judgements/dry-run`, body, options),
  };

  readonly hygiene = {
    scan: (body: { rejudge?: boolean } = {}, options?: RequestOptions): Promise<T.ScanStarted> =>
      this.post(`${this.base}/hygiene/scan`, body, options),
    getRun: (runId: string, options?: RequestOptions): Promise<T.HygieneRun> =>
      this.get(`${this.base}/hygiene/runs/${encodeURIComponent(runId)}`, undefined, options),
    /** Ask until the run is `done` or `failed`. */
    wait: (runId: string, options: WaitOptions = {}): Promise<T.HygieneRun> =>
      until(() => this.hygiene.getRun(runId, options), FINISHED_RUN, `hygiene run ${runId}`, options),
    queue: (
      query: T.QueueOptions & { cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.QueueItem, T.QueuePage> =>
      paginate(this.http, `${this.base}/hygiene/queue`, query, (page: T.QueuePage) => page.items, options),
    resolve: (itemId: string, resolution: T.Resolution, options?: RequestOptions): Promise<T.QueueResolved> =>
      this.post(`${this.base}/hygiene/queue/${encodeURIComponent(itemId)}/resolve`, { resolution }, options),
    restore: (recordId: string, options?: RequestOptions): Promise<T.MemoryRestored> =>
      this.post(`${this.base}/hygiene/memories/${encodeURIComponent(recordId)}/restore`, undefined, options),
    challenge: (recordId: string, reason: string, options?: RequestOptions): Promise<T.QueueChallenged> =>
      this.post(
        `${this.base}/hygiene/memories/${encodeURIComponent(recordId)}/challenge`,
        { reason },
        options,
      ),
  };

  readonly passes = {
    run: (stage: T.PassName, options?: RequestOptions): Promise<T.PassStarted> =>
      this.post(`${this.base}/passes/${encodeURIComponent(stage)}/run`, undefined, options),
    getRun: (runId: string, options?: RequestOptions): Promise<T.PassRun> =>
      this.get(`${this.base}/passes/runs/${encodeURIComponent(runId)}`, undefined, options),
    /** Ask until the run is `done` or `failed`. */
    wait: (runId: string, options: WaitOptions = {}): Promise<T.PassRun> =>
      until(() => this.passes.getRun(runId, options), FINISHED_RUN, `pass run ${runId}`, options),
  };

  /** Webhook subscriptions to the Context's events (needs `grant:manage`; docs/webhooks.md). */
  readonly webhooks = {
    /** The answer's `secret` signs every delivery; it is shown this once. */
    create: (body: T.CreateWebhook, options?: RequestOptions): Promise<T.CreatedWebhook> =>
      this.post(`${this.base}/webhooks`, body, options),
    list: (
      query: { limit?: number; cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.Webhook, T.WebhookList> =>
      paginate(this.http, `${this.base}/webhooks`, query, (page: T.WebhookList) => page.webhooks, options),
    get: (webhookId: string, options?: RequestOptions): Promise<T.Webhook> =>
      this.get(`${this.base}/webhooks/${encodeURIComponent(webhookId)}`, undefined, options),
    /** `active: false` pauses it, `active: true` resumes it. */
    update: (webhookId: string, patch: T.PatchWebhook, options?: RequestOptions): Promise<T.Webhook> =>
      this.http.json(
        { method: "PATCH", path: `${this.base}/webhooks/${encodeURIComponent(webhookId)}`, json: patch },
        options,
      ),
    delete: (webhookId: string, options?: RequestOptions): Promise<T.DeletedWebhook> =>
      this.http.json(
        { method: "DELETE", path: `${this.base}/webhooks/${encodeURIComponent(webhookId)}` },
        options,
      ),
    rotateSecret: (webhookId: string, options?: RequestOptions): Promise<T.RotatedSecret> =>
      this.post(`${this.base}/webhooks/${encodeURIComponent(webhookId)}/rotate-secret`, undefined, options),
    /** Recent deliveries, newest first (never the body sent). */
    deliveries: (
      webhookId: string,
      query: { limit?: number; cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.Delivery, T.DeliveryList> =>
      paginate(
        this.http,
        `${this.base}/webhooks/${encodeURIComponent(webhookId)}/deliveries`,
        query,
        (page: T.DeliveryList) => page.deliveries,
        options,
      ),
  };

  /** Erasure for good of one target (docs/erasure.md): a job removes it everywhere. */
  readonly erasures = {
    request: (body: T.ErasureBody, options?: RequestOptions): Promise<T.ErasureStarted> =>
      this.post(`${this.base}/erasures`, body, options),
    get: (erasureId: string, options?: RequestOptions): Promise<T.Erasure> =>
      this.get(`${this.base}/erasures/${encodeURIComponent(erasureId)}`, undefined, options),
    /** Ask until the erasure is `done` or `failed`. */
    wait: (erasureId: string, options: WaitOptions = {}): Promise<T.Erasure> =>
      until(() => this.erasures.get(erasureId, options), FINISHED_RUN, `erasure ${erasureId}`, options),
  };

  /** The Context's keys (needs `grant:manage`). */
  readonly keys = {
    /** The answer's `key` is the secret, shown this once. */
    issue: (body: T.CreateKey, options?: RequestOptions): Promise<T.IssuedKey> =>
      this.post(`${this.admin}/keys`, body, options),
    list: (
      query: { limit?: number; cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.KeyInfo, T.KeyList> =>
      paginate(this.http, `${this.admin}/keys`, query, (page: T.KeyList) => page.keys, options),
    revoke: (keyId: string, options?: RequestOptions): Promise<T.RevokedKey> =>
      this.http.json({ method: "DELETE", path: `${this.admin}/keys/${encodeURIComponent(keyId)}` }, options),
  };

  /** The Context's configuration (needs `grant:manage`). */
  readonly config = {
    get: (options?: RequestOptions): Promise<T.ContextConfig> =>
      this.get(`${this.admin}/config`, undefined, options),
    /** Objects merge, omitted fields stay, `""` clears an addendum. */
    patch: (patch: T.ConfigPatch, options?: RequestOptions): Promise<T.ContextConfig> =>
      this.http.json({ method: "PATCH", path: `${this.admin}/config`, json: patch }, options),
  };

  /** The memory contract and review verbs (bodies carry `contract_version: 1` and a scope). */
  readonly memory = {
    commands: (body: T.CommandRequest, options?: RequestOptions): Promise<T.CommandResult> =>
      this.post("/api/v1/memory/commands", body, options),
    read: (body: T.ReadRequest, options?: RequestOptions): Promise<T.ReadAnswer> =>
      this.post("/api/v1/memory/read", body, options),
    search: (body: T.SearchRequest, options?: RequestOptions): Promise<T.SearchAnswer> =>
      this.post("/api/v1/memory/search", body, options),
    embeddings: (body: T.EmbeddingRequest, options?: RequestOptions): Promise<T.EmbeddingAnswer> =>
      this.post("/api/v1/memory/embeddings", body, options),
    reviews: (body: T.ReviewRequest, options?: RequestOptions): Promise<T.ReceiptAnswer> =>
      this.post("/api/v1/memory/reviews", body, options),
    reviewState: (body: T.ReadRequest, options?: RequestOptions): Promise<T.ReviewStateAnswer> =>
      this.post("/api/v1/memory/reviews/state", body, options),
    reviewRead: (body: T.ReceiptReadRequest, options?: RequestOptions): Promise<T.ReceiptAnswer> =>
      this.post("/api/v1/memory/reviews/read", body, options),
    eligibility: (body: T.ReadRequest, options?: RequestOptions): Promise<T.EligibilityAnswer> =>
      this.post("/api/v1/memory/reviews/eligibility", body, options),
  };

  /** The change feed in commit order: ids and kinds, never content. */
  changes(
    query: T.ChangesOptions & { cursor?: string } = {},
    options?: RequestOptions,
  ): Paginator<T.ChangeEntry, T.ChangePage> {
    return paginate(
      this.http,
      "/api/v1/memory/changes",
      query,
      (page: T.ChangePage) => page.changes,
      options,
    );
  }

  /** Calls and tokens per stage and model over the last `days` (needs `grant:manage`). */
  usage(query: T.UsageOptions = {}, options?: RequestOptions): Promise<T.UsageAnswer> {
    return this.get(`${this.base}/usage`, query as Query, options);
  }

  /** The audit log, newest first (needs `grant:manage`). */
  audit(
    query: T.AuditOptions & { cursor?: string } = {},
    options?: RequestOptions,
  ): Paginator<T.AuditEvent, T.AuditPage> {
    return paginate(this.http, `${this.base}/audit`, query, (page: T.AuditPage) => page.events, options);
  }
}

/** Ask `get` until its status is a final one; MemwardenTimeoutError past `waitMs`. */
async function until<R extends { status: string }>(
  get: () => Promise<R>,
  final: Set<string>,
  what: string,
  options: WaitOptions,
): Promise<R> {
  const waitMs = options.waitMs ?? 120_000;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await get();
    if (final.has(answer.status)) return answer;
    if (Date.now() >= deadline) {
      throw new MemwardenTimeoutError({
        status: 0,
        code: "timeout",
        message: `${what} is still ${answer.status} after ${waitMs} ms`,
      });
    }
    await sleep(options.intervalMs ?? 500, options.signal);
  }
}
