/**
 * The error model, the Python client's: every refusal is a MemwardenError carrying the
 * HTTP status and the body's `code`, `message` and `field`, with a subclass per kind of
 * status so a caller catches what it can act on. The server's messages never quote what
 * was sent, so an error can be logged or shown to an agent as it is.
 */

/** The `error` object of a refusal: `{"error": {"code", "message", "field"?, ...}}`. */
export interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
  [extra: string]: unknown;
}

export interface ErrorInit {
  status: number;
  code: string;
  message: string;
  field?: string | undefined;
  body?: unknown;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
}

export class MemwardenError extends Error {
  /** The HTTP status (0 when no answer came: a broken connection or a timeout). */
  readonly status: number;
  /** The stable, machine-readable code (`judge_refused`, `missing_grant`, ...). */
  readonly code: string;
  /** The request field at fault, when the server names one. */
  readonly field: string | undefined;
  /** The answer's JSON as sent (`{"error": {...}}` for a refusal; a 503 health report). */
  readonly body: unknown;
  /** The server's X-Request-ID, to find its log line. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (Retry-After), when it did. */
  readonly retryAfter: number | undefined;

  constructor(init: ErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.body = init.body;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }

  /** The body's `error` object: what the server said beyond code and message. */
  get detail(): Record<string, unknown> {
    const error = (this.body as { error?: unknown } | null | undefined)?.error;
    return error !== null && typeof error === "object" ? { ...(error as Record<string, unknown>) } : {};
  }

  /** A judge's reason codes (`payment_card`, `credential`, ...), when it gave any. */
  get reasons(): string[] {
    const reasons = this.detail.reasons;
    return Array.isArray(reasons) ? reasons.map(String) : [];
  }
}

/** 400 or 422: the request cannot be served as sent (`field` names what is wrong). */
export class InvalidRequestError extends MemwardenError {}
/**
 * 422 from the ingest judge: refused (`judge_refused`, with `reasons`), denied
 * (`request_denied`) or not judged (`judge_unavailable`). The content is never in it.
 */
export class JudgeRefusedError extends InvalidRequestError {}
/** 401: no key, or an unknown, expired or revoked one. */
export class AuthenticationError extends MemwardenError {}
/** 403: the key lacks the grant, or the Context is not its own. */
export class PermissionDeniedError extends MemwardenError {}
/** 404: no such resource in the caller's reach. */
export class NotFoundError extends MemwardenError {}
/** 409: a stale revision, a decision already made, a refused replacement. */
export class ConflictError extends MemwardenError {}
/** 413: the body is larger than the route takes. */
export class PayloadTooLargeError extends MemwardenError {}
/** 429: a Context budget (requests or bytes in flight, tokens, waiting documents). */
export class RateLimitedError extends MemwardenError {}
/** 5xx other than 503 (500 `internal_error`, 502 `model_provider_error`). */
export class ServerError extends MemwardenError {}
/** 503: a process budget or a part that is down; `retryAfter` says when to retry. */
export class UnavailableError extends ServerError {}
/** No answer: the server could not be reached, or the connection broke. */
export class ConnectionFailedError extends MemwardenError {}
/** No answer within the per-request timeout (`timeoutMs`). */
export class MemwardenTimeoutError extends ConnectionFailedError {}

const JUDGE_CODES = new Set(["judge_refused", "request_denied", "judge_unavailable"]);

const BY_STATUS: Record<number, typeof MemwardenError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: InvalidRequestError,
  429: RateLimitedError,
  503: UnavailableError,
};

/** The error for an answer's status and code. */
export function errorFor(init: ErrorInit): MemwardenError {
  if (init.status === 422 && JUDGE_CODES.has(init.code)) return new JudgeRefusedError(init);
  const cls = BY_STATUS[init.status] ?? (init.status >= 500 ? ServerError : MemwardenError);
  return new cls(init);
}
