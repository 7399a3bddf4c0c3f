/** The content codings `compression()` can answer with. */
export type ContentCoding = "br" | "gzip";

// A qvalue as RFC 9110 §12.4.2 writes it: 0 to 1 with up to three decimals.
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The coding to answer with, by the q-values of an `Accept-Encoding` header (RFC 9110 §12.5.3): of
 * the codings `offered`, the one the client weighs highest, ties going to the earlier offered; `*`
 * weighs every coding it does not name. Undefined when the client accepts none (or sent no header):
 * the body goes as it is. An entry with a malformed q-value counts as not sent.
 *
 * @example chooseEncoding("gzip;q=1.0, br;q=0.5, *;q=0", ["br", "gzip"]) // "gzip"
 */
export function chooseEncoding(
  header: string | undefined,
  offered: readonly ContentCoding[],
): ContentCoding | undefined {
  if (header === undefined || header === "") return undefined;
  const weights = new Map<string, number>();
  let start = 0;
  while (start <= header.length) {
    const comma = header.indexOf(",", start);
    const end = comma < 0 ? header.length : comma;
    const entry = parseEntry(header.slice(start, end));
    if (entry !== undefined && !weights.has(entry.coding)) weights.set(entry.coding, entry.q);
    start = end + 1;
  }
  const anyOther = weights.get("*");
  let chosen: ContentCoding | undefined;
  let best = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? anyOther ?? 0;
    if (q > best) {
      best = q;
      chosen = coding;
    }
  }
  return chosen;
}

/** `gzip;q=0.8` → `{ coding: "gzip", q: 0.8 }`; undefined for an empty entry or a malformed q. */
function parseEntry(text: string): { coding: string; q: number } | undefined {
  const semicolon = text.indexOf(";");
  const coding = (semicolon < 0 ? text : text.slice(0, semicolon)).trim().toLowerCase();
  if (coding === "") return undefined;
  if (semicolon < 0) return { coding, q: 1 };
  for (const parameter of text.slice(semicolon + 1).split(";")) {
    const equals = parameter.indexOf("=");
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== "q") continue;
    const value = parameter.slice(equals + 1).trim();
    return QVALUE.test(value) ? { coding, q: Number(value) } : undefined;
  }
  return { coding, q: 1 };
}
