/**
 * Server-sent events read from a fetch body stream: the parser the EventSource API
 * would use, which cannot send a POST body or a bearer header itself.
 */

export interface RawEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parses `event:`/`data:`/`id:` fields; a blank line ends an event; `:` lines are
 * comments. As the standard says, an event the stream ends in the middle of is dropped.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void = () => {},
): AsyncGenerator<RawEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk();
      buffer += decoder.decode(value, { stream: true });
      // A lone "\r" at the end may be the first half of "\r\n": wait for the next chunk.
      const lines = buffer.split(/\r\n|\r(?!$)|\n/);
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "") {
          if (data.length > 0) yield { event, data: data.join("\n"), ...(id === undefined ? {} : { id }) };
          event = "message";
          data = [];
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
          else if (field === "id") id = value;
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
