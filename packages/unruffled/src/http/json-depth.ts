const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether a JSON text nests arrays and objects deeper than `maxDepth`. `JSON.parse` itself accepts
 * any depth, but a value nested thousands deep breaks whatever walks it recursively afterwards
 * (`JSON.stringify` of a validation error that echoes it, a recursive schema), so the body is refused
 * before it is parsed. One pass over the text; brackets inside strings do not count.
 *
 * @example jsonNestsDeeperThan("[[1]]", 1) // true
 */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  // A text shorter than the limit cannot open more brackets than it has characters.
  if (text.length <= maxDepth) return false;
  // Nor can one with no more opening brackets than the limit, strings or not: counted with
  // indexOf, which skips the text natively, about fifteen times faster than the walk below.
  if (openersAtMost(text, maxDepth)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** Whether the text holds at most `limit` of `[` and `{` together, wherever they are. */
function openersAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (let index = text.indexOf("{"); index >= 0; index = text.indexOf("{", index + 1)) {
    if (++count > limit) return false;
  }
  for (let index = text.indexOf("["); index >= 0; index = text.indexOf("[", index + 1)) {
    if (++count > limit) return false;
  }
  return true;
}
