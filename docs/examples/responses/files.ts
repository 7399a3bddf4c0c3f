import { fileURLToPath } from "node:url";
import { createApp } from "unruffled";
import { FileResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const report = fileURLToPath(new URL("./files/report.txt", import.meta.url));

export const download = endpoint({
  summary: "The enrolment report",
  returns: FileResponse,
  handler: () => new FileResponse(report, { filename: "enrolment-report.txt" }),
});

export const app = createApp({
  routes: [path("/report", { endpoint: download, name: "download_report" })],
});
