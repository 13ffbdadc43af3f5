import { useCallback, useEffect, useRef, useState } from "react";
import { isUnreachable, type StudioClient, type TurnStream } from "../api/client";
import type { CasesFile, CasesFilter, SessionDetail, StreamEvent, ChatTraceRow, TurnError, TurnFeedback, TurnRecord } from "../api/types";
import { message } from "./use-sessions";

/** A turn as it runs: built from its event stream, replaced by its journaled record once it ends. */
export interface LiveTurn {
  /** A React key that holds before the turn id is known. */
  key: string;
  turnId?: string;
  input: string;
  steers: string[];
  text: string;
  rows: ChatTraceRow[];
  status: "running" | "completed" | "failed" | "canceled" | "suspended";
  error?: TurnError;
  /** A regenerated or edited turn: the id of the turn it takes the place of (shown no more, nor what follows it). */
  replaces?: string;
}

export interface ChatSession {
  detail: SessionDetail | null;
  loading: boolean;
  error: string | null;
  live: LiveTurn | null;
  /** Trace rows of this page's turns, by turn id. Traces are never journaled, so past turns have none. */
  traces: Readonly<Record<string, ChatTraceRow[]>>;
  send(input: string): Promise<void>;
  /** Sends `input` as soon as `sessionId` is open (a new session's first message). */
  queue(sessionId: string, input: string): void;
  cancel(): Promise<void>;
  steer(input: string): Promise<void>;
  approve(approvalId: string): Promise<void>;
  deny(approvalId: string, reason: string): Promise<void>;
  /**
   * Decides a request of a suspended (or interrupted, resumable) durable turn, listed in `detail.pendingApprovals`:
   * the server resumes the turn and decides, and the rest of the turn streams in `live` like any running turn.
   */
  decideSuspended(turnId: string, approvalId: string, decision: { approve: true } | { approve: false; reason: string }): Promise<void>;
  /** The alternatives at each turn of the current branch that has more than one: their ids, oldest first. */
  branches: Readonly<Record<string, string[]>>;
  /** Answers a turn's input again on a new branch, streamed like a send. */
  regenerate(turnId: string): Promise<void>;
  /** Sends `input` in a turn's place on a new branch, streamed like a send. */
  edit(turnId: string, input: string): Promise<void>;
  /** Makes the branch through a turn current and shows its turns. */
  checkout(turnId: string): Promise<void>;
  /** Sends feedback on a completed turn of this session; the turn shows it once the server took it. */
  feedback(turnId: string, feedback: TurnFeedback): Promise<void>;
  /** This session's eval cases as a JSONL file, all of them or those rated up or down. */
  exportCases(filter: CasesFilter): Promise<CasesFile>;
  dismissError(): void;
}

const RESUME_ATTEMPTS = 3;
/** How many of the branch's latest turns are asked for their alternatives. */
const MAX_BRANCH_LOOKUPS = 50;
/** How many recent ended turns get their trace back from the server's replay after a reload. */
const REPLAYED_TRACES = 10;

/**
 * One open session: its journaled turns, the turn running now, and the controls of that turn. A change of
 * `reloads` reads the session again.
 */
