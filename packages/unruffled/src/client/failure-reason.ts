/**
 * What went wrong, in one line: the error's message and, when fetch wraps the real reason in
 * `cause` ("fetch failed", "terminated"), that reason too.
 *
 * @example failureReason(new TypeError("fetch failed", { cause: new Error("redirect count exceeded") }))
 * // "fetch failed (redirect count exceeded)"
 */
export function failureReason(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  const because = cause instanceof Error ? cause.message || (cause as { code?: string }).code : undefined;
  return because === undefined || because === "" || because === reason ? reason : `${reason} (${because})`;
}
