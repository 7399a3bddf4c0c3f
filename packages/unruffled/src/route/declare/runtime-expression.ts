import { ValueError } from "../../errors.ts";

// OpenAPI 3.1's runtime expressions (https://spec.openapis.org/oas/v3.1.1#runtime-expressions):
// $url, $method, $statusCode, or $request./$response. followed by header.<token>, query.<name>,
// path.<name> or body with an optional JSON pointer.
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const POINTER = "(?:/(?:[^/~]|~[01])*)*";
const EXPRESSION = new RegExp(
  `^\\$(?:url|method|statusCode|(?:request|response)\\.(?:header\\.${TOKEN}|query\\..+|path\\..+|body(?:#${POINTER})?))$`,
);

/**
 * Refuses a callback URL whose `{…}` parts are not OpenAPI runtime expressions, or whose braces do
 * not pair: the document would name a URL no reader can work out.
 *
 * @example checkCallbackUrl("{$request.body#/callback_url}/invoices/{$request.body#/id}", 'callback("paid")')
 */
export function checkCallbackUrl(url: string, where: string): void {
  if (typeof url !== "string" || url.trim() === "") {
    throw new ValueError(
      `${where}: url must be the URL the API sends to, with runtime expressions in braces: "{$request.body#/callback_url}/invoices".`,
    );
  }
  for (let at = 0; at < url.length; ) {
    const open = url.indexOf("{", at);
    const close = url.indexOf("}", at);
    if (close !== -1 && (open === -1 || close < open)) {
      throw new ValueError(`${where}: the URL "${url}" has a "}" that no "{" opens.`);
    }
    if (open === -1) break;
    const end = url.indexOf("}", open);
    const next = url.indexOf("{", open + 1);
    if (end === -1 || (next !== -1 && next < end)) {
      throw new ValueError(`${where}: the URL "${url}" has a "{" that no "}" closes.`);
    }
    const expression = url.slice(open + 1, end);
    if (!EXPRESSION.test(expression)) {
      throw new ValueError(
        `${where}: the URL "${url}" has {${expression}}, which is no runtime expression${hint(expression)}. One is $url, $method, $statusCode, or $request. or $response. followed by header.<name>, query.<name>, path.<name> or body#/<JSON pointer> (OpenAPI 3.1, Runtime Expressions).`,
      );
    }
    at = end + 1;
  }
}

/** The expression FastAPI's tutorial writes and what OpenAPI spells it. */
function hint(expression: string): string {
  const dotted = /^\$(request|response)\.body\.(.+)$/.exec(expression);
  if (dotted !== null) return `: write {$${dotted[1]}.body#/${dotted[2]!.replaceAll(".", "/")}}`;
  const bare = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(expression);
  if (bare !== null)
    return `: a value the client sends is read where it is sent, as {$request.query.${bare[1]}} or {$request.body#/${bare[1]}}`;
  return "";
}
