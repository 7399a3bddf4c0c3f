/**
 * A Zod issue's path as a reader writes it: `data[0].email`, `tags["a b"]`; "" for the root.
 *
 * @example issuePath(["data", 0, "email"]) // "data[0].email"
 */
export function issuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key))
      text += text === "" ? key : `.${key}`;
    else text += `[${JSON.stringify(typeof key === "symbol" ? String(key) : key)}]`;
  }
  return text;
}
