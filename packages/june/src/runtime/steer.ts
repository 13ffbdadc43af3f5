/**
 * A running model step's steer inbox: inputs it has not yet sent. `onInput` lets the step interrupt a call
 * that is streaming text.
 */
export class SteerInbox {
  private queue: string[];
  /** Called on each new input while the step runs. */
  onInput: (() => void) | undefined;

  constructor(
    initial: string[],
    private readonly onClose: (inbox: SteerInbox) => void,
  ) {
    this.queue = initial;
  }

  get size(): number {
    return this.queue.length;
  }

  push(input: string): void {
    this.queue.push(input);
    this.onInput?.();
  }

  /** Takes every queued input, oldest first. */
  drain(): string[] {
    const taken = this.queue;
    this.queue = [];
    return taken;
  }

  /** The step ended: it takes no more input. */
  close(): void {
    this.onInput = undefined;
    this.onClose(this);
  }
}

/**
 * Routes `steer(input)`: every running model step takes it; with none running, it waits for the next step
 * that starts.
 */
export class SteerHub {
  private waiting: string[] = [];
  private readonly inboxes = new Set<SteerInbox>();

  steer(input: string): void {
    if (this.inboxes.size === 0) {
      this.waiting.push(input);
      return;
    }
    for (const inbox of this.inboxes) inbox.push(input);
  }

  /** A model step starts: it takes what was waiting. */
  open(): SteerInbox {
    const inbox = new SteerInbox(this.waiting, (closed) => this.inboxes.delete(closed));
    this.waiting = [];
    this.inboxes.add(inbox);
    return inbox;
  }
}
