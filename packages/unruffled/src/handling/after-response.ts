import type { HttpRequest } from "../http/request.ts";
import type { ErrorLogger } from "../logging/logger.ts";

/**
 * The work queued with `request.afterResponse()`, run once each answer is written and tracked with
 * its request until it settles, so that closing the app can wait for it and name what it abandons.
 */
export class AfterResponseWork {
  private readonly errorLogger: ErrorLogger;
  /** Each request's work in flight, with the request: what `close()` names when it stops waiting. */
  private readonly running = new Map<Promise<void>, HttpRequest>();

  constructor(errorLogger: ErrorLogger) {
    this.errorLogger = errorLogger;
  }

  /** Runs a request's tasks one after another; resolves when the last has settled. Never rejects. */
  start(request: HttpRequest): Promise<void> {
    const work = this.runTasks(request);
    this.running.set(work, request);
    work.then(() => this.running.delete(work));
    return work;
  }

  /** Resolves once the work running now, and any it starts, has settled. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.keys());
  }

  /**
   * Waits for the work in flight up to `timeoutMs`; resolves to the requests whose work was still
   * running then, in the order it started (it goes on, but nobody waits for it).
   */
  async settle(timeoutMs: number): Promise<HttpRequest[]> {
    if (this.running.size === 0) return [];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, timeoutMs));
    });
    await Promise.race([this.settled(), deadline]);
    clearTimeout(timer);
    return [...this.running.values()];
  }

  private async runTasks(request: HttpRequest): Promise<void> {
    const tasks = request.afterResponseTasks ?? [];
    // A task may queue another: it runs too, after the ones before it.
    for (let index = 0; index < tasks.length; index++) {
      try {
        await tasks[index]!();
      } catch (error) {
        this.errorLogger.error(
          { err: error, reqId: request.id, method: request.method, path: request.path },
          "A task queued with afterResponse() failed",
        );
      }
    }
  }
}
