// The Vercel AI SDK tool set: generateText from the real `ai` package runs remember and
// recall against the live server. The language model is the AI SDK's own scripted test
// model (ai/test), which asks for the tool calls; the tools and memwarden are real.
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { tools } from "memwarden-client/ai";
import { freshContext } from "./helpers.mjs";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function toolCall(id, toolName, input) {
  return {
    content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

const answer = {
  content: [{ type: "text", text: "done" }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
};

async function run(client, steps) {
  const model = new MockLanguageModelV3({ doGenerate: [...steps, answer] });
  const result = await generateText({
    model,
    tools: tools(client),
    prompt: "remember and recall",
    stopWhen: stepCountIs(steps.length + 1),
  });
  return result.steps.flatMap((step) => step.content.filter((part) => part.type.startsWith("tool-")));
}

test("an AI SDK agent remembers through the tool and recalls it", async () => {
  const { client } = await freshContext("ai-tools");
  const parts = await run(client, [
    toolCall("1", "remember", { text: "I'm Dana and I prefer green tea." }),
    toolCall("2", "recall", { query: "green tea" }),
  ]);
  const results = parts.filter((part) => part.type === "tool-result");
  assert.equal(results.length, 2, JSON.stringify(parts));
  assert.equal(results[0].output.held, false);
  assert.equal(results[0].output.note, "remembered");
  assert.ok(
    results[1].output.hits.some((hit) => hit.text.includes("green tea")),
    JSON.stringify(results[1]),
  );
});

test("through the AI SDK tools a held write says it is held and a refusal names only its reasons", async () => {
  const { client } = await freshContext("ai-judge", { judge: { enabled: true, on_warn: "hold" } });
  const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  const parts = await run(client, [
    toolCall("1", "remember", { text: "My email is dana@example.com." }),
    toolCall("2", "remember", { text: `The deploy key is ${secret}` }),
  ]);
  const [held, refused] = parts.filter((part) => part.type === "tool-result" || part.type === "tool-error");
  assert.equal(held.type, "tool-result");
  assert.equal(held.output.held, true);
  assert.match(held.output.note, /^held/);
  assert.equal(refused.type, "tool-error");
  assert.equal(String(refused.error.message), "judge_refused (credential): the judge refused this content");
  assert.ok(!String(refused.error.stack).includes(secret));
});
