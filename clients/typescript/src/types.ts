/** Names for the generated OpenAPI types (src/schema.d.ts) that the client's verbs use. */
import type { components, paths } from "./schema.js";

export type Schemas = components["schemas"];

/** The query parameters of a GET route, without the paging ones the Paginator sends. */
export type QueryOf<P extends keyof paths> = paths[P] extends {
  get: { parameters: { query?: infer Q } };
}
  ? NonNullable<Q>
  : never;

export type ListOptions<P extends keyof paths> = Omit<QueryOf<P>, "cursor">;

export type FactsBody = Schemas["FactsBody"];
export type FactsResponse = Schemas["FactsResponse"];
export type RememberOptions = Omit<FactsBody, "text">;
export type BatchBody = Schemas["BatchBody"];
export type BatchItem = BatchBody["items"][number];
export type BatchResponse = Schemas["BatchResponse"];
export type QueryBody = Schemas["QueryBody"];
export type QueryOptions = Omit<QueryBody, "query">;
export type QueryResponse = Schemas["QueryResponse"];
export type MemoryHit = Schemas["MemoryHit"];
export type ProfileOptions = QueryOf<"/api/v1/{context_id}/profile">;
export type ProfileResponse = Schemas["ProfileResponse"];
export type StateOptions = QueryOf<"/api/v1/{context_id}/state">;
export type StateResponse = Schemas["StateResponse"];
export type ChatBody = Schemas["ChatBody"];
export type ChatOptions = Omit<ChatBody, "message">;
export type ChatResponse = Schemas["ChatResponse"];
export type ReflectBody = Schemas["ReflectBody"];
export type ReflectResponse = Schemas["ReflectResponse"];
export type ReprocessResponse = Schemas["ReprocessResponse"];

/**
 * One event of `chatStream`: the memories first, then tokens, then `done`, or `error`
 * when the answer failed after it had started.
 */
export type ChatStreamEvent =
  | { event: "memories"; data: Schemas["ChatStreamMemories"] }
  | { event: "token"; data: Schemas["ChatStreamToken"] }
  | { event: "done"; data: Schemas["ChatStreamDone"] }
  | { event: "error"; data: Schemas["ChatStreamError"] };

export type Document = Schemas["DocumentResponse"];
export type DocumentList = Schemas["DocumentList"];
export type DocumentDeleted = Schemas["DocumentDeleted"];

export type Judgement = Schemas["Judgement"];
export type JudgementList = Schemas["JudgementList"];
export type JudgementFilters = ListOptions<"/api/v1/{context_id}/judgements">;
export type OverrideBody = Schemas["OverrideBody"];
export type OverrideResult = Schemas["OverrideResult"];
export type HoldDecision = Schemas["HoldDecision"];
export type DryRunBody = Schemas["DryRunBody"];
export type DryRunResult = Schemas["DryRunResult"];

export type ScanStarted = Schemas["ScanStarted"];
export type HygieneRun = Schemas["HygieneRun"];
export type QueuePage = Schemas["QueuePage"];
export type QueueItem = Schemas["QueueItem"];
export type QueueOptions = ListOptions<"/api/v1/{context_id}/hygiene/queue">;
export type Resolution = Schemas["ResolveBody"]["resolution"];
export type QueueResolved = Schemas["QueueResolved"];
export type MemoryRestored = Schemas["MemoryRestored"];
export type QueueChallenged = Schemas["QueueChallenged"];

/** The background passes a run can be queued for. */
export type PassName = "rollup" | "gist" | "consolidation" | "elaboration";
export type PassStarted = Schemas["PassStarted"];
export type PassRun = Schemas["PassRun"];

export type CommandRequest = Schemas["CommandRequest"];
export type CommandResult = Schemas["CommandResult"];
export type ReadRequest = Schemas["ReadRequest"];
export type ReadAnswer = Schemas["ReadAnswer"];
export type SearchRequest = Schemas["SearchRequest"];
export type SearchAnswer = Schemas["SearchAnswer"];
export type EmbeddingRequest = Schemas["EmbeddingRequest"];
export type EmbeddingAnswer = Schemas["EmbeddingAnswer"];
export type ReviewRequest = Schemas["ReviewRequest"];
export type ReceiptAnswer = Schemas["ReceiptAnswer"];
export type ReviewStateAnswer = Schemas["ReviewStateAnswer"];
export type ReceiptReadRequest = Schemas["ReceiptReadRequest"];
export type EligibilityAnswer = Schemas["EligibilityAnswer"];

export type ChangePage = Schemas["ChangePage"];
export type ChangeEntry = Schemas["ChangeEntry"];
export type ChangesOptions = ListOptions<"/api/v1/memory/changes">;
export type AuditPage = Schemas["AuditPage"];
export type AuditEvent = Schemas["AuditEvent"];
export type AuditOptions = ListOptions<"/api/v1/{context_id}/audit">;
export type UsageOptions = QueryOf<"/api/v1/{context_id}/usage">;
export type UsageAnswer = Schemas["UsageAnswer"];

export type CreateWebhook = Schemas["CreateWebhook"];
export type CreatedWebhook = Schemas["CreatedWebhook"];
export type Webhook = Schemas["Webhook"];
export type WebhookList = Schemas["WebhookList"];
export type PatchWebhook = Schemas["PatchWebhook"];
export type DeletedWebhook = Schemas["DeletedWebhook"];
export type RotatedSecret = Schemas["RotatedSecret"];
export type DeliveryList = Schemas["DeliveryList"];
export type Delivery = DeliveryList["deliveries"][number];

export type ErasureBody = Schemas["ErasureBody"];
export type ErasureStarted = Schemas["ErasureStarted"];
export type Erasure = Schemas["Erasure"];

export type CreateContext = Schemas["CreateContext"];
export type CreatedContext = Schemas["CreatedContext"];
export type ContextInfo = Schemas["ContextInfo"];
export type ContextList = Schemas["ContextList"];
export type CreateKey = Schemas["CreateKey"];
export type IssuedKey = Schemas["IssuedKey"];
export type KeyInfo = Schemas["KeyInfo"];
export type KeyList = Schemas["KeyList"];
export type RevokedKey = Schemas["RevokedKey"];
export type ContextConfig = Schemas["ContextConfig"];
/** A partial configuration: objects merge, omitted fields stay, `""` clears an addendum. */
export type ConfigPatch = DeepPartial<ContextConfig>;
type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
export type HealthReport = Schemas["HealthReport"];

export type WhoAmI = Schemas["WhoAmI"];
export type RecordHistory = Schemas["RecordHistory"];
export type ImportStarted = Schemas["ImportStarted"];
export type ImportJob = Schemas["ImportJob"];
/** One line of an export: `header`, then records, links, sessions, turns, ..., then `end`. */
export type ExportLine = { kind: string; [field: string]: unknown };
