/**
 * One call with its retries, over fetch only (no Node built-ins), so the same code runs
 * in Node 20+, Deno, Bun, browsers and edge runtimes.
 *
 * The retry policy is the Python client's. memwarden answers 429 and 503 with
 * Retry-After when an admission budget refuses a request, and such a refusal comes
 * before the request has any effect (docs/scale.md): every call, writes included, is
 * sent again after that wait (at most `maxRetries` times, never when the server asks for
 * more than `maxRetryWaitMs`). A 429 without Retry-After is a spent token budget: not
 * retried. Reads (GET) are also sent again after a 502/503/504 without Retry-After or a
 * broken connection, after `backoffMs` doubled each time.
 */
import { ConnectionFailedError, errorFor, type MemwardenError, MemwardenTimeoutError } from "./errors.js";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/** What a retry is about to do, told to `onRetry` before its wait. */
export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** The refusal's status, or 0 for a broken connection. */
  status: number;
  waitMs: number;
}

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8420` (no `/api/v1`). */
  url: string;
  /** Per-attempt timeout in milliseconds (default 30,000; 0: none). */
  timeoutMs?: number;
  /** How many times one call may be sent again (default 3; 0: never). */
  maxRetries?: number;
  /** The first backoff of a retried read without Retry-After (default 500 ms, doubling). */
  backoffMs?: number;
  /** A Retry-After longer than this is not waited for: the refusal is thrown (default 30,000 ms). */
  maxRetryWaitMs?: number;
  /** Hears of each retry before its wait. */
  onRetry?: (event: RetryEvent) => void;
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
  upload?: Upload | undefined;
}

/** A body sent as it is (a multipart document), with progress as fetch reads it. */
export interface Upload {
  bytes: Uint8Array;
  contentType: string;
  onProgress?: ((sent: number, total: number) => void) | undefined;
}

/** The size of each piece of an upload handed to fetch (a progress step). */
export const UPLOAD_CHUNK = 64 * 1024;

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
  private readonly backoffMs: number;
  private readonly maxRetryWaitMs: number;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;
  /** Rewrites a path before each call is sent (the client fills in its Context id). */
  resolvePath: ((path: string, options: RequestOptions) => Promise<string>) | undefined;

  constructor(options: ClientOptions, token: string) {
    if (!options.url) throw new TypeError("url is required");
    if (!token) throw new TypeError("a key (or the admin token) is required");
    this.url = options.url.replace(/\/+$/, "");
    this.token = token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
    this.onRetry = options.onRetry;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.headers = options.headers ?? {};
  }

  /** The answer's JSON, or the MemwardenError its refusal maps to. */
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

  /** The answer, its body to be read as a stream; the timeout becomes an idle timeout. */
  stream(call: Call, options: RequestOptions = {}): Promise<Streamed> {
    return this.send(call, options, true);
  }

  private async send(asked: Call, options: RequestOptions, streaming: boolean): Promise<Streamed> {
    const call = this.resolvePath ? { ...asked, path: await this.resolvePath(asked.path, options) } : asked;
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const idempotent = call.method === "GET";
    for (let attempt = 0; ; attempt++) {
      const control = new Attempt(options.signal, options.timeoutMs ?? this.timeoutMs);
      let response: Response;
      try {
        response = await this.fetchImpl(this.address(call), this.init(call, control.signal));
        const upload = call.upload;
        if (upload?.onProgress && !requestStreams()) {
          upload.onProgress(upload.bytes.byteLength, upload.bytes.byteLength); // sent whole
        }
      } catch (cause) {
        control.release();
        const error = control.failure(cause);
        const waitMs =
          idempotent && error instanceof ConnectionFailedError && !(error instanceof MemwardenTimeoutError)
            ? this.backoffMs * 2 ** attempt
            : undefined;
        if (waitMs === undefined || attempt >= maxRetries) throw error;
        await this.pause(call, attempt, 0, waitMs, options.signal);
        continue;
      }
      if (response.ok) {
        if (streaming) control.restart();
        return {
          response,
          idle: () => control.restart(),
          release: () => control.release(),
          failure: (cause) => control.failure(cause),
        };
      }
      let error: MemwardenError;
      try {
        error = await refusal(response);
      } catch (cause) {
        throw control.failure(cause);
      } finally {
        control.release();
      }
      const waitMs = attempt < maxRetries ? this.waitAfter(error, idempotent, attempt) : undefined;
      if (waitMs === undefined) throw error;
      await this.pause(call, attempt, error.status, waitMs, options.signal);
    }
  }

  private waitAfter(error: MemwardenError, idempotent: boolean, attempt: number): number | undefined {
    if ((error.status === 429 || error.status === 503) && error.retryAfter !== undefined) {
      const waitMs = error.retryAfter * 1000;
      return waitMs <= this.maxRetryWaitMs ? waitMs : undefined;
    }
    if (idempotent && [502, 503, 504].includes(error.status)) return this.backoffMs * 2 ** attempt;
    return undefined;
  }

  private async pause(call: Call, attempt: number, status: number, waitMs: number, signal?: AbortSignal) {
    this.onRetry?.({ method: call.method, path: call.path, attempt: attempt + 1, status, waitMs });
    await sleep(waitMs, signal);
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
    if (call.upload !== undefined) {
      headers["content-type"] = call.upload.contentType;
      body = uploadBody(call.upload);
      // A stream body needs `duplex: "half"` (fetch sends it chunked, as it reads it).
      if (body instanceof ReadableStream)
        return { method: call.method, headers, body, signal, duplex: "half" } as RequestInit;
    } else if (call.form !== undefined) body = call.form;
    else if (call.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.json);
    }
    return { method: call.method, headers, body, signal };
  }
}

let streamsSupported: boolean | undefined;

/**
 * Whether this runtime's fetch sends a ReadableStream as a request body (Node 20+,
 * Deno, Bun, Chromium over HTTP/2); where it does not, an upload is sent whole and its
 * progress is told twice: nothing sent, then everything once the server answered.
 */
export function requestStreams(): boolean {
  if (streamsSupported !== undefined) return streamsSupported;
  try {
    let duplexRead = false;
    const probe = new Request("http://localhost/", {
      method: "POST",
      body: new ReadableStream(),
      get duplex() {
        duplexRead = true;
        return "half";
      },
    } as RequestInit);
    streamsSupported = duplexRead && !probe.headers.has("content-type");
  } catch {
    streamsSupported = false;
  }
  return streamsSupported;
}

/** A fresh body for each attempt: the bytes, or a stream telling `onProgress` as it is read. */
function uploadBody(upload: Upload): BodyInit {
  const { bytes, onProgress } = upload;
  const total = bytes.byteLength;
  onProgress?.(0, total);
  if (!onProgress || !requestStreams()) return bytes as BodyInit;
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const end = Math.min(sent + UPLOAD_CHUNK, total);
      controller.enqueue(bytes.slice(sent, end));
      sent = end;
      onProgress(sent, total);
    },
  });
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
        code: "timeout",
        message: `no answer within ${this.timeoutMs} ms`,
      });
    }
    if (this.outer?.aborted) return cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    const error = new ConnectionFailedError({ status: 0, code: "connection_failed", message });
    (error as { cause?: unknown }).cause = cause;
    return error;
  }
}

/** The MemwardenError for a refusal: the body's `error` object when it has one. */
async function refusal(response: Response): Promise<MemwardenError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text; // not JSON: a proxy's page, say
  }
  const detail = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
  const named = typeof detail?.code === "string";
  return errorFor({
    status: response.status,
    code: named ? String(detail?.code) : `http_${response.status}`,
    message: named && typeof detail?.message === "string" ? detail.message : response.statusText || "error",
    field: typeof detail?.field === "string" ? detail.field : undefined,
    body,
    requestId: response.headers.get("x-request-id") ?? undefined,
    retryAfter: retryAfter(response.headers.get("retry-after")),
  });
}

/** Retry-After in seconds: delta-seconds or an HTTP date; undefined when absent. */
export function retryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
