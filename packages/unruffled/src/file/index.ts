export type { MultipartBody, UploadLimits } from "./multipart.ts";
export { readMultipart } from "./multipart.ts";
export { UploadFile } from "./upload-file.ts";
