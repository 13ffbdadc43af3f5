export { createChatHandler } from "./create-chat-handler.js";
export type { ChatHandler, ChatHandlerOptions } from "./create-chat-handler.js";
export type { CorsOptions } from "./cors.js";
export type { UiChatOptions } from "./handler-context.js";
export { HttpError } from "./http-error.js";
export { memoryTurnEvents } from "./turn-event-bus.js";
export type { ServedTurn, TurnEventBus } from "./turn-event-bus.js";
export type { TurnCommand } from "../chat/types.js";
export type { IndexedTurnStreamEvent } from "./turn-registry.js";
export { BodyAlreadyReadError, serve, toNodeListener } from "./node.js";
export type { FetchHandler, NodeListener, NodeListenerOptions, RunningServer, ServeOptions } from "./node.js";
export type {
  ApprovalRequestStreamEvent,
  RunUpdateStreamEvent,
  StreamApprovalRequest,
  TextDeltaStreamEvent,
  TurnEndStreamEvent,
  TurnStartStreamEvent,
  TurnStreamEvent,
  TurnStreamEventType,
} from "./turn-stream-event.js";
