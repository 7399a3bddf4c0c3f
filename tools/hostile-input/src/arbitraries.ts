// fast-check generators of hostile HTTP input: query strings, headers, cookies, JSON, urlencoded and
// multipart bodies. Shared by the framework's and the enrollment service's reliability tests.
import fc from "fast-check";

/** Pieces that have broken parsers before: prototype keys, bad escapes, separators, odd numbers. */
export const nastyWords = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "polluted",
  "%",
  "%zz",
  "%00",
  "%ff",
  "%c3%28",
  "%e2%82",
  "%ED%A0%80",
  "+",
  "=",
  "&",
  ";",
  ",",
  '"',
  "\\",
  "[]",
  "[0]",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e400",
  "-0",
  "0x10",
  "9007199254740993",
  "2147483648",
  "true",
  "yes",
  "",
  " ",
];

/** Text made of nasty words, declared names, raw control and non-ASCII characters, and numbers. */
export function nastyText(names: readonly string[], maxParts = 8): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...nastyWords, ...names), weight: 4 },
        { arbitrary: fc.string({ unit: "binary-ascii", maxLength: 6 }), weight: 2 },
        { arbitrary: fc.string({ unit: "binary", maxLength: 3 }), weight: 1 },
        { arbitrary: fc.integer().map(String), weight: 1 },
        { arbitrary: fc.double().map(String), weight: 1 },
      ),
      { maxLength: maxParts },
    )
    .map((parts) => parts.join(""));
}

/** A value from `arbitrary` once in `oneIn` runs, otherwise `undefined`. */
export function sometimes<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: oneIn - 1 }, { arbitrary, weight: 1 });
}

/** Percent-encodes every byte that may not stand in a request target, leaving `%` escapes as written. */
export function percentEncoded(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out +=
      byte > 0x20 && byte < 0x7f && byte !== 0x23
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** `key=value&…` with declared and hostile keys, repeated keys, bare keys and empty pairs. */
export function urlencoded(names: readonly string[]): fc.Arbitrary<string> {
  const pair = fc.oneof(
    fc
      .tuple(fc.constantFrom(...names), nastyText(names))
      .map(([key, value]) => `${key}=${percentEncoded(value)}`),
    fc
      .tuple(nastyText(names, 3), nastyText(names))
      .map(([key, value]) => `${percentEncoded(key)}=${percentEncoded(value)}`),
    fc.constantFrom(...names, "", "=", "&", "__proto__[polluted]=1", "constructor[prototype][polluted]=1"),
  );
  return fc.array(pair, { maxLength: 12 }).map((pairs) => pairs.join("&"));
}

/** A header value: printable text, raw bytes (control characters included, CR and LF excluded), or long. */
export function headerValue(names: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    nastyText(names).map((text) => text.replace(/[\r\n]/g, "")),
    fc
      .uint8Array({ maxLength: 40 })
      .map((bytes) => Buffer.from(bytes.filter((byte) => byte !== 13 && byte !== 10)).toString("latin1")),
    fc.integer({ min: 100, max: 4000 }).map((length) => "v".repeat(length)),
  );
}

/** A `Cookie` header: declared and hostile names, quotes, escapes, duplicates and stray separators. */
export function cookieHeader(names: readonly string[]): fc.Arbitrary<string> {
  const cookie = fc.oneof(
    fc
      .tuple(fc.constantFrom(...names, "__proto__", "constructor"), nastyText(names))
      .map(([name, value]) => `${name}=${value}`),
    nastyText(names, 3),
  );
  return fc
    .tuple(fc.array(cookie, { maxLength: 8 }), fc.constantFrom("; ", ";", ";;", " ; "))
    .map(([cookies, separator]) => cookies.join(separator).replace(/[\r\n]/g, ""));
}

// Numbers JSON allows but JavaScript cannot hold exactly, then spellings JSON does not allow.
const edgeNumbers = [
  "1e400",
  "-1e400",
  "1E-400",
  "123456789012345678901234567890",
  "-0",
  "0.1e1",
  "2147483648",
  "9007199254740993",
];
const invalidNumbers = ["NaN", "Infinity", "-Infinity", "+1", "01", ".5", "1.", "0x1F", "1_000"];

