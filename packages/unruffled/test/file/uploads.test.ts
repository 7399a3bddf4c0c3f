import { p } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../support/echo.ts";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";
import { jsonOf, serveEndpoint } from "../support/serve.ts";

const KiB = 1024;
const limits = { file_size: 64 * KiB, upload_size: 256 * KiB, files: 3, fields: 2, field_size: 100 };
const upload = echo({ files: p.File({ list: true }), note: p.Form(z.string(), { default: "" }) });

function formWith(count: number, size: number): FormData {
  const form = new FormData();
  for (let index = 0; index < count; index++)
    form.append("files", new Blob([new Uint8Array(size)]), `f${index}.bin`);
  return form;
}

describe("uploads are streamed and limited", () => {
  it("refuses a file past its limit with 413 before the rest of the body is sent", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"], {
      settings: { LIMITS: { ...limits, upload_size: 200 * 1024 * 1024 } },
    });
    const exchange = await openRaw(server.port);
    const boundary = "----unruffled";
    const total = 100 * 1024 * 1024;
    await exchange.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total}\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    let sent = 0;
    const chunk = Buffer.alloc(16 * KiB);
    // Keep sending until the answer arrives; a server that read everything would need all 100 MiB.
    while (!exchange.received().includes("\r\n\r\n") && sent < total) {
      if (!(await exchange.write(chunk))) break;
      sent += chunk.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const raw = await exchange.waitFor("bytes");
    expect(statusOf(raw)).toBe(413);
    expect(JSON.parse(bodyOf(raw))).toEqual({
      detail: 'File "files" is larger than the limit of 65536 bytes',
    });
    expect(sent).toBeLessThan(4 * 1024 * 1024);
    await exchange.closed();
  });

  it("refuses a body whose announced length passes the total upload limit at once", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"], { settings: { LIMITS: limits } });
    const exchange = await openRaw(server.port);
    await exchange.write(
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n",
    );
    const raw = await exchange.closed();
    expect(statusOf(raw)).toBe(413);
    expect(JSON.parse(bodyOf(raw))).toEqual({
      detail: "Multipart body is larger than the limit of 262144 bytes",
    });
  });

  it("refuses more files than the limit with 413", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"], { settings: { LIMITS: limits } });
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: formWith(4, 10) }))).toEqual({
      status: 413,
      body: { detail: "Too many files: the limit is 3" },
    });
  });

  it("refuses a multipart body past the total limit while it streams", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"], {
      settings: { LIMITS: { ...limits, upload_size: 100 * KiB, files: 10 } },
    });
    const response = await server
      .fetch("/upload", { method: "POST", body: formWith(3, 60 * KiB) })
      .catch((error: Error) => error);
    // fetch announces the length, so the refusal comes before any byte is read.
    expect(response instanceof Response ? await jsonOf(response) : response).toEqual({
      status: 413,
      body: { detail: "Multipart body is larger than the limit of 102400 bytes" },
    });
  });

  it("refuses more form fields than the limit, and a field past its size", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"], { settings: { LIMITS: limits } });
    const many = formWith(1, 1);
    for (const name of ["a", "b", "c"]) many.append(name, "v");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: many }))).toEqual({
      status: 413,
      body: { detail: "Too many form fields: the limit is 2" },
    });
    const long = formWith(1, 1);
    long.append("note", "x".repeat(101));
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: long }))).toEqual({
      status: 413,
      body: { detail: 'Form field "note" is larger than the limit of 100 bytes' },
    });
  });

  it("applies a File parameter's own maxSize", async () => {
    const server = await serveEndpoint("/upload", echo({ avatar: p.File({ maxSize: 1000 }) }), ["POST"], {
      settings: { LIMITS: limits },
    });
    const form = new FormData();
    form.set("avatar", new Blob([new Uint8Array(1001)]), "a.png");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 413,
      body: { detail: 'File "avatar" is larger than the limit of 1000 bytes' },
    });
  });

  it("counts and drops files of fields nobody declared", async () => {
    const server = await serveEndpoint("/upload", echo({ avatar: p.File() }), ["POST"]);
    const form = new FormData();
    form.set("avatar", new Blob(["a"]), "a.png");
    form.set("other", new Blob(["zzz"]), "z.png");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { avatar: { filename: "a.png", contentType: "application/octet-stream", size: 1 } },
    });
  });

  it("answers 400 for a multipart body without a boundary", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    expect(
      await jsonOf(
        server.fetch("/upload", {
          method: "POST",
          headers: { "content-type": "multipart/form-data" },
          body: "x",
        }),
      ),
    ).toEqual({ status: 400, body: { detail: "Malformed multipart body: Multipart: Boundary not found" } });
  });

  it("answers 400 for a truncated multipart body", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    const body = '--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhalf a fi';
    expect(
      await jsonOf(
        server.fetch("/upload", {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=b" },
          body,
        }),
      ),
    ).toEqual({
      status: 400,
      body: { detail: "Malformed multipart body: Unexpected end of multipart data" },
    });
  });

  // Regression: the dropped file's stream emitted an 'error' nobody listened to, which crashed the process.
  it("answers 400 for a body cut short inside a file nobody declared, and keeps running", async () => {
    const server = await serveEndpoint("/upload", echo({ avatar: p.File() }), ["POST"]);
    const body = '--b\r\nContent-Disposition: form-data; name="other"; filename="z.png"\r\n\r\nhalf a fi';
    const send = () =>
      jsonOf(
        server.fetch("/upload", {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=b" },
          body,
        }),
      );
    const expected = {
      status: 400,
      body: { detail: "Malformed multipart body: Unexpected end of multipart data" },
    };
    expect(await send()).toEqual(expected);
    expect(await send()).toEqual(expected);
  });

  it("refuses a non-multipart body on a File endpoint with 415", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    expect(
      await jsonOf(server.fetch("/upload", { method: "POST", body: new URLSearchParams({ note: "x" }) })),
    ).toEqual({
      status: 415,
      body: { detail: "Expected a multipart/form-data body, got application/x-www-form-urlencoded" },
    });
  });

  it("reads a request without a body as one whose files and fields are all absent: 422 if one is required", async () => {
    const optional = await serveEndpoint(
      "/avatar",
      echo({ avatar: p.File({ optional: true }), photos: p.File({ list: true, optional: true }) }),
      ["POST"],
    );
    expect(await jsonOf(optional.fetch("/avatar", { method: "POST" }))).toEqual({
      status: 200,
      body: { photos: [] },
    });
    const required = await serveEndpoint("/upload", upload, ["POST"]);
    expect(await jsonOf(required.fetch("/upload", { method: "POST" }))).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "files"], msg: "Field required", type: "missing", input: null }] },
    });
    // A body that is there but says nothing of its format still cannot be read as multipart.
    const raw = await openRaw(required.port);
    await raw.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc");
    const answer = await raw.closed();
    expect([statusOf(answer), JSON.parse(bodyOf(answer))]).toEqual([
      415,
      { detail: "Expected a multipart/form-data body, got no content type" },
    ]);
  });

  it("answers a file past its limit with Connection: close, as the rest of the body is never read", async () => {
    const server = await serveEndpoint("/upload", echo({ avatar: p.File({ maxSize: 10 }) }), ["POST"]);
    const form = new FormData();
    form.set("avatar", new Blob(["x".repeat(11)]), "a.png");
    const response = await server.fetch("/upload", { method: "POST", body: form });
    expect([response.status, response.headers.get("connection"), await response.json()]).toEqual([
      413,
      "close",
      { detail: 'File "avatar" is larger than the limit of 10 bytes' },
    ]);
  });

  it("refuses a chunked multipart body as soon as it passes the total limit", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"], {
      settings: { LIMITS: { ...limits, upload_size: 100 * KiB, files: 1000 } },
    });
    const exchange = await openRaw(server.port);
    await exchange.write(
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const chunk = (data: Buffer) =>
      Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
    // Files of 30 KiB, each under its own limit; no length is announced, so only counting stops them.
    let files = 0;
    while (!exchange.received().includes("\r\n\r\n") && files < 1000) {
      const head = `--b\r\nContent-Disposition: form-data; name="files"; filename="f${files}.bin"\r\n\r\n`;
      const part = Buffer.concat([Buffer.from(head), Buffer.alloc(30 * KiB, 97), Buffer.from("\r\n")]);
      if (!(await exchange.write(chunk(part)))) break;
      files++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const raw = await exchange.waitFor("bytes");
    expect([statusOf(raw), raw.includes("\r\nconnection: close\r\n"), JSON.parse(bodyOf(raw))]).toEqual([
      413,
      true,
      { detail: "Multipart body is larger than the limit of 102400 bytes" },
    ]);
    expect(files).toBeLessThan(1000);
  });

  it("keeps only the file name the client sent, without any folder part", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    const form = new FormData();
    form.append("files", new Blob(["a"]), "C:\\Users\\ann\\report.txt");
    form.append("files", new Blob(["b"]), "../../etc/passwd");
    form.append("files", new Blob(["c"]), "photos/2026/cat.png");
    const { status, body } = await jsonOf(server.fetch("/upload", { method: "POST", body: form }));
    expect([status, (body as { files: { filename: string }[] }).files.map((file) => file.filename)]).toEqual([
      200,
      ["report.txt", "passwd", "cat.png"],
    ]);
  });

  it("gives a part's media type without its parameters, and text/plain for a part that names none", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    const body =
      '--b\r\nContent-Disposition: form-data; name="files"; filename="a.csv"\r\nContent-Type: Text/CSV; charset=utf-8\r\n\r\nx,y\r\n' +
      '--b\r\nContent-Disposition: form-data; name="files"; filename="notes"\r\n\r\nhello\r\n--b--\r\n';
    const response = server.fetch("/upload", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body,
    });
    // RFC 7578 §4.4 and the HTML form parser read a part without Content-Type as text/plain.
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: {
        files: [
          { filename: "a.csv", contentType: "text/csv", size: 3 },
          { filename: "notes", contentType: "text/plain", size: 5 },
        ],
        note: "",
      },
    });
  });

  it("gives a file part that names no file name an empty filename, not undefined", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    // What undici's FormData sends for append(name, blob, ""): a Content-Type and no filename.
    const body =
      '--b\r\nContent-Disposition: form-data; name="files"\r\nContent-Type: application/octet-stream\r\n\r\nabc\r\n--b--\r\n';
    const response = server.fetch("/upload", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body,
    });
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: { files: [{ filename: "", contentType: "application/octet-stream", size: 3 }], note: "" },
    });
  });

  it("reads a File parameter's alias as the field name on the wire", async () => {
    const server = await serveEndpoint("/upload", echo({ avatar: p.File({ alias: "avatar-image" }) }), [
      "POST",
    ]);
    const form = new FormData();
    form.set("avatar-image", new Blob(["png"], { type: "image/png" }), "me.png");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { avatar: { filename: "me.png", contentType: "image/png", size: 3 } },
    });
    const named = new FormData();
    named.set("avatar", new Blob(["png"]), "me.png");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: named }))).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["body", "avatar-image"], msg: "Field required", type: "missing", input: null }],
      },
    });
  });

  it("gives the content as a stream too", async () => {
    const { JsonResponse } = await import("unruffled/http");
    const { endpoint } = await import("unruffled/route");
    const streamed = endpoint({
      params: { data: p.File() },
      returns: JsonResponse,
      async handler(_request, { data }) {
        let bytes = 0;
        for await (const chunk of data.stream()) bytes += (chunk as Buffer).length;
        return new JsonResponse({ bytes, text: (await data.text()).slice(0, 3) });
      },
    });
    const server = await serveEndpoint("/upload", streamed, ["POST"]);
    const form = new FormData();
    form.set("data", new Blob(["abc".repeat(50_000)]), "d.txt");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { bytes: 150_000, text: "abc" },
    });
  });
});

