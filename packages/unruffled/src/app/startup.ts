import { UnruffledError, ValueError } from "../errors.ts";

/** Work the app does before it accepts a connection: open a database pool, warm a cache. */
export type StartupHook = () => void | Promise<void>;

/**
 * The app did not start: a hook of `onStartup` failed. The message is one line that names the hook
 * and says why; `cause` is what the hook threw.
 */
export class StartupError extends UnruffledError {
  override name = "StartupError";
}

/**
 * The hooks of `createApp({ onStartup })`, one function or a list, checked when the app is built.
 *
 * @example startupHooks([openDatabase, warmCache]) // [openDatabase, warmCache]
 */
export function startupHooks(onStartup: unknown): readonly StartupHook[] {
  if (onStartup === undefined) return [];
  const hooks = Array.isArray(onStartup) ? onStartup : [onStartup];
  if (!hooks.every((hook) => typeof hook === "function")) {
    throw new ValueError("createApp({ onStartup }) takes a function, or a list of functions, run in order.");
  }
  return hooks;
}

/**
 * Runs the hooks one after another; the first that fails stops the rest and rejects with a
 * `StartupError` whose message is one line.
 *
 * @example await runStartupHooks([openDatabase]) // StartupError: onStartup failed (openDatabase): connect ECONNREFUSED 127.0.0.1:5432
 */
export async function runStartupHooks(hooks: readonly StartupHook[]): Promise<void> {
  for (let index = 0; index < hooks.length; index++) {
    const hook = hooks[index]!;
    try {
      await hook();
    } catch (error) {
      const which = [hooks.length > 1 ? `hook ${index + 1} of ${hooks.length}` : "", hook.name]
        .filter(Boolean)
        .join(", ");
      throw new StartupError(`onStartup failed${which === "" ? "" : ` (${which})`}: ${reasonOf(error)}`, {
        cause: error,
      });
    }
  }
}

// One line: an error's message with its line breaks folded; Node's AggregateError (every address of
// a host refused) has an empty message, its first error does not.
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === "" && error.errors.length > 0) {
    return reasonOf(error.errors[0]);
  }
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
