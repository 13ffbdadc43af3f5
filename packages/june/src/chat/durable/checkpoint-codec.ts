import type { TurnTraceLink } from "../turn-spans.js";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { ApprovalRequest } from "../../runtime/types.js";
import { CheckpointUnreadableError } from "../../stores/errors.js";
import type { ResponderProvenance } from "../../stores/types.js";

/** Default wait, in milliseconds, before a turn waiting only on approvals lets go of its process. */
export const DEFAULT_SUSPEND_AFTER_MS = 30_000;

/** `durable` as a responder gives it: on, or on with settings. */
export type DurableOption = true | DurableOptions;

export interface DurableOptions {
  /**
   * Milliseconds a turn waits on approvals alone before it is suspended (its process lets go; a later
   * `session.resume` continues it). Default 30 000; `Infinity` keeps it in memory as long as the process lives.
   */
  suspendAfterMs?: number;
  /**
   * 32 bytes (a `Uint8Array`, or a string of 64 hex digits or of base64): checkpoints are encrypted at rest
   * with AES-256-GCM. Without it they are stored as JSON text.
   */
  encryptionKey?: Uint8Array | string;
}

/** `durable` checked and filled in. */
export interface DurableSettings {
  suspendAfterMs: number;
  key: Buffer | undefined;
}

/** Checks a responder's `durable` option; `undefined` when it is off. */
export function durableSettings(option: unknown, what: string): DurableSettings | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { suspendAfterMs: DEFAULT_SUSPEND_AFTER_MS, key: undefined };
  if (typeof option !== "object" || option === null || Array.isArray(option)) {
    throw new TypeError(`${what}: \`durable\` must be true or { suspendAfterMs?, encryptionKey? }`);
  }
  const { suspendAfterMs = DEFAULT_SUSPEND_AFTER_MS, encryptionKey } = option as DurableOptions;
  if (typeof suspendAfterMs !== "number" || Number.isNaN(suspendAfterMs) || suspendAfterMs < 0) {
    throw new TypeError(`${what}: \`durable.suspendAfterMs\` must be a number of milliseconds >= 0 (or Infinity)`);
  }
  return { suspendAfterMs, key: encryptionKey === undefined ? undefined : toKey(encryptionKey, what) };
}

function toKey(key: unknown, what: string): Buffer {
  let bytes: Buffer | undefined;
  if (key instanceof Uint8Array) bytes = Buffer.from(key);
  else if (typeof key === "string") {
    if (/^[0-9a-fA-F]{64}$/.test(key)) bytes = Buffer.from(key, "hex");
    else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(key)) bytes = Buffer.from(key, "base64");
  }
  if (bytes?.length !== 32) {
    throw new TypeError(`${what}: \`durable.encryptionKey\` must be 32 bytes (a Uint8Array, 64 hex digits or base64 of 32 bytes)`);
  }
  return bytes;
}

/** What the chat stores for an unfinished durable turn: who answers it, what it waits on, the responder's state. */
export interface CheckpointEnvelope {
  version: 1;
  turnId: string;
  responder: ResponderProvenance;
  /** The requests it waits on, as the run listed them (inputs included: a person must see what they approve). */
  requests: ApprovalRequest[];
  /** The responder's own state (an agent turn's `RunCheckpoint`). */
  state: unknown;
  /** The turn's span in its trace (ids only), when the chat records spans: a resumed turn continues it. */
  trace?: TurnTraceLink;
}

const ENCRYPTED = "june-aes-256-gcm:v1:";

/** The envelope as stored text: JSON, or (with a key) AES-256-GCM of it, bound to the session and turn. */
export function encodeCheckpoint(envelope: CheckpointEnvelope, sessionId: string, key: Buffer | undefined): string {
  const json = JSON.stringify(envelope);
  if (!key) return json;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`${sessionId}/${envelope.turnId}`));
  const body = Buffer.concat([cipher.update(json, "utf8"), cipher.final()]);
  return ENCRYPTED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** The stored text back as an envelope; `CheckpointUnreadableError` naming the turn when it cannot be. */
export function decodeCheckpoint(data: string, sessionId: string, turnId: string, key: Buffer | undefined): CheckpointEnvelope {
  let json = data;
  if (data.startsWith(ENCRYPTED)) {
    if (!key) throw new CheckpointUnreadableError(sessionId, turnId, "it is encrypted and the responder has no `durable.encryptionKey`");
    const raw = Buffer.from(data.slice(ENCRYPTED.length), "base64");
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(`${sessionId}/${turnId}`));
      decipher.setAuthTag(raw.subarray(12, 28));
      json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch (error) {
      throw new CheckpointUnreadableError(sessionId, turnId, "it does not decrypt with this `durable.encryptionKey` (another key, or damaged)", {
        cause: error,
      });
    }
  }
  // Plain JSON with a key set: written before the key was; still readable, and the next write encrypts it.
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new CheckpointUnreadableError(sessionId, turnId, "it is not valid JSON (damaged)", { cause: error });
  }
  const envelope = value as Partial<CheckpointEnvelope> | null;
  if (
    typeof envelope !== "object" ||
    envelope === null ||
    envelope.version !== 1 ||
    envelope.turnId !== turnId ||
    !Array.isArray(envelope.requests) ||
    typeof envelope.responder !== "object"
  ) {
    throw new CheckpointUnreadableError(sessionId, turnId, "it is not a June turn checkpoint of this turn");
  }
  return envelope as CheckpointEnvelope;
}
