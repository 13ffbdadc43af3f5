import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from "ai";
import { errorInfo } from "../chat/stream/error-info.js";
import type { TextRedactOptions } from "../redaction/redact.js";
import type { ServedTurn } from "./turn-event-bus.js";
import type { UiDecision } from "./ui-approval-chunks.js";
import { UiChunker, type UiTool } from "./ui-chunker.js";
import type { UiSend } from "./ui-asides.js";

/**
 * Streams the turn's events as UI message chunks, from after the last approval request the client holds
 * (`tools`: none for a new turn), until the turn ends or asks for an approval the client has not seen (the
 * client answers it and resends). It reads the turn through `ServedTurn`, so the turn may run in another
 * process. A client that goes away before the end cancels the turn when `cancelOnDisconnect`.
 */
export function uiStream(
  turn: ServedTurn,
  options: {
    signal: AbortSignal;
    messageId?: string;
    cancelOnDisconnect: boolean;
    tools: Map<string, UiTool>;
    /** A replay's decisions taken already, by tool call id (see `UiChunker`). */
    decided?: ReadonlyMap<string, UiDecision>;
    redaction: TextRedactOptions;
    /** Send each `run-update` as the `data-june-trace` part (see `sendsTrace`). */
    trace?: boolean;
    /** What goes out beside the reply's text (`uiChat`'s `sendReasoning`, `sendSources`); default: both. */
    send?: UiSend;
  },
): Response {
  const { signal, tools } = options;
  let finished = false;
  // Stops reading (not the turn) when the client goes away, by its request's signal or by canceling the body.
  const stop = new AbortController();
  const disconnected = () => {
    signal.removeEventListener("abort", disconnected);
    stop.abort();
    if (finished || !options.cancelOnDisconnect) return;
    finished = true;
    // Through the turn's control, so it reaches the turn wherever it runs; one that ended is left alone.
    turn.control({ type: "cancel" }).catch(() => {});
  };
  if (signal.aborted) stop.abort();
  else signal.addEventListener("abort", disconnected, { once: true });

  // What `createUIMessageStreamResponse` sends, written in one step per event: each chunk as one SSE
  // `data:` line, `[DONE]` at the end.
  let out = "";
  const write = (chunk: UIMessageChunk) => {
    out += chunk.type === "text-delta" ? textDeltaLine(chunk.id, chunk.delta) : `data: ${JSON.stringify(chunk)}\n\n`;
  };
  const chunker = new UiChunker(tools, write, options.decided, options.send);
  if (options.trace) chunker.traceId = turn.id;
  const events = turn.read(0, stop.signal)[Symbol.asyncIterator]();
  // The tool calls the client holds: everything up to the last of their requests it was shown already.
  const unseen = new Set(tools.keys());
  let showing = unseen.size === 0;
  let ended = false;

  /** Writes the chunks of the next event (or the stream's end); true when the stream is over. */
  const step = async (): Promise<boolean> => {
    const next = await events.next();
    if (next.done || stop.signal.aborted) return true;
    const { index, event } = next.value;
    if (!showing) {
      // The client has these already. Shown from past the last request it holds, or from a request it
      // never saw, or the end.
      const shown = event.type === "approval-request" ? event.request.toolCallId : event.type === "input-request" ? event.request.id : undefined;
      if (shown !== undefined && unseen.delete(shown)) {
        // One it holds: shown from past the last of them.
        if (unseen.size === 0) {
          showing = true;
          chunker.showDenials();
        }
        return false;
      }
      if (event.type !== "approval-request" && event.type !== "input-request" && event.type !== "turn-end") return false;
      showing = true;
      chunker.showDenials();
    }
    const asks = chunker.asks(event);
    chunker.handle(event, index);
    if (event.type === "turn-end") return true;
    if (asks) {
      chunker.finishReason = "tool-calls";
      return true;
    }
    return false;
  };

  const finish = () => {
    ended = true;
    if (stop.signal.aborted) return;
    finished = true;
    signal.removeEventListener("abort", disconnected);
    chunker.endText();
    write({ type: "finish-step" });
    // A message restored from `ui-messages` says `turnStatus: "running"`: its end says how the turn ended.
    const status = chunker.turnStatus;
    write({ type: "finish", finishReason: chunker.finishReason, ...(status !== undefined && { messageMetadata: { turnStatus: status, ...chunker.agents } }) });
  };

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start() {
      write(options.messageId !== undefined ? { type: "start", messageId: options.messageId } : { type: "start" });
      write({ type: "start-step" });
      if (showing) chunker.showDenials();
    },
    async pull(controller) {
      try {
        // Events that write nothing (the turn's start, those the client holds) are read on in the same pull.
        while (!ended && out === "") if (await step()) finish();
      } catch (error) {
        ended = true;
        const { name, message } = errorInfo(error, { redaction: options.redaction });
        write({ type: "error", errorText: `${name}: ${message}` });
      }
      if (ended) out += "data: [DONE]\n\n";
      const chunk = out;
      out = "";
      try {
        if (chunk !== "") controller.enqueue(encoder.encode(chunk));
        if (ended) controller.close();
      } catch {
        // Canceled by the client meanwhile.
      }
    },
    cancel() {
      disconnected();
      void events.return?.(undefined);
    },
  });
  return new Response(body, {
    // `x-resumable-stream-id`: the id assistant-ui's `resumable` (and the AI SDK's resumable-stream recipes) keep and
    // resume with; June's is the chat's, whose `GET /ui-chat/:id/stream` rejoins its running turn.
    headers: { ...UI_MESSAGE_STREAM_HEADERS, "x-june-turn-id": turn.id, "x-june-session-id": turn.sessionId, "x-resumable-stream-id": turn.sessionId },
  });
}

/** A `text-delta` chunk's SSE line, as `JSON.stringify` of `{ type, id, delta }` writes it. */
function textDeltaLine(id: string, delta: string): string {
  return `data: {"type":"text-delta","id":${JSON.stringify(id)},"delta":${JSON.stringify(delta)}}\n\n`;
}