describe("the default upload limits are the documented ones", () => {
  const MiB = 1024 * KiB;
  const anyUpload = echo({
    files: p.File({ list: true, optional: true }),
    note: p.Form(z.string(), { default: "" }),
  });
  const statusFor = async (
    server: { fetch(url: string, init: RequestInit): Promise<Response> },
    form: FormData,
  ) =>
    (await jsonOf(server.fetch("/upload", { method: "POST", body: form }))) as {
      status: number;
      body: unknown;
    };

  it("10 MiB a file, 10 files, 100 fields and 1 MiB a field: at the limit 200, past it 413", async () => {
    const server = await serveEndpoint("/upload", anyUpload, ["POST"]);
    const file = (size: number) => {
      const form = new FormData();
      form.set("files", new Blob([new Uint8Array(size)]), "f.bin");
      return form;
    };
    const files = (count: number) => formWith(count, 1);
    const fields = (count: number) => {
      const form = new FormData();
      for (let index = 0; index < count; index++) form.append(`k${index}`, "v");
      return form;
    };
    const note = (size: number) => {
      const form = new FormData();
      form.set("note", "x".repeat(size));
      return form;
    };
    const answers = [
      await statusFor(server, file(10 * MiB)),
      await statusFor(server, file(10 * MiB + 1)),
      await statusFor(server, files(10)),
      await statusFor(server, files(11)),
      await statusFor(server, fields(100)),
      await statusFor(server, fields(101)),
      await statusFor(server, note(MiB)),
      await statusFor(server, note(MiB + 1)),
    ];
    expect(answers.map((answer) => (answer.status === 200 ? 200 : answer))).toEqual([
      200,
      { status: 413, body: { detail: 'File "files" is larger than the limit of 10485760 bytes' } },
      200,
      { status: 413, body: { detail: "Too many files: the limit is 10" } },
      200,
      { status: 413, body: { detail: "Too many form fields: the limit is 100" } },
      200,
      { status: 413, body: { detail: 'Form field "note" is larger than the limit of 1048576 bytes' } },
    ]);
  });

  it("50 MiB a body", async () => {
    const server = await serveEndpoint("/upload", anyUpload, ["POST"]);
    const exchange = await openRaw(server.port);
    await exchange.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${50 * MiB + 1}\r\n\r\n`,
    );
    const raw = await exchange.closed();
    expect([statusOf(raw), JSON.parse(bodyOf(raw))]).toEqual([
      413,
      { detail: "Multipart body is larger than the limit of 52428800 bytes" },
    ]);
  });
});

describe("audit-b: what docs/uploads.md promises of UploadFile and other bodies", () => {
  it("gives each file its form field as fieldName, and read() a Buffer of size bytes", async () => {
    const { JsonResponse } = await import("unruffled/http");
    const { endpoint } = await import("unruffled/route");
    const described = endpoint({
      params: { report: p.File(), scans: p.File({ list: true, alias: "scan" }) },
      returns: JsonResponse,
      async handler(_request, { report, scans }) {
        const describe = async (file: typeof report) => {
          const content = await file.read();
          return [file.fieldName, Buffer.isBuffer(content), content.length, file.size, content.toString()];
        };
        return new JsonResponse([await describe(report), ...(await Promise.all(scans.map(describe)))]);
      },
    });
    const server = await serveEndpoint("/upload", described, ["POST"]);
    const form = new FormData();
    form.set("report", new Blob(["héllo"]), "r.txt");
    form.append("scan", new Blob(["ab"]), "1.png");
    form.append("scan", new Blob(["abc"]), "2.png");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: [
        ["report", true, 6, 6, "héllo"],
        ["scan", true, 2, 2, "ab"],
        ["scan", true, 3, 3, "abc"],
      ],
    });
  });

  it("gives an optional list of files that is absent as [], beside fields that are present", async () => {
    const server = await serveEndpoint(
      "/upload",
      echo({ photos: p.File({ list: true, optional: true }), title: p.Form(z.string()) }),
      ["POST"],
    );
    const form = new FormData();
    form.set("title", "holiday");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { photos: [], title: "holiday" },
    });
  });

  it("refuses a JSON body on a File endpoint with 415", async () => {
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    expect(
      await jsonOf(
        server.fetch("/upload", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"note":"x"}',
        }),
      ),
    ).toEqual({
      status: 415,
      body: { detail: "Expected a multipart/form-data body, got application/json" },
    });
  });
});

// test_file_and_form_order_issue_9116, test_list_bytes_file_order_preserved_issue_14811, and the
// request_forms_and_files tutorial.
describe("files and form fields in one multipart body, as FastAPI's tests send them", () => {
  it("keeps a list's files in the order they were sent, whether the form field comes before, between or after", async () => {
    const { JsonResponse } = await import("unruffled/http");
    const { endpoint } = await import("unruffled/route");
    const server = await serveEndpoint(
      "/upload",
      endpoint({
        params: { files: p.File({ list: true }), city: p.Form(z.string()) },
        returns: JsonResponse,
        handler: async (_request, { files, city }) =>
          new JsonResponse({ contents: await Promise.all(files.map((file) => file.text())), city }),
      }),
      ["POST"],
    );
    for (const at of [0, 1, 2]) {
      const form = new FormData();
      const parts: [string, string | Blob, string?][] = [
        ["files", new Blob(["foo"]), "1.txt"],
        ["files", new Blob(["bar"]), "2.txt"],
      ];
      parts.splice(at, 0, ["city", "Thimphu"]);
      for (const [name, value, filename] of parts) {
        if (filename === undefined) form.append(name, value);
        else form.append(name, value, filename);
      }
      expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
        status: 200,
        body: { contents: ["foo", "bar"], city: "Thimphu" },
      });
    }
  });

  it("reports each missing file and field of a body that has only some of them", async () => {
    const server = await serveEndpoint(
      "/files",
      echo({ file: p.File(), fileb: p.File(), token: p.Form(z.string()) }),
      ["POST"],
    );
    const form = new FormData();
    form.set("token", "foo");
    expect(await jsonOf(server.fetch("/files", { method: "POST", body: form }))).toEqual({
      status: 422,
      body: {
        detail: ["file", "fileb"].map((name) => ({
          loc: ["body", name],
          msg: "Field required",
          type: "missing",
          input: null,
        })),
      },
    });
  });
});
