export { Memwarden, type MemwardenOptions, type UploadOptions, type WaitOptions } from "./client.js";
export { MemwardenAdmin, type MemwardenAdminOptions } from "./admin.js";
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorBody,
  JudgeRefusedError,
  MemwardenConnectionError,
  MemwardenError,
  MemwardenTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  StreamError,
} from "./errors.js";
export { Paginator } from "./pages.js";
export { readEvents, type RawEvent } from "./sse.js";
export type { ClientOptions, RequestOptions } from "./transport.js";
export type * from "./types.js";
export type { components, paths, operations } from "./schema.js";
