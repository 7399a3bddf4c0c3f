import { finished, type Readable } from "../../node-builtins.ts";

/** Told once a streamed body is over: read to its end (`true`), or cancelled or cut (`false`). */
export interface BodyOutcome {
  bodyOver(sentInFull: boolean): void;
}

const utf8 = new TextEncoder();

/**
 * A Node stream as the body of a web `Response`: its chunks as bytes (strings encoded as UTF-8, as
 * Node's server writes them), taken from it as fast as the runtime reads. `outcome` is told once,
 * when the stream closes, or at once when the client cancels: destroying a stream may take a while
 * (`Readable.from` waits for its generator's `return()`, which waits for a pending `await`), and
 * Node's server does not wait for it either before the work after the answer starts.
 *
 * @example new Response(webStreamOf(Readable.from(rows()), { bodyOver: (sent) => log(sent) }))
 */
export function webStreamOf(body: Readable, outcome: BodyOutcome | undefined): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // "open" until the stream ended, failed or was cancelled: the controller refuses calls after that.
  let state: "open" | "done" = "open";
  let told = false;
  const tell = (sentInFull: boolean) => {
    if (told) return;
    told = true;
    outcome?.bodyOver(sentInFull);
  };
  const highWaterMark = body.readableHighWaterMark;
  const strategy = body.readableObjectMode
    ? new CountQueuingStrategy({ highWaterMark })
    : new ByteLengthQueuingStrategy({ highWaterMark });
  body.pause();
  body.on("data", (chunk: unknown) => {
    if (state !== "open") return;
    controller.enqueue(typeof chunk === "string" ? utf8.encode(chunk) : (chunk as Uint8Array));
    if ((controller.desiredSize ?? 0) <= 0) body.pause();
  });
  // Once the stream is over (after its "close", when it emits one): the work starts before the
  // reader sees the end, so that whoever read the body to its end finds the work running.
  finished(body, (error) => {
    tell(error === undefined || error === null ? body.readableEnded : false);
    if (state !== "open") return;
    state = "done";
    if (error === undefined || error === null) controller.close();
    else controller.error(error);
  });
  return new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      pull() {
        body.resume();
      },
      cancel() {
        state = "done";
        tell(false);
        // Without an error: Readable.from then calls the generator's return(), not its throw().
        body.destroy();
      },
    },
    strategy,
  );
}
