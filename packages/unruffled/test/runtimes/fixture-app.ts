// The app the cross-runtime suite serves with `unruffled serve` on Node, Bun and Deno: one route per
// request-level behaviour, plus `/journal`, where the server's side of each check can be read
// back (what clean-ups ran, what saw the client leave), since the test runs in another process.
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createApp, httpsRedirect, trustedHost } from "unruffled";
import type { UploadFile } from "unruffled/file";
import {
  EventStreamResponse,
  FileResponse,
  type HttpRequest,
  HttpResponse,
  JsonResponse,
  StreamingResponse,
} from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { z } from "zod";

/** What happened on the server's side, in order; read with GET /journal. */
const journal: string[] = [];
const record = (entry: string): void => {
  journal.push(entry);
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when the request's client leaves (its signal aborts). */
function clientLeft(request: HttpRequest): Promise<void> {
  const signal = request.signal;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

const Enrolment = z.object({ course: z.string().min(1), credits: z.int().min(1).max(30) });

const allSources = endpoint({
  summary: "Read one parameter from each JSON-request source",
  params: {
    student_id: p.Path(z.int(), { ge: 1 }),
    term: p.Query(z.enum(["spring", "autumn"])),
    tags: p.Query(z.array(z.string()), { default: [] }),
    x_school: p.Header(z.string()),
    session: p.Cookie(z.string().min(4)),
    body: p.Json(Enrolment),
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

const describeFile = async (file: UploadFile) => ({
  name: file.filename,
  type: file.contentType,
  size: file.size,
  text: await file.text(),
});

const upload = endpoint({
  summary: "Form fields and files",
  params: {
    report: p.File({ maxSize: 64 }),
    attachments: p.File({ list: true, optional: true }),
    student_id: p.Form(z.int()),
    comment: p.Form(z.string(), { default: "" }),
  },
  returns: JsonResponse,
  handler: async (_request, { report, attachments, student_id, comment }) =>
    new JsonResponse({
      student_id,
      comment,
      report: await describeFile(report),
      attachments: await Promise.all(attachments.map(describeFile)),
    }),
});

const logIn = endpoint({
  params: { username: p.Form(z.string().min(1)), remember: p.Form(z.boolean(), { default: false }) },
  returns: JsonResponse,
  handler: (_request, { username, remember }) => new JsonResponse({ username, remember }),
});

// A strict model beside a scalar: the names neither reads are refused, whatever parser gave the fields.
const strictLogIn = endpoint({
  params: {
    login: p.Form(z.strictObject({ username: z.string().min(1) })),
    remember: p.Form(z.boolean(), { default: false }),
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

const Student = z.object({ id: z.int(), name: z.string() }).meta({ id: "Student" });

const declared = endpoint({
  summary: "A declared model: fields it does not declare are never sent",
  params: { id: p.Path(z.int()) },
  returns: [p.ResponseSpec({ model: Student })],
  handler: (_request, { id }) => new JsonResponse({ id, name: "Ada", password: "never sent" }),
});

const empty = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(null, { status: 204 }),
});

// A generator dependency: its clean-up runs after the answer, and tells whether the client had left.
const unitOfWork = dependency({
  params: { label: p.Query(z.string(), { default: "work" }) },
  async *resolve(request: HttpRequest, { label }) {
    record(`${label}: opened`);
    try {
      yield label;
    } finally {
      record(`${label}: closed, client ${request.signal.aborted ? "gone" : "there"}`);
    }
  },
});

const withWork = endpoint({
  params: { work: p.Depends(unitOfWork), fail: p.Query(z.boolean(), { default: false }) },
  returns: JsonResponse,
  handler: (request, { work, fail }) => {
    request.afterResponse(() => record(`${work}: after the response`));
    if (fail) throw new Error("the handler failed");
    return new JsonResponse({ work });
  },
});

// Reads request.signal and records every abort it sees: after a complete answer there must be none.
const watched = endpoint({
  params: { label: p.Query(z.string()) },
  returns: JsonResponse,
  handler: (request, { label }) => {
    request.signal.addEventListener("abort", () => record(`${label}: signal aborted`), { once: true });
    return new JsonResponse({ label });
  },
});

// Waits until its client leaves (or a minute), then records it: the "client left" check.
const waitForLeave = endpoint({
  params: { work: p.Depends(unitOfWork) },
  returns: JsonResponse,
  handler: async (request, { work }) => {
    record(`${work}: waiting`);
    await Promise.race([clientLeft(request), delay(60_000)]);
    record(`${work}: ${request.signal.aborted ? "saw the client leave" : "timed out"}`);
    return new JsonResponse({ work });
  },
});

// Holds the request `ms` milliseconds: a request in flight while the server closes.
const hold = endpoint({
  params: { ms: p.Query(z.int().min(0).max(30_000)) },
  returns: JsonResponse,
  handler: async (_request, { ms }) => {
    record("hold: started");
    await delay(ms);
    return new JsonResponse({ held: ms });
  },
});

// A body streamed from an async generator that then waits on what does not watch request.signal
// (a query's next batch, released by GET /next-batch): a client that leaves mid-body gets its
// generator closed, and the work after the answer starts at once, not when that await settles.
const batches = new Map<string, () => void>();

const rows = endpoint({
  params: { work: p.Depends(unitOfWork) },
  returns: HttpResponse,
  handler: (request, { work }) => {
    request.afterResponse(() => record(`${work}: after the response`));
    const nextBatch = new Promise<void>((resolve) => batches.set(work, resolve));
    async function* source() {
      try {
        yield "row 1\n";
        record(`${work}: waiting for the next batch`);
        await nextBatch;
        yield "row 2\n";
      } finally {
        record(`${work}: generator closed`);
      }
    }
    return new HttpResponse(Readable.from(source()), {}, "text/plain");
  },
});

const releaseBatch = endpoint({
  params: { label: p.Query(z.string()) },
  returns: JsonResponse,
  handler: (_request, { label }) => {
    batches.get(label)?.();
    return new JsonResponse({ released: label });
  },
});

// A StreamingResponse from an endless async generator: a client that leaves mid-stream gets its
// generator's finally run; `fail=before` throws before the first chunk (a 500), `fail=after` after it.
const streamed = endpoint({
  params: {
    label: p.Query(z.string()),
    fail: p.Query(z.enum(["before", "after", "never"]), { default: "never" }),
  },
  returns: StreamingResponse,
  handler: (_request, { label, fail }) => {
    async function* chunks() {
      try {
        if (fail === "before") throw new Error("the source failed before its first chunk");
        yield `${label}: first\n`;
        if (fail === "after") throw new Error("the source failed mid-stream");
        for (let n = 0; ; n++) {
          yield new TextEncoder().encode(`${label}: ${n}\n`);
          if (n === 0) record(`${label}: streaming`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        record(`${label}: source closed`);
      }
    }
    return new StreamingResponse(chunks(), { contentType: "text/plain; charset=utf-8" });
  },
});

const Tick = z.object({ n: z.int() }).meta({ id: "Tick" });

const ticks = endpoint({
  params: {
    count: p.Query(z.int().min(0), { default: 3 }),
    label: p.Query(z.string(), { default: "ticks" }),
  },
  returns: [p.ResponseSpec({ model: Tick, content_type: "text/event-stream" })],
  handler: (request, { count, label }) => {
    async function* source() {
      try {
        for (let n = 1; n <= count; n++) yield { id: String(n), data: { n } };
        // count 0: an endless stream, which a client leaving or the server closing ends.
        if (count === 0) {
          record(`${label}: streaming`);
          yield { data: { n: 0 } };
          await clientLeft(request);
        }
      } finally {
        record(`${label}: ended, signal ${request.signal.aborted ? "aborted" : "not aborted"}`);
      }
    }
    return new EventStreamResponse(source(), { heartbeat: 60_000 });
  },
});

// An event stream whose events are all ready at once (a replayed history), endless until
// GET /replay-release?label= is answered: a server that lets its event loop turn between events
// answers that request while the stream runs; one that does not, never, while the client reads.
const releasedReplays = new Set<string>();

const replay = endpoint({
  params: { label: p.Query(z.string()) },
  returns: [p.ResponseSpec({ model: Tick, content_type: "text/event-stream" })],
  handler: (_request, { label }) => {
    async function* history() {
      let n = 0;
      while (!releasedReplays.has(label)) yield { data: { n: ++n } };
      yield { event: "released", data: { n } };
    }
    return new EventStreamResponse(history(), { heartbeat: 0 });
  },
});

const releaseReplay = endpoint({
  params: { label: p.Query(z.string()) },
  returns: JsonResponse,
  handler: (_request, { label }) => {
    releasedReplays.add(label);
    return new JsonResponse({ released: label });
  },
});

// A JSON parameter, then the same body again as text and as bytes (Bun reads it as text first).
const jsonThenRaw = endpoint({
  params: { body: p.Json(z.object({ note: z.string() })) },
  returns: JsonResponse,
  handler: async (request, { body }) =>
    new JsonResponse({ body, text: await request.text(), bytes: (await request.body()).toString("hex") }),
});

// Any JSON value, answered as received (POST /anything).
const anything = endpoint({
  params: { value: p.Json(z.unknown()) },
  returns: JsonResponse,
  handler: (_request, { value }) => new JsonResponse({ value }),
});

const clientAddress = endpoint({
  returns: JsonResponse,
  handler: (request) => new JsonResponse(request.client),
});

// The single-value headers as the app reads them: a request may repeat them (GET /headers-seen).
const headersSeen = endpoint({
  returns: JsonResponse,
  handler: (request) =>
    new JsonResponse({
      host: request.header("host") ?? null,
      authorization: request.header("authorization") ?? null,
      user_agent: request.header("user-agent") ?? null,
    }),
});

// A bearer token, which the app must never take from one of two Authorization lines.
const bearer = httpBearer({
  verify: (token) => (token === "first" || token === "second" ? { token } : null),
});

const whoAmI = endpoint({
  params: { user: p.Security(bearer) },
  returns: JsonResponse,
  handler: (_request, { user }) => new JsonResponse(user),
});

// A {name:path} placeholder: the rest of the path, which no runtime's own router is handed.
const readFile = endpoint({
  params: { file_path: z.string() },
  returns: JsonResponse,
  handler: (_request, { file_path }) => new JsonResponse({ file_path }),
});

// Files on disk, written when the app is loaded: a small one for headers and ranges, and one large
// enough to fill the socket's buffers, for a client that leaves mid-file.
const filesDir = mkdtempSync(join(tmpdir(), "runtimes-fixture-files-"));
writeFileSync(join(filesDir, "digits.txt"), "0123456789abcdef");
const bigFile = join(filesDir, "big.bin");
writeFileSync(bigFile, new Uint8Array(16 * 1024 * 1024));

const sendFile = endpoint({
  params: { name: p.Path(z.string()) },
  returns: FileResponse,
  handler: (_request, { name }) => new FileResponse(join(filesDir, name)),
});

// The same file at a path without placeholders: Bun's own router answers it (fixed routes).
const sendDigits = endpoint({
  returns: FileResponse,
  handler: () => new FileResponse(join(filesDir, "digits.txt")),
});

// A file that shrank after it was looked at: its stat says 32 bytes, it holds 16.
const sendShrunk = endpoint({
  returns: FileResponse,
  handler: () =>
    new FileResponse(join(filesDir, "digits.txt"), {
      stat: { size: 32, mtimeMs: Date.UTC(2026, 0, 2), isFile: () => true },
    }),
});

// How many descriptors of the server's process are open on the large file.
const openFiles = endpoint({
  returns: JsonResponse,
  handler: () =>
    new JsonResponse({
      open: readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === bigFile;
        } catch {
          return false;
        }
      }).length,
    }),
});

// Route paths a client must percent-encode (docs/endpoints-and-routes.md, "What the router answers").
const named = (name: string) =>
  endpoint({
    returns: JsonResponse,
    handler: (request) => new JsonResponse({ route: name, self: new URL(request.urlFor(name)).pathname }),
  });
const dessert = endpoint({
  params: { size: p.Path(z.string()) },
  returns: JsonResponse,
  handler: (_request, { size }) => new JsonResponse({ route: "dessert", size }),
});

const readJournal = endpoint({
  returns: JsonResponse,
  handler: () => new JsonResponse(journal),
});

export const app = createApp({
  settings: {
    OPENAPI: { info: { title: "Runtimes fixture", version: "1.0.0" }, allow_public: true },
    LIMITS: { body_size: 1024, files: 3 },
    LOGGING: { access_log: false },
  },
  routes: [
    path("/students/{student_id}/enrolments", { endpoint: allSources, methods: ["POST"] }),
    path("/uploads", { endpoint: upload, methods: ["POST"] }),
    path("/login", { endpoint: logIn, methods: ["POST"] }),
    path("/strict-login", { endpoint: strictLogIn, methods: ["POST"] }),
    path("/declared/{id}", { endpoint: declared }),
    path("/empty", { endpoint: empty, methods: ["DELETE"] }),
    path("/work", { endpoint: withWork }),
    path("/watched", { endpoint: watched }),
    path("/wait-for-leave", { endpoint: waitForLeave }),
    path("/hold", { endpoint: hold }),
    path("/ticks", { endpoint: ticks }),
    path("/rows", { endpoint: rows }),
    path("/replay", { endpoint: replay }),
    path("/replay-release", { endpoint: releaseReplay }),
    path("/streamed", { endpoint: streamed }),
    path("/next-batch", { endpoint: releaseBatch }),
    path("/client", { endpoint: clientAddress }),
    path("/json-then-raw", { endpoint: jsonThenRaw, methods: ["POST"] }),
    path("/anything", { endpoint: anything, methods: ["POST"] }),
    path("/headers-seen", { endpoint: headersSeen }),
    path("/whoami", { endpoint: whoAmI }),
    path("/journal", { endpoint: readJournal }),
    path("/files/{file_path:path}", { endpoint: readFile }),
    // Read the host and the scheme as request.client resolves them, which differs by runtime.
    path("/secure", {
      middleware: [trustedHost({ hosts: ["127.0.0.1", "localhost"] }), httpsRedirect()],
      routes: [path("/client", { endpoint: clientAddress, name: "secure_client" })],
    }),
    path("/file/{name}", { endpoint: sendFile }),
    path("/open-files", { endpoint: openFiles }),
    path("/digits.txt", { endpoint: sendDigits }),
    path("/shrunk", { endpoint: sendShrunk }),
    path("/café", { endpoint: named("cafe_accent"), name: "cafe_accent" }),
    path("/cafe", { endpoint: named("cafe"), name: "cafe" }),
    path("/a/b", { endpoint: named("a_b"), name: "a_b" }),
    path("/menu/crème brûlée/{size}", { endpoint: dessert }),
  ],
  // Told on standard output, which the test reads once the process has exited.
  onClose: () => {
    rmSync(filesDir, { recursive: true, force: true });
    process.stdout.write(`closed with journal ${JSON.stringify(journal)}\n`);
  },
});
