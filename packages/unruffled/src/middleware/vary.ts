import type { HeaderValue } from "../http/response.ts";

/**
 * Adds a request header's name to a response's `Vary`, unless it is named there already or the
 * response varies on everything (`Vary: *`): caches then keep one answer per value of that header.
 *
 * @example addVary(response.headers, "Origin") // vary: "Accept-Encoding" becomes "Accept-Encoding, Origin"
 */
export function addVary(headers: Record<string, HeaderValue>, name: string): void {
  const current = headers.vary;
  if (current === undefined || current.length === 0) {
    headers.vary = name;
    return;
  }
  const text = typeof current === "string" ? current : current.join(", ");
  const wanted = name.toLowerCase();
  for (const part of text.split(",")) {
    const named = part.trim().toLowerCase();
    if (named === wanted || named === "*") return;
  }
  headers.vary = `${text}, ${name}`;
}
