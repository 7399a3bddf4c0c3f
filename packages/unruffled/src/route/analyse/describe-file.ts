import { z } from "zod";
import { ValueError } from "../../errors.ts";
import { UploadFile } from "../../file/upload-file.ts";
import type { FileParam } from "../declare/markers.ts";
import type { ParamDescription } from "../description.ts";

/**
 * Describes a `p.File` parameter: one `UploadFile` (or a list) read from a multipart body, with its
 * own size limit, which may lower the app's `LIMITS.file_size` but not raise it.
 *
 * @example describeFile("avatar", p.File({ maxSize: 1_000_000 }), where, limits.file_size)
 */
export function describeFile(
  name: string,
  declaration: FileParam,
  where: string,
  fileSizeLimit: number,
): ParamDescription {
  const fileOptions = declaration.options;
  const maxSize = fileOptions.maxSize;
  if (maxSize !== undefined && (!Number.isInteger(maxSize) || maxSize <= 0 || maxSize > fileSizeLimit)) {
    throw new ValueError(
      `${where}: maxSize ${maxSize} must be a positive whole number of bytes no larger than the app's LIMITS.file_size (${fileSizeLimit}).`,
    );
  }
  const one = z.instanceof(UploadFile);
  let schema: z.ZodType = fileOptions.list ? z.array(one) : one;
  if (fileOptions.list && !fileOptions.optional) schema = (schema as z.ZodArray).min(1);
  if (fileOptions.optional) schema = fileOptions.list ? schema.default([]) : schema.optional();
  const meta: Record<string, unknown> = {};
  if (fileOptions.title !== undefined) meta.title = fileOptions.title;
  if (fileOptions.description !== undefined) meta.description = fileOptions.description;
  if (fileOptions.deprecated !== undefined) meta.deprecated = fileOptions.deprecated;
  // Registered in place: .meta() would clone z.instanceof, and the clone reports an absent file as
  // a "custom" issue instead of "invalid_type", which the validation issues turn into "Field required".
  if (Object.keys(meta).length > 0) schema.register(z.globalRegistry, meta);
  const wireName = fileOptions.alias ?? name;
  return {
    name,
    key: name,
    owner: undefined,
    marker: "file",
    location: "body",
    detected: false,
    shape: fileOptions.list ? "file-list" : "file",
    schema,
    required: !fileOptions.optional,
    fields: [
      {
        key: null,
        wireName,
        documentedName: wireName,
        list: Boolean(fileOptions.list),
        coerce: undefined,
        schema,
        required: !fileOptions.optional,
      },
    ],
    options: fileOptions,
    wholeBody: false,
    fileSizeLimit: maxSize ?? fileSizeLimit,
  };
}
