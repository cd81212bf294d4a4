/**
 * Lists page the same way on every route (`limit`, `cursor`, `next_cursor`), so one
 * Paginator serves them all: `await` it for the first page, or `for await` over it for
 * every item, the cursor followed until the server says there is no further page.
 */

import type { Query, RequestOptions, Transport } from "./transport.js";

export interface CursorPage {
  next_cursor?: string | null;
}

export class Paginator<Item, Page extends CursorPage> implements AsyncIterable<Item>, PromiseLike<Page> {
  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<Page>,
    private readonly itemsOf: (page: Page) => Item[],
    private readonly start: string | undefined = undefined,
  ) {}

  /** The first page (the one `cursor` names, if it was given). */
  page(): Promise<Page> {
    return this.fetchPage(this.start);
  }

  then<A = Page, B = never>(
    onfulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.page().then(onfulfilled, onrejected);
  }

  /** Every page in turn. */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    let cursor = this.start;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* this.itemsOf(page);
  }

  /** Every item, or the first `max` of them. */
  async toArray(max = Infinity): Promise<Item[]> {
    const items: Item[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}

/** A Paginator over a GET list route; `cursor` in `query` starts it further on. */
export function paginate<Item, Page extends CursorPage>(
  http: Transport,
  path: string,
  query: { cursor?: string | null } & object,
  itemsOf: (page: Page) => Item[],
  options?: RequestOptions,
): Paginator<Item, Page> {
  const { cursor, ...rest } = query;
  return new Paginator(
    (next) => http.json<Page>({ method: "GET", path, query: { ...(rest as Query), cursor: next } }, options),
    itemsOf,
    cursor ?? undefined,
  );
}
