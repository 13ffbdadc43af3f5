// The server tests read SSE with june/testing's helpers.
export { readSse, sseEvents } from "../../testing/streams.js";
export type { ServerSentEvent as SseEvent } from "../../testing/streams.js";
