import type { UIMessageChunk } from "ai";
import type { JuneTraceData } from "../chat/stream/june-trace-data.js";
import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import type { HandlerContext } from "./handler-context.js";

/** The `type` of `/ui-chat`'s trace chunks and parts: `data-` and the name `dataPartSchemas` knows it by. */
export const JUNE_TRACE_PART_TYPE = "data-june-trace";

/**
 * One `run-update`'s rows as a `data-june-trace` chunk. Its id is the turn's, the same for every snapshot of the
 * turn: the AI SDK replaces a data part by the next chunk of its type and id, so the message holds the latest rows.
 */
export function traceChunk(turnId: string, rows: ChatTraceRow[]): UIMessageChunk {
  const data: JuneTraceData = { rows };
  return { type: JUNE_TRACE_PART_TYPE, id: turnId, data };
}

/**
 * Whether `/ui-chat` sends the trace: `uiChat.sendTrace` when set; else on, except for a model chat
 * (`createChat({ model })`), whose trace is its model calls, which the reply itself shows.
 */
export function sendsTrace(context: HandlerContext): boolean {
  return context.uiChat.sendTrace ?? context.chat.responder.kind !== "model";
}
