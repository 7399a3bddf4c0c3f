// The request and response blocks of an `exchange` directive: a request as it goes on the wire
// (request line, headers, blank line, body) and the answer the app gives to it.
import { STATUS_CODES } from "node:http";
import { pathToFileURL } from "node:url";
import type { App } from "unruffled";
import { type TestResponse, testClient } from "unruffled/testing";

export interface WireRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface WireResponse {
  status: number;
  reason: string;
  headers: [string, string][];
  body: string;
}

/** Splits `METHOD /target`, `name: value` lines and, after a blank line, the body. */
export function parseRequest(text: string): WireRequest {
  const { head, body } = splitHead(text);
  const [requestLine, ...headerLines] = head;
  const [method, target, ...rest] = (requestLine ?? "").split(" ");
  if (method === undefined || target === undefined || !target.startsWith("/") || rest.length > 0) {
    throw new Error(`A request block starts with "METHOD /target", got "${requestLine}"`);
  }
  const headers = Object.fromEntries(parseHeaders(headerLines).map(([name, value]) => [name, value]));
  return { method, target, headers, body };
}

/** Splits `HTTP/1.1 200 OK`, the headers the page shows and the body. */
export function parseResponse(text: string): WireResponse {
  const { head, body } = splitHead(text);
  const [statusLine, ...headerLines] = head;
  const match = /^HTTP\/1\.1 (\d{3}) (.+)$/.exec(statusLine ?? "");
  if (match === null) throw new Error(`A response block starts with "HTTP/1.1 200 OK", got "${statusLine}"`);
  return {
    status: Number(match[1]),
    reason: match[2]!,
    headers: parseHeaders(headerLines),
    body: body ?? "",
  };
}

/** Sends the request to the app in-process. Multipart bodies get the CRLF line ends the format requires. */
export function send(app: App, request: WireRequest): Promise<TestResponse> {
  const multipart = request.headers["content-type"]?.startsWith("multipart/") ?? false;
  const body = multipart ? request.body?.replaceAll("\n", "\r\n") : request.body;
  return testClient(app).request(request.method, request.target, {
    headers: request.headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** An answer in a form to compare: status, the named headers, and the body (a JSON body as its value). */
export interface ComparableAnswer {
  status: number;
  reason: string;
  headers: [string, string][];
  body: unknown;
}

/** The real answer, restricted to the headers the page shows. */
export function comparableAnswer(answer: TestResponse, shown: WireResponse): ComparableAnswer {
  return {
    status: answer.status,
    reason: STATUS_CODES[answer.status] ?? "",
    headers: shown.headers.map(([name]) => [name, answer.headers.get(name) ?? "(absent)"]),
    body:
      isJson(answer.headers.get("content-type")) && answer.text !== ""
        ? JSON.parse(answer.text)
        : answer.text,
  };
}

/** What the page shows, in the same form; a JSON body may be laid out as the page likes. */
export function comparableShown(shown: WireResponse): ComparableAnswer {
  const contentType = shown.headers.find(([name]) => name === "content-type")?.[1] ?? null;
  return { ...shown, body: isJson(contentType) && shown.body !== "" ? JSON.parse(shown.body) : shown.body };
}

function isJson(contentType: string | null): boolean {
  return contentType !== null && /[/+]json\b/.test(contentType);
}

/** Imports an example module and returns its app: the export `app`, or the default export. */
export async function importApp(file: string): Promise<App> {
  const module = (await import(pathToFileURL(file).href)) as { app?: App; default?: App };
  const app = module.app ?? module.default;
  if (app === undefined) throw new Error(`${file} exports no app`);
  return app;
}

function splitHead(text: string): { head: string[]; body: string | undefined } {
  const lines = text.split("\n");
  const blank = lines.indexOf("");
  if (blank < 0) return { head: lines, body: undefined };
  return { head: lines.slice(0, blank), body: lines.slice(blank + 1).join("\n") };
}

function parseHeaders(lines: string[]): [string, string][] {
  return lines.map((line) => {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`"${line}" is not a header line (name: value)`);
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
}
