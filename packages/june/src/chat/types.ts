/**
 * The chat's contract, one concept a file under `types/`: a turn's events, the responder contract, a turn
 * and its controls and records, the context builders, and the session and chat.
 */
export type * from "./types/event-types.js";
export type * from "./types/responder-types.js";
export type * from "./types/turn-types.js";
export type * from "./types/context-types.js";
export type * from "./types/session-types.js";
