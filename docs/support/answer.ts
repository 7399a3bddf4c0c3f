// Prints an example app's answer to a request, as the response block of an `exchange` directive:
//   npm exec -- node --conditions=source docs/support/answer.ts docs/examples/app.ts "GET /items/7"
// Headers and a body may follow the request line: "POST /items\ncontent-type: application/json\n\n{}".
import { STATUS_CODES } from "node:http";
import { resolve } from "node:path";
import { importApp, parseRequest, send } from "./exchange.ts";

const [file, requestText] = process.argv.slice(2);
if (file === undefined || requestText === undefined) {
  console.error('Usage: answer.ts <example file> "<METHOD /target>[\\nheader: value…\\n\\nbody]"');
  process.exit(2);
}
const app = await importApp(resolve(file));
const answer = await send(app, parseRequest(requestText.replaceAll("\\n", "\n")));
const contentType = answer.headers.get("content-type");
console.log(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`);
if (contentType !== null) console.log(`content-type: ${contentType}`);
if (answer.text !== "") console.log(`\n${answer.text}`);
process.exit(0);
