import type { IncomingMessage, ServerResponse } from "node:http";
import { closeGentlyAfterAnswer } from "../../http/close-after-answer.ts";

/**
 * A request pipelined behind one whose answer is not written yet: Node hands it over at once, with
 * a response that has no socket until the answers before it are written. It runs then, one request
 * after another as RFC 9112 §9.3.2 asks of requests that are not all safe, and never when an answer
 * before it closed the connection (§9.6): Node then never gives its response the socket. Such a
 * connection closes gently, so that the requests still arriving do not reset the answer.
 */
export function awaitTurn(
  message: IncomingMessage,
  res: ServerResponse,
  run: (message: IncomingMessage, res: ServerResponse) => void,
): void {
  closeGentlyAfterAnswer(message.socket);
  res.once("socket", () => run(message, res));
}
