import { DEFAULT_BODY_LIMITS } from "../http/body-limits.ts";

const MiB = 1024 * 1024;

/** Limits of one multipart body; every one is checked while the body streams in. */
export interface UploadLimits {
  /** Largest single file, in bytes (a File parameter may set a smaller one). */
  readonly fileSize: number;
  /** Largest whole multipart body, in bytes. */
  readonly totalSize: number;
  /** Most files in one body. */
  readonly files: number;
  /** Most non-file fields in one body. */
  readonly fields: number;
  /** Largest non-file field value, in bytes. */
  readonly fieldSize: number;
}

/** The upload limits when the app sets none: 10 MiB a file, 50 MiB a body, 10 files, 1 MiB a field. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  fileSize: 10 * MiB,
  totalSize: 50 * MiB,
  files: 10,
  // One count of fields for urlencoded and multipart forms alike.
  fields: DEFAULT_BODY_LIMITS.fields,
  fieldSize: MiB,
};
