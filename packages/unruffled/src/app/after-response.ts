import type { HttpRequest } from "../http/request.ts";
import type { ErrorLogger } from "./logging.ts";

/**
 * The work queued with `request.afterResponse()`, run once each answer is written and tracked until
 * it settles, so that closing the app can wait for it.
 */
export class AfterResponseWork {
  private readonly errorLogger: ErrorLogger;
  private readonly running = new Set<Promise<void>>();

  constructor(errorLogger: ErrorLogger) {
    this.errorLogger = errorLogger;
  }

  /** Runs a request's tasks one after another; resolves when the last has settled. Never rejects. */
  start(request: HttpRequest): Promise<void> {
    const work = this.runTasks(request);
    this.running.add(work);
    work.then(() => this.running.delete(work));
    return work;
  }

  /** Resolves once the work running now, and any it starts, has settled. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /**
   * Waits for the work in flight up to `timeoutMs`; resolves to the number of requests whose work
   * was still running then (it goes on, but nobody waits for it).
   */
  async settle(timeoutMs: number): Promise<number> {
    if (this.running.size === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, timeoutMs));
    });
    await Promise.race([this.settled(), deadline]);
    clearTimeout(timer);
    return this.running.size;
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
