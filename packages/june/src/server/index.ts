export { createChatHandler } from "./create-chat-handler.js";
export type { ChatHandler, ChatHandlerOptions } from "./create-chat-handler.js";
export type { CorsOptions } from "./cors.js";
export type { Authorize, CanAccess, Principal } from "./session-access.js";
export type { UiChatOptions } from "./handler-context.js";
export { HttpError } from "./http-error.js";
export { memoryTurnEvents } from "./turn-event-bus.js";
export type { ServedTurn, TurnEventBus } from "./turn-event-bus.js";
export type { TurnCommand } from "../chat/types.js";
export { BodyAlreadyReadError, serve, toNodeListener } from "./node.js";
export type { FetchHandler, NodeListener, NodeListenerOptions, RunningServer, ServeOptions } from "./node.js";
// The stream's types, where a server's users looked for them before `june/stream` had them.
export type {
  ApprovalRequestStreamEvent,
  IndexedTurnStreamEvent,
  RunUpdateStreamEvent,
  TextDeltaStreamEvent,
  TurnEndStreamEvent,
  TurnStartStreamEvent,
  TurnStreamEvent,
  TurnStreamEventType,
} from "../chat/stream/turn-stream-event.js";
