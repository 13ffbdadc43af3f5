import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from "ai";

/** Plain in-memory chat state, what `useChat` keeps in React state. */
class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[];
  constructor(messages: UIMessage[] = []) {
    this.messages = messages;
  }
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), structuredClone(message), ...this.messages.slice(index + 1)];
  };
  snapshot = <T,>(thing: T): T => structuredClone(thing);
}

/** A framework-free `Chat` from the AI SDK (what `useChat` wraps), starting from `init.messages`. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(init: ChatInit<UIMessage>) {
    super({ ...init, state: new MemoryChatState(init.messages) });
  }
}

/** The text parts of a UI message, joined. */
export function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).filter((part) => part.type === "text").map((part) => (part as { text: string }).text).join("");
}
