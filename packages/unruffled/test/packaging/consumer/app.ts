// A small app as a project that installed the packed tarball writes it: a path parameter, a query
// model, a JSON body and a file upload. The packaging test copies this folder into a new project.
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Paging = z.object({
  page: z.int().min(1).default(1),
  size: z.int().min(1).max(50).default(10),
});

const NewNote = z
  .object({ title: z.string().min(1), tags: z.array(z.string()).default([]) })
  .meta({ id: "NewNote" });

const NoteResponse = z
  .object({ id: z.int(), title: z.string(), page: z.int(), size: z.int() })
  .meta({ id: "NoteResponse" });

export const getNote = endpoint({
  summary: "Read a note",
  params: { note_id: p.Path(z.int(), { ge: 1 }), paging: p.Query(Paging) },
  returns: [p.ResponseSpec({ model: NoteResponse })],
  handler: (_request, { note_id, paging }) =>
    new JsonResponse({ id: note_id, title: `Note ${note_id}`, page: paging.page, size: paging.size }),
});

export const createNote = endpoint({
  summary: "Create a note",
  params: { note: p.Json(NewNote) },
  returns: JsonResponse,
  handler: (_request, { note }) => new JsonResponse({ created: note }, { status: 201 }),
});

export const attachFile = endpoint({
  summary: "Attach a file to a note",
  params: { note_id: p.Path(z.int()), file: p.File(), caption: p.Form(z.string(), { default: "" }) },
  returns: JsonResponse,
  handler: async (_request, { note_id, file, caption }) =>
    new JsonResponse({ note_id, caption, name: file.filename, size: file.size, text: await file.text() }),
});

export const app = createApp({
  settings: { OPENAPI: { info: { title: "Notes", version: "1.0.0" }, allow_public: true } },
  routes: [
    path("/notes", { endpoint: createNote, methods: ["POST"], name: "create_note" }),
    path("/notes/{note_id}", { endpoint: getNote, name: "get_note" }),
    path("/notes/{note_id}/files", { endpoint: attachFile, methods: ["POST"], name: "attach_file" }),
  ],
});
