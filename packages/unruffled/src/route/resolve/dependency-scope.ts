import type { HttpRequest } from "../../http/request.ts";

const NO_ERROR = Symbol("no error");

/**
 * The generator dependencies a request entered. Once its answer is written they are closed, the
 * last entered first: each runs its code after `yield`, or gets the error the request failed with
 * thrown in at the `yield`, so that it can roll back. What a clean-up throws is reported (the app
 * logs it), never sent.
 */
export class DependencyScope {
  private readonly request: HttpRequest;
  private readonly entered: { iterator: Generator | AsyncGenerator; label: string }[] = [];
  private error: unknown = NO_ERROR;

  constructor(request: HttpRequest) {
    this.request = request;
  }

  /** A generator that yielded (or is about to yield) its value; closed after the answer. */
  add(iterator: Generator | AsyncGenerator, label: string): void {
    if (this.entered.length === 0) this.request.afterResponse(() => this.close());
    this.entered.push({ iterator, label });
  }

  /** The error the request failed with (the first one), thrown into every generator. */
  fail(error: unknown): void {
    if (this.error === NO_ERROR) this.error = error;
  }

  /** Closes every generator, the last entered first; rejects with what their clean-ups threw. */
  async close(): Promise<void> {
    const failures: Error[] = [];
    for (let index = this.entered.length - 1; index >= 0; index--) {
      const { iterator, label } = this.entered[index]!;
      try {
        const step = await (this.error === NO_ERROR ? iterator.next() : iterator.throw(this.error));
        if (!step.done) {
          await iterator.return(undefined);
          throw new TypeError("it yielded a second time; a generator dependency yields once");
        }
      } catch (error) {
        // The request's own error coming back out is the generator letting it pass, not a failure.
        if (error !== this.error) failures.push(cleanupFailure(label, error));
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1)
      throw new AggregateError(failures, `${failures.length} dependency clean-ups failed`);
  }
}

function cleanupFailure(label: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`The clean-up of ${label} failed: ${reason}`, { cause: error });
}
