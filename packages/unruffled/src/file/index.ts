export type { MultipartBody } from "./multipart.ts";
export { readMultipart } from "./multipart.ts";
export { UploadFile } from "./upload-file.ts";
export type { UploadLimits } from "./upload-limits.ts";
export { DEFAULT_UPLOAD_LIMITS } from "./upload-limits.ts";
