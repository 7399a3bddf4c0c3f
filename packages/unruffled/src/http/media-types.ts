/**
 * The media type of a file, from its name's extension: the common web types, text ones with
 * `; charset=utf-8`; `application/octet-stream` for any other (a browser then offers to save it
 * rather than guess).
 *
 * @example mediaTypeOf("static/site.css") // "text/css; charset=utf-8"
 */
export function mediaTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  if (dot < 0 || dot < fileName.lastIndexOf("/")) return OCTET_STREAM;
  return MEDIA_TYPES[fileName.slice(dot + 1).toLowerCase()] ?? OCTET_STREAM;
}

export const OCTET_STREAM = "application/octet-stream";

const UTF8 = "; charset=utf-8";

// Written by hand: the types a web app serves. A file of any other kind is sent as bytes.
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  html: `text/html${UTF8}`,
  htm: `text/html${UTF8}`,
  css: `text/css${UTF8}`,
  js: `text/javascript${UTF8}`,
  mjs: `text/javascript${UTF8}`,
  cjs: `text/javascript${UTF8}`,
  json: "application/json",
  map: "application/json",
  webmanifest: "application/manifest+json",
  txt: `text/plain${UTF8}`,
  md: `text/markdown${UTF8}`,
  csv: `text/csv${UTF8}`,
  xml: `application/xml`,
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/vnd.microsoft.icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  wasm: "application/wasm",
};