/** A JSON-ish text aimed at a body whose top-level keys are `names`: mostly valid, then broken, deep or tricky. */
export function jsonText(names: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { arbitrary: fc.constantFrom(...names), weight: 4 },
    { arbitrary: fc.constantFrom("__proto__", "constructor", "prototype"), weight: 1 },
    { arbitrary: fc.string({ maxLength: 5 }), weight: 1 },
  );
  const value = fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)), weight: 6 },
    { arbitrary: fc.constantFrom(...edgeNumbers), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '{"polluted":"yes"}',
        '{"prototype":{"polluted":"yes"}}',
        '"\\ud800"',
        '"\\u0000"',
        "null",
      ),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...invalidNumbers), weight: 1 },
  );
  const object = fc
    .array(fc.tuple(key, value), { maxLength: 8 })
    .map((entries) => `{${entries.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(",")}}`);
  // fast-check favours small integers: name the depths that matter (around the limit, and far past it).
  const depth = fc.oneof(
    { arbitrary: fc.constantFrom(63, 64, 65), weight: 1 },
    { arbitrary: fc.constantFrom(10_000, 12_000), weight: 2 },
    { arbitrary: fc.integer({ min: 1, max: 12_000 }), weight: 1 },
  );
  const deep = fc
    .tuple(
      depth,
      fc.constantFrom("[", '{"a":'),
      fc.boolean(),
      fc.option(fc.constantFrom(...names), { nil: undefined }),
    )
    .map(([levels, open, closed, under]) => {
      const close = open === "[" ? "]" : "}";
      const nested = open.repeat(levels) + (closed ? `1${close.repeat(levels)}` : "");
      return under === undefined ? nested : `{${JSON.stringify(under)}:${nested}}`;
    });
  const text = fc.oneof(
    { arbitrary: object, weight: 5 },
    { arbitrary: fc.jsonValue().map((json) => JSON.stringify(json)), weight: 2 },
    { arbitrary: deep, weight: 3 },
    {
      arbitrary: fc.constantFrom(
        ...edgeNumbers,
        ...invalidNumbers,
        "",
        " ",
        "{",
        "}",
        "[",
        '{"name":"a","name":2}',
        "\ufeff{}",
      ),
      weight: 1,
    },
  );
  // Now and then cut the text short, as a client that stops mid-body would leave it.
  return fc
    .tuple(text, sometimes(fc.nat(), 10))
    .map(([whole, cut]) => (cut === undefined ? whole : whole.slice(0, cut % (whole.length + 1))));
}

/** Bytes that are not UTF-8 at all: lone continuation bytes, overlong forms, surrogates, 0xFF. */
const invalidUtf8 = [
  [0xff],
  [0x80],
  [0xc3, 0x28],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** A text as bytes, with invalid UTF-8 sequences spliced in now and then. */
export function withInvalidUtf8(text: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  return fc
    .tuple(
      text,
      fc.oneof(
        { arbitrary: fc.constant([]), weight: 3 },
        {
          arbitrary: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...invalidUtf8)), {
            minLength: 1,
            maxLength: 2,
          }),
          weight: 1,
        },
      ),
    )
    .map(([value, splices]) => {
      let bytes = Buffer.from(value, "utf8");
      for (const [at, splice] of splices) {
        const position = at % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, position), Buffer.from(splice), bytes.subarray(position)]);
      }
      return bytes;
    });
}

/** A `Content-Type` a client might send to an endpoint that expects `expected` (undefined: none). */
export function contentType(expected: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(expected), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        "",
        "text/plain",
        "application/json; charset=latin1",
        "APPLICATION/JSON",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "multipart/form-data; boundary=",
        "application/vnd.api+json",
        ";;;",
      ),
      weight: 2,
    },
  );
}

export interface MultipartCase {
  contentType: string;
  body: Buffer;
}

/**
 * A multipart body built from declared and hostile parts, then damaged: truncated, given the wrong
 * boundary, stripped of part headers, or salted with garbage.
 */
export function multipartBody(names: readonly string[]): fc.Arbitrary<MultipartCase> {
  const part = fc.record({
    name: fc.oneof(fc.constantFrom(...names), nastyText(names, 2)),
    filename: fc.option(
      fc.oneof(fc.constantFrom("a.png", "", "../../etc/passwd", "x\u0000y"), nastyText([], 2)),
      { nil: undefined },
    ),
    type: fc.option(fc.constantFrom("image/png", "text/plain", "", "x"), { nil: undefined }),
    headerless: fc.boolean(),
    content: fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.integer({ min: 0, max: 12_000 }).map((size) => new Uint8Array(size)),
    ),
  });
  return fc
    .record({
      boundary: fc.oneof(
        fc.constantFrom("b", "----x", "a b", '"q"', ""),
        fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,70}$/),
      ),
      announced: sometimes(fc.constantFrom("other", "", "b; boundary=c"), 4),
      parts: fc.array(part, { maxLength: 6 }),
      closed: fc.boolean(),
      cut: sometimes(fc.nat(), 4),
      garbage: sometimes(fc.uint8Array({ maxLength: 50 }), 4),
    })
    .map(({ boundary, announced, parts, closed, cut, garbage }) => {
      const chunks: Buffer[] = [];
      if (garbage) chunks.push(Buffer.from(garbage));
      for (const item of parts) {
        let head = `--${boundary}\r\n`;
        if (!item.headerless) {
          head += `Content-Disposition: form-data; name="${item.name}"`;
          if (item.filename !== undefined) head += `; filename="${item.filename}"`;
          head += "\r\n";
          if (item.type !== undefined) head += `Content-Type: ${item.type}\r\n`;
        }
        chunks.push(Buffer.from(`${head}\r\n`, "utf8"), Buffer.from(item.content), Buffer.from("\r\n"));
      }
      if (closed) chunks.push(Buffer.from(`--${boundary}--\r\n`));
      let body = Buffer.concat(chunks);
      if (cut !== undefined) body = body.subarray(0, cut % (body.length + 1));
      const named = announced ?? boundary;
      return { contentType: `multipart/form-data; boundary=${named}`, body };
    });
}
