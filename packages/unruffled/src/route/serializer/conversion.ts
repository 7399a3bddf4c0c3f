/**
 * How a value of one schema becomes its output in a picker: checked and kept as it is (a leaf), or
 * rebuilt by one of the picker's functions.
 */
export type Conversion =
  | { kind: "leaf"; test: ((x: string) => string) | undefined; takesUndefined: boolean }
  | { kind: "function"; name: string };

/** The expression that converts `x`: a call, or a test of its kind that fails the picker. */
export function expressionOf(conversion: Conversion, x: string): string {
  if (conversion.kind === "function") return `${conversion.name}(${x})`;
  return conversion.test === undefined ? x : `(${conversion.test(x)} ? ${x} : fail())`;
}

/** A leaf that also accepts what `test` accepts. */
export function either(
  leaf: Extract<Conversion, { kind: "leaf" }>,
  test: ((x: string) => string) | undefined,
  takesUndefined: boolean,
): Conversion {
  const first = leaf.test;
  const combined =
    first === undefined || test === undefined ? undefined : (x: string) => `(${test(x)} || ${first(x)})`;
  return { kind: "leaf", test: combined, takesUndefined: leaf.takesUndefined || takesUndefined };
}
