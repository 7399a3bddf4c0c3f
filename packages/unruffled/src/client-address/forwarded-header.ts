/** One element of a `Forwarded` header (RFC 7239): what one proxy saw. */
export interface ForwardedElement {
  for: string | undefined;
  proto: string | undefined;
  host: string | undefined;
}

/**
 * The elements of `Forwarded` headers, leftmost (nearest the client) first. Lenient where proxies
 * are (a bare `for=[::1]`), but a value it cannot read is left undefined, and nothing here throws.
 *
 * @example parseForwarded('for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"')
 * // [{ for: "192.0.2.60", proto: "https", host: undefined }, { for: "2001:db8::1", … }]
 */
export function parseForwarded(header: string): ForwardedElement[] {
  const elements: ForwardedElement[] = [];
  let element: ForwardedElement = { for: undefined, proto: undefined, host: undefined };
  let index = 0;
  const length = header.length;
  while (index <= length) {
    // name
    while (index < length && (header[index] === " " || header[index] === "\t")) index++;
    const nameStart = index;
    while (index < length && header[index] !== "=" && header[index] !== ";" && header[index] !== ",") index++;
    const name = header.slice(nameStart, index).trim().toLowerCase();
    let value: string | undefined;
    if (header[index] === "=") {
      index++;
      if (header[index] === '"') {
        index++;
        let text = "";
        while (index < length && header[index] !== '"') {
          if (header[index] === "\\" && index + 1 < length) index++;
          text += header[index];
          index++;
        }
        // An unterminated quote: the value is unreadable.
        value = index < length ? text : undefined;
        index++;
        while (index < length && header[index] !== ";" && header[index] !== ",") index++;
      } else {
        const valueStart = index;
        while (index < length && header[index] !== ";" && header[index] !== ",") index++;
        value = header.slice(valueStart, index).trim();
      }
    }
    if (value !== undefined && (name === "for" || name === "proto" || name === "host")) element[name] = value;
    const separator = header[index];
    index++;
    if (separator !== ";") {
      elements.push(element);
      element = { for: undefined, proto: undefined, host: undefined };
    }
  }
  return elements;
}

/**
 * The address of a `for=` value: `192.0.2.60`, `"192.0.2.60:8080"` and `"[2001:db8::1]:4711"` give
 * the address alone; `unknown` and obfuscated names (`_hidden`) give undefined.
 */
export function forwardedAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end < 0 ? undefined : value.slice(1, end);
  }
  const colon = value.indexOf(":");
  // One colon: an IPv4 address and a port; more: a bare IPv6 address (lenient).
  return colon >= 0 && value.indexOf(":", colon + 1) < 0 ? value.slice(0, colon) : value;
}
