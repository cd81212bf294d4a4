/**
 * One HTTP exchange with retries: fetch only (no Node built-ins), so the same code runs
 * in Node 20+, Deno, Bun, browsers and edge runtimes. A 429 or 503 is retried after the
 * server's Retry-After (bounded); anything else is answered once, as the server meant.
 */
import {
  errorFor,
  type ErrorBody,
  MemwardenConnectionError,
  MemwardenError,
  MemwardenTimeoutError,
} from "./errors.js";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8420` (no `/api/v1`). */
  url: string;
  /** Per-attempt timeout in milliseconds (default 60,000; 0: none). */
  timeoutMs?: number;
  /** How many times a 429 or 503 is retried (default 2; 0: never). */
  maxRetries?: number;
  /** The longest wait before a retry, whatever Retry-After asks (default 60,000 ms). */
  maxRetryDelayMs?: number;
  /** Another fetch (a proxy's, a test's); default the global one. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** Options every call takes. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface Call {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  query?: Query | undefined;
  json?: unknown;
  form?: FormData | undefined;
}

const RETRIED = new Set([429, 503]);

/** An answer being read: `idle()` restarts the timeout, `failure()` names a read's error. */
export interface Streamed {
  response: Response;
  idle: () => void;
  release: () => void;
  failure: (cause: unknown) => unknown;
}

export class Transport {
  readonly url: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;

  constructor(options: ClientOptions, token: string) {
    if (!options.url) throw new TypeError("url is required");
    if (!token) throw new TypeError("a key (or the admin token) is required");
    this.url = options.url.replace(/\/+$/, "");
    this.token = token;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.headers = options.headers ?? {};
  }

  /** The answer's JSON, or the MemwardenError the server's refusal maps to. */
  async json<T>(call: Call, options: RequestOptions = {}): Promise<T> {
    const { response, release, failure } = await this.send(call, options, false);
    try {
      return (await response.json()) as T;
    } catch (cause) {
      throw failure(cause);
    } finally {
      release();
    }
  }

  /**
   * The answer itself, for a body read as a stream. Its timeout is an idle timeout:
   * `idle()` restarts it on every chunk, `release()` stops it.
   */
  async stream(
    call: Call,
    options: RequestOptions = {},
  ): Promise<Streamed> {
    return this.send(call, options, true);
  }

  private async send(
    call: Call,
    options: RequestOptions,
    streaming: boolean,
  ): Promise<Streamed> {
    const maxRetries = options.maxRetries ?? this.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const attemptControl = new Attempt(options.signal, options.timeoutMs ?? this.timeoutMs);
      let response: Response;
      try {
        response = await this.fetchImpl(this.address(call), this.init(call, attemptControl.signal));
      } catch (cause) {
        attemptControl.release();
        throw attemptControl.failure(cause);
      }
      if (response.ok) {
        if (streaming) attemptControl.restart();
        return {
          response,
          idle: () => attemptControl.restart(),
          release: () => attemptControl.release(),
          failure: (cause) => attemptControl.failure(cause),
        };
      }
      let error: MemwardenError;
      try {
        error = await refusal(response);
      } catch (cause) {
        throw attemptControl.failure(cause);
      } finally {
        attemptControl.release();
      }
      if (!RETRIED.has(response.status) || attempt >= maxRetries) throw error;
      const waitMs = error.retryAfterS !== undefined ? error.retryAfterS * 1000 : 500 * 2 ** attempt;
      await sleep(Math.min(waitMs, this.maxRetryDelayMs), options.signal);
    }
  }

  private address(call: Call): string {
    const url = new URL(this.url + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
      else url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private init(call: Call, signal: AbortSignal): RequestInit {
    const headers: Record<string, string> = {
      accept: "application/json",
      ...this.headers,
      authorization: `Bearer ${this.token}`,
    };
    let body: BodyInit | undefined;
    if (call.form !== undefined) body = call.form;
    else if (call.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.json);
    }
    return { method: call.method, headers, body, signal };
  }
}

/** An attempt's abort signal: the caller's signal, and a timeout that can restart. */
class Attempt {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private readonly onAbort: () => void;

  constructor(
    private readonly outer: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.onAbort = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.onAbort, { once: true });
    this.restart();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restart(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.timeoutMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  release(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.outer?.removeEventListener("abort", this.onAbort);
  }

  /** What a failed fetch or read means: a timeout, the caller's abort, or the transport. */
  failure(cause: unknown): unknown {
    if (this.timedOut) {
      return new MemwardenTimeoutError({
        status: 0,
        body: { code: "timeout", message: `no answer within ${this.timeoutMs} ms` },
      });
    }
    return abortedOr(cause, this.outer);
  }
}

function abortedOr(cause: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted || cause instanceof MemwardenError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  const error = new MemwardenConnectionError({
    status: 0,
    body: { code: "connection_error", message },
  });
  (error as { cause?: unknown }).cause = cause;
  return error;
}

/** The MemwardenError for a refusal: the body's `error` object when it has one. */
async function refusal(response: Response): Promise<MemwardenError> {
  const text = await response.text();
  let body: ErrorBody = { code: `http_${response.status}`, message: response.statusText || "error" };
  let answer: unknown;
  try {
    answer = JSON.parse(text);
    const parsed = answer as { error?: ErrorBody } | null;
    if (typeof parsed?.error?.code === "string") body = parsed.error;
  } catch {
    // Not JSON (a proxy's page): keep the status as the code.
  }
  return errorFor({
    status: response.status,
    body,
    requestId: response.headers.get("x-request-id") ?? undefined,
    retryAfterS: retryAfter(response.headers.get("retry-after")),
    answer,
  });
}

/** Retry-After in seconds: a number of seconds or an HTTP date. */
export function retryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export { sleep };
