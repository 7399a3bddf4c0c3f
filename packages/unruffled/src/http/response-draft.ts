import { validateHeaderName, validateHeaderValue } from "../node-builtins.ts";
import { type CookieOptions, serializeCookie } from "./cookies.ts";
import { checkedStatus, type HeaderValue, type HttpResponse } from "./response.ts";

/**
 * What a request's dependencies add to the endpoint's answer (FastAPI's injected `Response`): a
 * dependency declares `p.Response()` and sets headers, cookies or a status here; once the handler has
 * answered, they are added to its response. The handler's own choices win: a header it set is kept,
 * and a status it gave to its response's constructor too. Cookies add up. Error answers (a 422, a
 * 401, an exception handler's) do not get them, as in FastAPI.
 *
 * @example
 * const session = dependency({ params: { response: p.Response() }, resolve: (_request, { response }) => { response.setCookie("sid", "s1", { httpOnly: true }); } });
 */
export class ResponseDraft {
  /** The status of an answer built without one; undefined leaves it to the endpoint. */
  status: number | undefined = undefined;
  private readonly headers: Record<string, HeaderValue> = {};
  private readonly cookies: string[] = [];

  /** Sets a header (its name in any case); a name or value Node would refuse throws here. */
  setHeader(name: string, value: HeaderValue): this {
    validateHeaderName(name);
    if (typeof value === "string") validateHeaderValue(name, value);
    else for (const item of value) validateHeaderValue(name, item);
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  /** The header set under this name (any case), if any. */
  getHeader(name: string): HeaderValue | undefined {
    return this.headers[name.toLowerCase()];
  }

  /** Adds a `Set-Cookie` header. */
  setCookie(name: string, value: string, options?: CookieOptions): this {
    this.cookies.push(serializeCookie(name, value, options));
    return this;
  }

  /** Tells the browser to drop a cookie (same path and domain as when it was set). */
  deleteCookie(name: string, options: Pick<CookieOptions, "path" | "domain"> = {}): this {
    return this.setCookie(name, "", { ...options, maxAge: 0, expires: new Date(0) });
  }

  /** Adds what was set to the handler's response, where the handler did not decide otherwise. */
  applyTo(response: HttpResponse): void {
    if (this.status !== undefined && response.statusDefaulted && response.status === 200) {
      response.status = checkedStatus(this.status);
      response.statusDefaulted = false;
    }
    for (const name of Object.keys(this.headers)) {
      if (response.headers[name] === undefined) response.headers[name] = this.headers[name]!;
    }
    if (this.cookies.length > 0) {
      const existing = response.headers["set-cookie"];
      response.headers["set-cookie"] =
        existing === undefined
          ? [...this.cookies]
          : [...this.cookies, ...(typeof existing === "string" ? [existing] : existing)];
    }
  }
}
