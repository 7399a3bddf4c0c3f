import type { HttpRequest } from "../../http/request.ts";
import type { DependencyScopeName } from "../declare/dependency.ts";

/** What `closeFunctionScoped()` gives when every clean-up went through. */
export const CLEAN = Symbol("clean");

interface Entered {
  iterator: Generator | AsyncGenerator;
  label: string;
  scope: DependencyScopeName;
  open: boolean;
}

/**
 * The generator dependencies a request entered, and when each ends (FastAPI's order):
 * - the handler succeeded: those of scope `"function"` end before the answer is written (what
 *   their clean-up throws is answered by the exception handlers); those of scope `"request"` end
 *   after the answer and after the request's `afterResponse()` tasks, which can still use them
 *   (what their clean-up throws is logged, never sent);
 * - the request failed: every open one gets the error thrown in at its `yield`, the last entered
 *   first, before the error answer is made; one that throws another error (an `HttpError` for a
 *   unique-key conflict) hands that on, and the last error thrown is the one answered.
 */
export class DependencyScope {
  private readonly request: HttpRequest;
  private readonly entered: Entered[] = [];
  private queued = false;
  /** True when a generator of scope `"function"` was entered. */
  functionScoped = false;

  constructor(request: HttpRequest) {
    this.request = request;
  }

  /** A generator that yielded (or is about to yield) its value. */
  add(iterator: Generator | AsyncGenerator, label: string, scope: DependencyScopeName): void {
    if (scope === "function") this.functionScoped = true;
    else if (!this.queued) {
      this.queued = true;
      this.request.afterResponse(this.closeLast);
    }
    this.entered.push({ iterator, label, scope, open: true });
  }

  /** True while a generator is open: a failed request then unwinds them before its answer. */
  get open(): boolean {
    return this.entered.some((entry) => entry.open);
  }

  /**
   * Throws `error` into every open generator, the last entered first; resolves to the error to
   * answer: `error`, or the last other error a clean-up threw (a translation, or its own failure).
   */
  async unwind(error: unknown): Promise<unknown> {
    let current = error;
    for (let index = this.entered.length - 1; index >= 0; index--) {
      const entry = this.entered[index]!;
      if (!entry.open) continue;
      entry.open = false;
      try {
        await finish(entry, () => entry.iterator.throw(current));
      } catch (thrown) {
        current = thrown;
      }
    }
    return current;
  }

  /**
   * Ends the generators of scope `"function"` after the handler answered, the last entered first;
   * resolves to `CLEAN`, or to the first error a clean-up threw (the caller unwinds the rest with it).
   */
  async closeFunctionScoped(): Promise<unknown> {
    for (let index = this.entered.length - 1; index >= 0; index--) {
      const entry = this.entered[index]!;
      if (!entry.open || entry.scope !== "function") continue;
      entry.open = false;
      try {
        await finish(entry, () => entry.iterator.next());
      } catch (error) {
        return error;
      }
    }
    return CLEAN;
  }

  /**
   * Queued with the request's `afterResponse()` tasks when the first generator of scope `"request"`
   * was entered, it moves itself behind the tasks queued since, so that they run while the
   * generators are still open, then ends them.
   */
  private readonly closeLast = (): Promise<void> | undefined => {
    const tasks = this.request.afterResponseTasks!;
    if (tasks[tasks.length - 1] !== this.closeLast) {
      tasks.push(this.closeLast);
      return undefined;
    }
    return this.close();
  };

  /** Ends the open generators of scope `"request"`, the last entered first; rejects with what their clean-ups threw. */
  private async close(): Promise<void> {
    const failures: Error[] = [];
    for (let index = this.entered.length - 1; index >= 0; index--) {
      const entry = this.entered[index]!;
      if (!entry.open) continue;
      entry.open = false;
      try {
        await finish(entry, () => entry.iterator.next());
      } catch (error) {
        failures.push(cleanupFailure(entry.label, error));
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1)
      throw new AggregateError(failures, `${failures.length} dependency clean-ups failed`);
  }
}

/** Resumes a generator after its `yield`; it must end there. */
async function finish(
  entry: Entered,
  resume: () => IteratorResult<unknown> | Promise<IteratorResult<unknown>>,
): Promise<void> {
  const step = await resume();
  if (!step.done) {
    await entry.iterator.return(undefined);
    throw new TypeError("it yielded a second time; a generator dependency yields once");
  }
}

function cleanupFailure(label: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`The clean-up of ${label} failed: ${reason}`, { cause: error });
}
