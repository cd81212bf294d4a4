/**
 * The error model: every refusal the server answers is a MemwardenError carrying the
 * HTTP status and the body's `code`, `message` and `field`; a subclass per status lets
 * callers catch what they can act on. Messages never quote what was sent, so an error
 * is safe to log or to hand to an agent.
 */

/** The `error` object of a refusal: `{"error": {"code", "message", "field"?, ...}}`. */
export interface ErrorBody {
  code: string;
  message: string;
  field?: string;
  [extra: string]: unknown;
}

export interface ErrorInit {
  status: number;
  body: ErrorBody;
  requestId?: string | undefined;
  retryAfterS?: number | undefined;
  answer?: unknown;
}

export class MemwardenError extends Error {
  /** The HTTP status (0 when no answer came: a transport failure or a timeout). */
  readonly status: number;
  /** The stable, machine-readable code (`judge_refused`, `missing_grant`, ...). */
  readonly code: string;
  /** The request field at fault, when the server names one. */
  readonly field: string | undefined;
  /** The whole `error` object, extra fields included (`reasons`, `limit`, ...). */
  readonly body: ErrorBody;
  /** The server's X-Request-ID, to find its log line. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (Retry-After), when it did. */
  readonly retryAfterS: number | undefined;
  /** The whole answer's JSON, when it was JSON (a 503 health report, say). */
  readonly answer: unknown;

  constructor(init: ErrorInit) {
    super(init.body.message);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.body.code;
    this.field = typeof init.body.field === "string" ? init.body.field : undefined;
    this.body = init.body;
    this.requestId = init.requestId;
    this.retryAfterS = init.retryAfterS;
    this.answer = init.answer;
  }
}

/** 400: a missing, unknown or invalid field (`field` names it). */
export class BadRequestError extends MemwardenError {}
/** 401: no key, or an unknown, expired or revoked one. */
export class AuthenticationError extends MemwardenError {}
/** 403: the key lacks the grant, or the Context is not its own. */
export class PermissionDeniedError extends MemwardenError {}
/** 404: no such resource in the caller's reach. */
export class NotFoundError extends MemwardenError {}
/** 409: a stale revision, a decision already made, a refused replacement. */
export class ConflictError extends MemwardenError {}
/** 413: the body is larger than the route allows. */
export class PayloadTooLargeError extends MemwardenError {}

/**
 * 422: the ingest judge refused the input (`judge_refused`, with reason codes), denied
 * it (`request_denied`, no reasons) or could not judge it (`judge_unavailable`). The
 * refused content is never in the error.
 */
export class JudgeRefusedError extends MemwardenError {
  /** Reason codes: `payment_card`, `credential`, `personal_data`, ... */
  get reasons(): string[] {
    const reasons = this.body.reasons;
    return Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === "string") : [];
  }
}

/** 429: a budget of the Context is spent for now; `retryAfterS` says when to come back. */
export class RateLimitError extends MemwardenError {}
/** 5xx: the server failed. */
export class ServerError extends MemwardenError {}
/** 503: overloaded, the database busy, or a part down; usually with Retry-After. */
export class ServiceUnavailableError extends ServerError {}

/** No answer: the connection failed. */
export class MemwardenConnectionError extends MemwardenError {}
/** No answer in time: the per-request timeout passed. */
export class MemwardenTimeoutError extends MemwardenError {}

/** The chat stream ended with an `error` event after it had started. */
export class StreamError extends MemwardenError {}

const BY_STATUS: Record<number, typeof MemwardenError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: JudgeRefusedError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

/** The error class for an HTTP status. */
export function errorFor(init: ErrorInit): MemwardenError {
  const cls = BY_STATUS[init.status] ?? (init.status >= 500 ? ServerError : MemwardenError);
  return new cls(init);
}
