// Type tests for middleware and the app's lifecycle hooks: checked by `tsc`, never run.
import {
  compression,
  cors,
  createApp,
  HttpError,
  httpsRedirect,
  type Middleware,
  type MiddlewareRoute,
  type Next,
  trustedHost,
  type UpgradeGuard,
} from "unruffled";
import { type HttpRequest, type HttpResponse, JsonResponse } from "unruffled/http";
import { path } from "unruffled/route";
import { expectTypeOf } from "vitest";

// A middleware may be synchronous or async; next gives a response or a promise of one.
const passThrough: Middleware = (request, next) => next(request);
const stamp: Middleware = async (request, next) => {
  expectTypeOf(request).toEqualTypeOf<HttpRequest>();
  expectTypeOf(next).toEqualTypeOf<Next>();
  expectTypeOf(next(request)).toEqualTypeOf<HttpResponse | Promise<HttpResponse>>();
  const response = await next(request);
  response.headers["x-stamp"] = "1";
  return response;
};
const answerItself: Middleware = () => new JsonResponse({ detail: "Not authenticated" }, { status: 401 });
// @ts-expect-error a middleware returns a response, not a plain value
const plainValue: Middleware = () => ({ detail: "no" });
// @ts-expect-error next's answer may be a promise: await it before reading it
const notAwaited: Middleware = (request, next) => next(request).headers && next(request);

// forRoute is called with the route's path and methods and gives the middleware it runs.
const perRoute: Middleware = Object.assign(passThrough, {
  forRoute: (route: MiddlewareRoute): Middleware => {
    expectTypeOf(route.path).toEqualTypeOf<string | undefined>();
    expectTypeOf(route.methods).toEqualTypeOf<readonly string[]>();
    return passThrough;
  },
});

// guardUpgrade checks an upgrade: it refuses by throwing or returning a response, sync or async.
const guarded: Middleware = (request, next) => next(request);
guarded.guardUpgrade = (request) => {
  expectTypeOf(request).toEqualTypeOf<HttpRequest>();
  if (request.header("x-key") === undefined) throw new HttpError(401, "Send X-Key");
};
guarded.guardUpgrade = async () => new JsonResponse({ moved: true }, { status: 409 });
const guard: UpgradeGuard = () => undefined;
guarded.guardUpgrade = guard;
// @ts-expect-error a guard answers with a response or nothing, not a boolean
const notAGuard: UpgradeGuard = () => true;
void notAGuard;
expectTypeOf(trustedHost({ hosts: ["example.com"] }).guardUpgrade).toEqualTypeOf<UpgradeGuard | undefined>();

// On the app, on groups and on routes; cors() and compression() are middleware.
createApp({
  middleware: [cors({ origins: ["https://app.example.com"], credentials: true }), compression(), stamp],
  routes: [path("/api", { middleware: [answerItself, perRoute], routes: [] })],
});
cors({ origins: "*" });
cors({ origins: async (origin: string) => origin.endsWith(".example.com") });
// @ts-expect-error origins are required
cors({});
// @ts-expect-error only gzip and brotli are offered
compression({ encodings: ["deflate"] });
trustedHost({ hosts: ["example.com", "*.example.com"], wwwRedirect: false });
// @ts-expect-error hosts are required
trustedHost({});
createApp({ routes: [], middleware: [trustedHost({ hosts: ["*"] }), httpsRedirect()] });

// onStartup takes a hook or a list of them, sync or async.
createApp({ routes: [], onStartup: () => {} });
createApp({ routes: [], onStartup: [async () => {}, () => {}] });
// @ts-expect-error a hook takes no argument the app would give
createApp({ routes: [], onStartup: (_app: string) => {} });
void plainValue;
void notAwaited;

// Behind a proxy under a prefix: the root path is a string ("" for none), read-only, and urlFor a string.
const prefixed: Middleware = (request, next) => {
  expectTypeOf(request.rootPath).toEqualTypeOf<string>();
  // @ts-expect-error: the root path comes from ROOT_PATH or a trusted proxy, never from the app's code.
  request.rootPath = "/elsewhere";
  expectTypeOf(request.urlFor("get_student", { student_id: 1 })).toEqualTypeOf<string>();
  return next(request);
};
createApp({ routes: [], middleware: [prefixed] });
