import type { ApprovalDecision, ApprovalRequest, DecisionOutcome } from "../runtime/types.js";
import type { FileRef } from "../stores/types.js";
import type { TurnController } from "./turn.js";
import type { ApproveOptions, Turn, TurnCommand, TurnEvent, TurnResult, TurnStatus } from "./types.js";

/** The public face of a turn. Every `for await` over it starts from its first event. */
export class ChatTurn implements Turn {
  readonly #controller: TurnController;
  readonly result: Promise<TurnResult>;

  constructor(controller: TurnController, result: Promise<TurnResult>) {
    this.#controller = controller;
    this.result = result;
  }

  get id(): string {
    return this.#controller.id;
  }
  get sessionId(): string {
    return this.#controller.sessionId;
  }
  get status(): TurnStatus {
    return this.#controller.status;
  }
  get requests(): readonly ApprovalRequest[] {
    return this.#controller.requests;
  }
  get files(): readonly FileRef[] {
    return this.#controller.files;
  }
  approve(id: string, options?: ApproveOptions & { input?: undefined }): boolean;
  approve(id: string, options: ApproveOptions): Promise<boolean>;
  approve(id: string, options: ApproveOptions = {}): boolean | Promise<boolean> {
    const remember = options.remember ? { remember: options.remember } : {};
    if (!("input" in options)) return (this.#controller.decide(id, { approved: true }, remember) as DecisionOutcome).kind === "decided";
    const decision: ApprovalDecision = { approved: true, ...(options.input !== undefined ? { input: options.input } : {}) };
    // Options that hold `input` (an edit) answer with a promise: an edit is checked before it is taken.
    return (async () => (await this.#controller.decide(id, decision, remember)).kind === "decided")();
  }
  deny(id: string, reason?: string): boolean {
    // A denial is decided at once (never checked).
    return (this.#controller.decide(id, { approved: false, ...(reason !== undefined ? { reason } : {}) }, {}) as DecisionOutcome).kind === "decided";
  }
  answer(id: string, value: unknown): boolean {
    return this.#controller.answer(id, value).kind === "decided";
  }
  cancel(): void {
    this.#controller.cancel();
  }
  steer(input: string): Promise<void> {
    return this.#controller.steer(input);
  }
  control(command: TurnCommand): Promise<void> {
    return this.#controller.control(command);
  }
  holdSuspend(): () => void {
    return this.#controller.holdSuspend();
  }
  [Symbol.asyncIterator](): AsyncIterator<TurnEvent> {
    return this.#controller.events.read();
  }
}
