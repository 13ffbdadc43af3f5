import { createHash, randomUUID } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The queue's job id of a turn: the turn id itself when it is a UUID (the default ids are), else a UUID made
 * from the session and turn ids (the same turn always gets the same job id, so it is never queued twice).
 */
export function turnJobId(sessionId: string, turnId: string): string {
  return UUID.test(turnId) ? turnId.toLowerCase() : nameUuid(`turn\0${sessionId}\0${turnId}`);
}

/** The job id of a one-off schedule's run: the same id for the same schedule id. */
export function scheduleJobId(scheduleId: string): string {
  return nameUuid(`schedule\0${scheduleId}`);
}

/** A fresh job id (a resume: each decision resumes again). */
export function freshJobId(): string {
  return randomUUID();
}

/** A name-based (version 5 style, SHA-1) UUID of `name`. */
function nameUuid(name: string): string {
  const hex = createHash("sha1").update(name).digest("hex").slice(0, 32).split("");
  hex[12] = "5";
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
