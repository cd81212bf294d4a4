export { Memwarden, type MemwardenOptions, type UploadOptions, type WaitOptions } from "./client.js";
export { MemwardenAdmin, type MemwardenAdminOptions } from "./admin.js";
export {
  AuthenticationError,
  ConflictError,
  ConnectionFailedError,
  type ErrorDetail,
  InvalidRequestError,
  JudgeRefusedError,
  MemwardenError,
  MemwardenTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitedError,
  ServerError,
  UnavailableError,
} from "./errors.js";
export { Paginator } from "./pages.js";
export { readEvents, type RawEvent } from "./sse.js";
export type { ClientOptions, RequestOptions, RetryEvent } from "./transport.js";
export type * from "./types.js";
export type { components, paths, operations } from "./schema.js";
