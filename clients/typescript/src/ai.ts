/**
 * memwarden as Vercel AI SDK tools: `remember` and `recall` in the SDK's `tool()` shape,
 * for `generateText`/`streamText({ tools: tools(client) })`. Imported from
 * `memwarden-client/ai`, so only applications that use the AI SDK need the `ai` package.
 *
 * Judge outcomes reach the model as they are: a held write answers `held: true`, and a
 * refusal is a tool error naming the code and reason codes, never the content.
 */
import { jsonSchema, type Tool, tool } from "ai";
import type { Memwarden } from "./client.js";
import { JudgeRefusedError, MemwardenError } from "./errors.js";
import type { MemoryHit } from "./types.js";

export interface ToolsOptions {
  /** Scope paths every write and recall uses (e.g. `["org/acme/user/alice"]`). */
  scope?: string[];
  /** The end user who says "I" in remembered text (default: the scope's user, else the key's). */
  speaker?: string;
  /** Most hits a recall returns (default 8). */
  limit?: number;
}

export interface RememberInput {
  text: string;
}

export interface RememberOutput {
  held: boolean;
  turnId: string;
  note: string;
}

export interface RecallInput {
  query: string;
}

export interface RecallOutput {
  hits: Pick<MemoryHit, "id" | "kind" | "text" | "score">[];
}

/** The agent-facing error a refusal becomes: the code and reasons, never the content. */
function agentError(error: unknown): Error {
  if (!(error instanceof MemwardenError)) return error instanceof Error ? error : new Error(String(error));
  const reasons =
    error instanceof JudgeRefusedError && error.reasons.length ? ` (${error.reasons.join(", ")})` : "";
  return new Error(`${error.code}${reasons}: ${error.message}`);
}

export function tools(
  client: Memwarden,
  options: ToolsOptions = {},
): { remember: Tool<RememberInput, RememberOutput>; recall: Tool<RecallInput, RecallOutput> } {
  const scope = options.scope;
  return {
    remember: tool<RememberInput, RememberOutput>({
      description:
        "Store something worth remembering about the user or the work (a fact, preference or " +
        "instruction), in the user's own words. It is checked before it is kept.",
      inputSchema: jsonSchema<RememberInput>({
        type: "object",
        properties: { text: { type: "string", minLength: 1, description: "What to remember." } },
        required: ["text"],
        additionalProperties: false,
      }),
      execute: async ({ text }, { abortSignal }) => {
        try {
          const written = await client.remember(
            text,
            { ...(scope ? { scope } : {}), ...(options.speaker ? { speaker: options.speaker } : {}) },
            abortSignal ? { signal: abortSignal } : {},
          );
          const note = written.held
            ? "held: stored for a reviewer to approve, not yet recalled"
            : "remembered";
          return { held: written.held, turnId: written.turnId, note };
        } catch (error) {
          throw agentError(error);
        }
      },
    }),
    recall: tool<RecallInput, RecallOutput>({
      description: "Search long-term memory for what is known that bears on a question.",
      inputSchema: jsonSchema<RecallInput>({
        type: "object",
        properties: { query: { type: "string", minLength: 1, description: "What to look for." } },
        required: ["query"],
        additionalProperties: false,
      }),
      execute: async ({ query }, { abortSignal }) => {
        try {
          const answer = await client.query(
            query,
            { limit: options.limit ?? 8, ...(scope ? { scope } : {}) },
            abortSignal ? { signal: abortSignal } : {},
          );
          return { hits: answer.hits.map(({ id, kind, text, score }) => ({ id, kind, text, score })) };
        } catch (error) {
          throw agentError(error);
        }
      },
    }),
  };
}
