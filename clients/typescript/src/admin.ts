/**
 * `MemwardenAdmin`: the deployment admin token's routes (Contexts, keys, configuration,
 * audit, usage, health). The admin token reads and writes no memory, so this client
 * has no memory verbs: the server would answer them 403 `context_key_required`.
 */
import { UnavailableError } from "./errors.js";
import { paginate, type Paginator } from "./pages.js";
import { type ClientOptions, type Query, type RequestOptions, Transport } from "./transport.js";
import type * as T from "./types.js";

export interface MemwardenAdminOptions extends ClientOptions {
  /** The deployment's MEMWARDEN_ADMIN_TOKEN. */
  token: string;
}

const ctx = (contextId: string): string => `/api/v1/contexts/${encodeURIComponent(contextId)}`;

export class MemwardenAdmin {
  private readonly http: Transport;

  constructor(options: MemwardenAdminOptions) {
    this.http = new Transport(options, options.token);
  }

  readonly contexts = {
    /** With `owner_subject`, the answer's `owner_key` is that subject's first key (shown once). */
    create: (body: T.CreateContext, options?: RequestOptions): Promise<T.CreatedContext> =>
      this.http.json({ method: "POST", path: "/api/v1/contexts", json: body }, options),
    list: (
      query: { limit?: number; cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.ContextInfo, T.ContextList> =>
      paginate(this.http, "/api/v1/contexts", query, (page: T.ContextList) => page.contexts, options),
    get: (contextId: string, options?: RequestOptions): Promise<T.ContextInfo> =>
      this.http.json({ method: "GET", path: ctx(contextId) }, options),
  };

  readonly keys = {
    /** The answer's `key` is the secret, shown this once. */
    issue: (contextId: string, body: T.CreateKey, options?: RequestOptions): Promise<T.IssuedKey> =>
      this.http.json({ method: "POST", path: `${ctx(contextId)}/keys`, json: body }, options),
    list: (
      contextId: string,
      query: { limit?: number; cursor?: string } = {},
      options?: RequestOptions,
    ): Paginator<T.KeyInfo, T.KeyList> =>
      paginate(this.http, `${ctx(contextId)}/keys`, query, (page: T.KeyList) => page.keys, options),
    revoke: (contextId: string, keyId: string, options?: RequestOptions): Promise<T.RevokedKey> =>
      this.http.json(
        { method: "DELETE", path: `${ctx(contextId)}/keys/${encodeURIComponent(keyId)}` },
        options,
      ),
  };

  readonly config = {
    get: (contextId: string, options?: RequestOptions): Promise<T.ContextConfig> =>
      this.http.json({ method: "GET", path: `${ctx(contextId)}/config` }, options),
    /** Objects merge, omitted fields stay, `""` clears an addendum. */
    patch: (contextId: string, patch: T.ConfigPatch, options?: RequestOptions): Promise<T.ContextConfig> =>
      this.http.json({ method: "PATCH", path: `${ctx(contextId)}/config`, json: patch }, options),
  };

  audit(
    contextId: string,
    query: T.AuditOptions & { cursor?: string } = {},
    options?: RequestOptions,
  ): Paginator<T.AuditEvent, T.AuditPage> {
    const path = `/api/v1/${encodeURIComponent(contextId)}/audit`;
    return paginate(this.http, path, query, (page: T.AuditPage) => page.events, options);
  }

  usage(contextId: string, query: T.UsageOptions = {}, options?: RequestOptions): Promise<T.UsageAnswer> {
    const path = `/api/v1/${encodeURIComponent(contextId)}/usage`;
    return this.http.json({ method: "GET", path, query: query as Query }, options);
  }

  /**
   * The health report with the admin token's detail. A degraded or down server answers
   * 503 with the same report, which is returned too (never retried): `status` says which.
   */
  async health(options: RequestOptions = {}): Promise<T.HealthReport> {
    try {
      return await this.http.json({ method: "GET", path: "/health" }, { maxRetries: 0, ...options });
    } catch (error) {
      const answer =
        error instanceof UnavailableError ? (error.body as T.HealthReport | undefined) : undefined;
      if (answer && typeof answer.status === "string") return answer;
      throw error;
    }
  }
}
