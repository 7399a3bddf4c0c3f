import { ValueError } from "../../errors.ts";
import { MARKER_NAMES } from "../declare/markers.ts";
import type { BodyFormat, ParamDescription } from "../description.ts";

/**
 * Rule 12: how an endpoint's body is read. JSON and form bodies exclude each other; a file makes
 * the form multipart; no body parameter, no body.
 *
 * @example bodyFormatOf([avatarParam, nameParam], label) // "multipart"
 */
export function bodyFormatOf(params: readonly ParamDescription[], label: string): BodyFormat | undefined {
  const json = params.find((param) => param.marker === "json");
  const form = params.find((param) => param.marker === "form" || param.marker === "file");
  if (json && form) {
    throw new ValueError(
      `${label}: parameters ${named(json)} (${json.detected ? "a model, detected as Json" : "p.Json"}) and ${named(form)} (${MARKER_NAMES[form.marker]}) read the body in two formats. An endpoint reads a JSON body or a form, not both: use p.Json for every body parameter, or p.Form/p.File for all of them.`,
    );
  }
  if (json) return "json";
  if (params.some((param) => param.marker === "file")) return "multipart";
  if (form) return "form";
  return undefined;
}

/** `"note" of dependency "notes"`, or `"note"` for the endpoint's own parameter. */
function named(param: ParamDescription): string {
  return param.owner === undefined ? `"${param.name}"` : `"${param.name}" of ${param.owner}`;
}