export function useChatSession(client: StudioClient, sessionId: string | null, onChanged: () => void, reloads = 0): ChatSession {
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [live, setLiveState] = useState<LiveTurn | null>(null);
  const [traces, setTraces] = useState<Record<string, ChatTraceRow[]>>({});
  const [branches, setBranches] = useState<Record<string, string[]>>({});

  const liveRef = useRef<LiveTurn | null>(null);
  const pageSignal = useRef<AbortSignal | null>(null);
  const queued = useRef<{ sessionId: string; input: string } | null>(null);
  // Traces live only in this page: keep each session's, so switching away and back keeps them.
  const traceCache = useRef(new Map<string, Record<string, ChatTraceRow[]>>());
  const onChangedRef = useRef(onChanged);
  onChangedRef.current = onChanged;

  const setLive = useCallback((update: LiveTurn | null | ((current: LiveTurn) => LiveTurn)) => {
    const next = typeof update === "function" ? (liveRef.current ? update(liveRef.current) : null) : update;
    liveRef.current = next;
    setLiveState(next);
  }, []);

  const keepTrace = useCallback((session: string, turnId: string, rows: ChatTraceRow[]) => {
    const all = { ...(traceCache.current.get(session) ?? {}), [turnId]: rows };
    traceCache.current.set(session, all);
    setTraces(all);
  }, []);

  /** Reads a turn's stream into `live` until `turn-end`, rejoining from the last event id if it drops. */
  const follow = useCallback(
    async (session: string, open: () => Promise<TurnStream>, signal: AbortSignal) => {
      let lastEventId: string | undefined;
      let ended = false;
      // The sidebar's title and turn count change once the turn is journaled: by its first event after `turn-start`.
      let listed = false;
      let stream: TurnStream | undefined = await open();
      for (let attempt = 0; stream && !ended && !signal.aborted; attempt++) {
        if (stream.turnId) setLive((turn) => ({ ...turn, turnId: stream!.turnId }));
        for await (const { id, event } of stream.events) {
          if (signal.aborted) return;
          if (id) lastEventId = id;
          ended = apply(event) || ended;
          if (!listed && event.type !== "turn-start") {
            listed = true;
            onChangedRef.current();
          }
        }
        const turnId = liveRef.current?.turnId;
        stream = undefined;
        if (!ended && !signal.aborted && turnId && attempt < RESUME_ATTEMPTS) {
          stream = await client.turnEvents(turnId, lastEventId, signal).catch(() => undefined);
        }
      }
      if (signal.aborted) return;
      const finished = liveRef.current;
      if (finished?.turnId) keepTrace(session, finished.turnId, finished.rows);
      if (!ended) setLive((turn) => ({ ...turn, status: "failed", error: { name: "Disconnected", message: "Lost the turn's event stream." } }));
      const next = await client.getSession(session).catch(() => null);
      if (signal.aborted) return;
      if (next) {
        setDetail(next);
        // The next turn may have started while this read was in flight: leave that one in place.
        const stillOurs = liveRef.current?.key === finished?.key;
        if (stillOurs && (ended || next.turns.some((turn) => turn.id === finished?.turnId))) setLive(null);
      }
      onChangedRef.current();

      function apply(event: StreamEvent): boolean {
        switch (event.type) {
          case "turn-start":
            setLive((turn) => ({ ...turn, turnId: event.turnId ?? turn.turnId }));
            return false;
          case "text-delta":
            setLive((turn) => ({ ...turn, text: turn.text + event.text }));
            return false;
          case "run-update":
            setLive((turn) => ({ ...turn, rows: event.rows }));
            return false;
          case "approval-request":
            // The next run-update's approval row carries the buttons; nothing else to do.
            return false;
          case "turn-end":
            setLive((turn) => ({
              ...turn,
              status: event.status,
              text: event.text ?? turn.text,
              error: event.error,
            }));
            return true;
          default: {
            const never: never = event;
            void never;
            return false;
          }
        }
      }
    },
    [client, keepTrace, setLive],
  );

  /** Starts a turn (a send, or a regenerate or edit when `replaces` names the turn it takes the place of). */
  const start = useCallback(
    async (session: string, input: string, open?: (signal: AbortSignal) => Promise<TurnStream>, replaces?: string) => {
      const signal = pageSignal.current;
      if (!signal) return;
      setError(null);
      setLive({ key: `live-${Date.now()}`, input, steers: [], text: "", rows: [], status: "running", ...(replaces && { replaces }) });
      try {
        await follow(session, () => (open ? open(signal) : client.sendTurn(session, input, signal)), signal);
      } catch (caught) {
        if (signal.aborted) return;
        setLive(null);
        // No answer at all: the turn never started. The caller keeps the typed message and says why.
        if (isUnreachable(caught)) throw caught;
        setError(message(caught));
        onChangedRef.current();
      }
    },
    [client, follow, setLive],
  );

  const rejoin = useCallback(
    async (session: string, record: TurnRecord, signal: AbortSignal) => {
      setLive({
        key: record.id,
        turnId: record.id,
        input: record.input,
        steers: record.steers.map((steer) => steer.input),
        text: "",
        rows: [],
        status: "running",
      });
      try {
        const stream = await client.turnEventsIfKept(record.id, signal);
        // The server no longer has the turn (it ran in a process that is gone): show the journaled record as it is.
        if (!stream) {
          if (!signal.aborted) setLive(null);
          return;
        }
        await follow(session, async () => stream, signal);
      } catch {
        if (!signal.aborted) setLive(null);
      }
    },
    [client, follow, setLive],
  );

  /**
   * Traces are never journaled, but the server keeps recently ended turns' events for replay: after a
   * reload, take each recent turn's last `run-update` from there. Turns it no longer has keep no trace.
   */
  const recoverTraces = useCallback(
    async (session: string, loaded: SessionDetail, signal: AbortSignal) => {
      const known = traceCache.current.get(session) ?? {};
      const missing = loaded.turns
        .filter((turn) => turn.id !== loaded.runningTurnId && turn.status !== "running" && !known[turn.id])
        .slice(-REPLAYED_TRACES);
      for (const turn of missing) {
        if (signal.aborted) return;
        try {
          const stream = await client.turnEventsIfKept(turn.id, signal);
          if (!stream) continue;
          let rows: ChatTraceRow[] | undefined;
          for await (const { event } of stream.events) if (event.type === "run-update") rows = event.rows;
          if (rows && !signal.aborted) keepTrace(session, turn.id, rows);
        } catch {
          // Gone from the server (or the page moved on): this turn shows no trace.
        }
      }
    },
    [client, keepTrace],
  );

  useEffect(() => {
    const controller = new AbortController();
    pageSignal.current = controller.signal;
    setLive(null);
    setDetail(null);
    setError(null);
    setTraces(sessionId ? (traceCache.current.get(sessionId) ?? {}) : {});
    if (!sessionId) {
      setLoading(false);
      return () => controller.abort();
    }
    setLoading(true);
    client
      .getSession(sessionId)
      .then((loaded) => {
        if (controller.signal.aborted) return;
        setDetail(loaded);
        setLoading(false);
        const pending = queued.current;
        const running = loaded.runningTurnId
          ? loaded.turns.find((turn) => turn.id === loaded.runningTurnId)
          : undefined;
        if (pending && pending.sessionId === sessionId) {
          queued.current = null;
          start(sessionId, pending.input).catch((caught) => setError(message(caught)));
        } else if (running) {
          void rejoin(sessionId, running, controller.signal);
        }
        void recoverTraces(sessionId, loaded, controller.signal);
      })
      .catch((caught) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        setError(message(caught));
      });
    return () => controller.abort();
    // `reloads` reads the session again (after the server came back).
  }, [client, sessionId, start, rejoin, recoverTraces, setLive, reloads]);

  // Which turns of the current branch have alternatives: asked again whenever the branch's turns change.
  const turnIds = detail && detail.id === sessionId ? detail.turns.map((turn) => turn.id).join(" ") : "";
  useEffect(() => {
    setBranches({});
    if (!sessionId || !turnIds) return;
    const controller = new AbortController();
    const ids = turnIds.split(" ").slice(-MAX_BRANCH_LOOKUPS);
    void Promise.all(
      ids.map((id) =>
        client
          .branches(sessionId, id, controller.signal)
          .then((turns) => [id, turns.map((turn) => turn.id)] as const)
          .catch(() => [id, [] as string[]] as const),
      ),
    ).then((found) => {
      if (controller.signal.aborted) return;
      setBranches(Object.fromEntries(found.filter(([, alternatives]) => alternatives.length > 1)));
    });
    return () => controller.abort();
  }, [client, sessionId, turnIds]);

  const send = useCallback(
    async (input: string) => {
      if (!sessionId || liveRef.current?.status === "running") return;
      await start(sessionId, input);
    },
    [sessionId, start],
  );

  const queue = useCallback((session: string, input: string) => {
    queued.current = { sessionId: session, input };
  }, []);

  /** Runs one control of the running turn; its failure shows as the pane's error. */
  const control = useCallback(async (run: (turnId: string) => Promise<unknown>, rethrow = false) => {
    const turnId = liveRef.current?.turnId;
    if (!turnId) return;
    try {
      await run(turnId);
    } catch (caught) {
      if (rethrow) throw caught;
      setError(message(caught));
    }
  }, []);

  return {
    detail,
    loading,
    error,
    live,
    traces,
    send,
    queue,
    cancel: () => control((turnId) => client.cancel(turnId)),
    steer: (input) =>
      control(async (turnId) => {
        await client.steer(turnId, input);
        setLive((turn) => ({ ...turn, steers: [...turn.steers, input] }));
      }, true),
    approve: (approvalId) => control((turnId) => client.approve(turnId, approvalId), true),
    decideSuspended: async (turnId, approvalId, decision) => {
      const signal = pageSignal.current;
      const record = detail?.turns.find((turn) => turn.id === turnId);
      if (!sessionId || !signal || !record || liveRef.current?.status === "running") return;
      // The server resumes the turn here and then decides; a failure (decided elsewhere, gone) shows on the row.
      if (decision.approve) await client.approve(turnId, approvalId, sessionId);
      else await client.deny(turnId, approvalId, decision.reason, sessionId);
      setError(null);
      setLive({
        key: record.id,
        turnId: record.id,
        input: record.input,
        steers: record.steers.map((steer) => steer.input),
        text: "",
        rows: [],
        status: "running",
      });
      // The resumed turn's events from its first: its trace and the rest of the reply, live.
      void follow(sessionId, () => client.turnEvents(turnId, undefined, signal), signal).catch((caught) => {
        if (signal.aborted) return;
        setLive(null);
        setError(message(caught));
      });
    },
    deny: (approvalId, reason) => control((turnId) => client.deny(turnId, approvalId, reason), true),
    branches,
    regenerate: async (turnId) => {
      const record = detail?.turns.find((turn) => turn.id === turnId);
      if (!sessionId || !record || liveRef.current?.status === "running") return;
      await start(sessionId, record.input, (signal) => client.regenerateTurn(sessionId, turnId, signal), turnId).catch((caught) =>
        setError(message(caught)),
      );
    },
    edit: async (turnId, input) => {
      if (!sessionId || liveRef.current?.status === "running") return;
      await start(sessionId, input, (signal) => client.editTurn(sessionId, turnId, input, signal), turnId).catch((caught) =>
        setError(message(caught)),
      );
    },
    checkout: async (turnId) => {
      if (!sessionId || liveRef.current?.status === "running") return;
      try {
        const next = await client.checkout(sessionId, turnId);
        setDetail((current) => (current && current.id === sessionId ? { ...current, turns: next.turns } : current));
        onChangedRef.current();
      } catch (caught) {
        setError(message(caught));
      }
    },
    feedback: async (turnId, feedback) => {
      if (!sessionId) return;
      await client.feedback(sessionId, turnId, feedback);
      setDetail((current) =>
        current && current.id === sessionId
          ? { ...current, turns: current.turns.map((turn) => (turn.id === turnId ? { ...turn, feedback } : turn)) }
          : current,
      );
    },
    exportCases: async (filter) => {
      if (!sessionId) throw new Error("Open a session to export its eval cases");
      return client.exportCases(sessionId, filter);
    },
    dismissError: () => setError(null),
  };
}
