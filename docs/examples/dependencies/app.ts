import { createApp, HttpError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const books = Array.from({ length: 25 }, (_, index) => ({ id: index + 1, title: `Book ${index + 1}` }));

// #region paging
export const paging = dependency({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number, from 1" }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100 }),
  },
  resolve: (_request, { page, size }) => ({ offset: (page - 1) * size, limit: size }),
});

const listBooks = endpoint({
  params: { paging: p.Depends(paging), title: p.Query(z.string().optional()) },
  returns: JsonResponse,
  handler(_request, { paging, title }) {
    const found = books.filter((book) => title === undefined || book.title.includes(title));
    return new JsonResponse(found.slice(paging.offset, paging.offset + paging.limit));
  },
});
// #endregion

// #region generator
export const journal: string[] = [];

export const unitOfWork = dependency({
  async *resolve() {
    const pending: string[] = [];
    try {
      yield pending;
      journal.push(...pending); // after the answer: commit
    } catch (error) {
      pending.length = 0; // the handler failed: roll back
      throw error;
    }
  },
});

const addNote = endpoint({
  params: { work: p.Depends(unitOfWork), text: p.Json(z.string().min(1)) },
  returns: JsonResponse,
  handler(_request, { work, text }) {
    work.push(text);
    if (journal.includes(text)) throw new HttpError(409, `"${text}" is already in the journal`);
    return new JsonResponse({ queued: text }, { status: 202 });
  },
});
// #endregion

// #region group
const apiVersion = dependency({
  params: { version: p.Header(z.literal("2"), { alias: "X-API-Version" }) },
  resolve: () => undefined,
});

const stats = endpoint({
  returns: JsonResponse,
  handler: () => new JsonResponse({ books: books.length }),
});

export const app = createApp({
  routes: [
    path("/books", { endpoint: listBooks }),
    path("/notes", { endpoint: addNote, methods: ["POST"] }),
    path("/admin", { dependencies: [apiVersion], routes: [path("/stats", { endpoint: stats })] }),
  ],
});
// #endregion
