export type { BodyCallback, BodySource } from "./body.ts";
export { NodeBodySource, WebBodySource } from "./body.ts";
export type { CookieOptions } from "./cookies.ts";
export { parseCookies, serializeCookie } from "./cookies.ts";
export type { BodyLimits, ClientAddress, RawRequest } from "./request.ts";
export { HttpRequest } from "./request.ts";
export type { HeaderValue, ResponseBody, ResponseInit } from "./response.ts";
export { HtmlResponse, HttpResponse, JsonResponse, PlainTextResponse } from "./response.ts";
