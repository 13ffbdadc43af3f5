import type { CliIO } from "./io.js";
import type { Screen } from "./screen.js";

/** Exit code of a canceled turn or run (128 + SIGINT). */
export const EXIT_CANCELED = 130;

export interface CancelOnInterrupt {
  /** Aborts at the first Ctrl-C. */
  readonly signal: AbortSignal;
  /** Stops listening. */
  dispose(): void;
}

/**
 * While a turn or run goes: the first Ctrl-C calls `cancel` (and aborts `signal`), the second quits the
 * process at once with 130.
 */
export function cancelOnInterrupt(options: { io: CliIO; screen: Screen; cancel: () => void }): CancelOnInterrupt {
  const { io, screen } = options;
  const controller = new AbortController();
  const stop = io.onInterrupt(() => {
    if (controller.signal.aborted) io.exit(EXIT_CANCELED);
    controller.abort();
    screen.note(screen.err.dim("canceling… (Ctrl-C again to quit)"));
    options.cancel();
    return true;
  });
  return { signal: controller.signal, dispose: stop };
}
