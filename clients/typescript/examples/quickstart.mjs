// memwarden from JavaScript or TypeScript in a few lines: remember, recall, stream an answer.
//
//   MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
//     node examples/quickstart.mjs
import { JudgeRefusedError, Memwarden } from "memwarden-client";

const memory = new Memwarden({
  url: process.env.MEMWARDEN_URL ?? "http://127.0.0.1:8420",
  key: process.env.MEMWARDEN_KEY, // the key alone: the client asks the server for its Context
});

// Every write is judged, extracted and reconciled before it is kept. A refusal is an
// error carrying reason codes, never the content; a write waiting for a reviewer says so.
try {
  const written = await memory.remember("I'm Dana, I lead the platform team at Initech.", {
    scope: ["org/initech"],
  });
  console.log(written.held ? "held for review" : `remembered turn ${written.turnId}`);
} catch (error) {
  if (!(error instanceof JudgeRefusedError)) throw error;
  console.log(`refused: ${error.code} (${error.reasons.join(", ")})`);
}

// Hybrid (full-text + vector) recall.
const { hits } = await memory.query("who leads the platform team?", { limit: 3 });
for (const hit of hits) console.log(`- ${hit.text}`);

// An answer from memory, streamed as server-sent events.
let answer = "";
for await (const event of memory.chatStream("Who is Dana?", { remember: false })) {
  if (event.event === "token") answer += event.data.text;
}
console.log(answer);
