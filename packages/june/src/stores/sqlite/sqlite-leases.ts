import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { isProcessAlive } from "../lock-file.js";

/** A row of `june_leases`. */
export interface LeaseRow {
  session_id: string;
  token: string;
  pid: number;
  host: string;
  instance: string;
  acquired_ms: number;
  /** Null: never expires. */
  expires_ms: number | null;
}

const INSTANCE_KEY = Symbol.for("june.sqliteStore.instance");

/** This thread's lease-owner id, shared by every copy of this module loaded in it. */
export function instanceId(): string {
  const scope = globalThis as unknown as Record<symbol, string | undefined>;
  return (scope[INSTANCE_KEY] ??= randomUUID());
}

/** A new lease row for this process. */
export function newLease(sessionId: string, now: number, ttlMs: number): LeaseRow {
  return {
    session_id: sessionId,
    token: randomUUID(),
    pid: process.pid,
    host: hostname(),
    instance: instanceId(),
    acquired_ms: now,
    expires_ms: Number.isFinite(ttlMs) ? now + ttlMs : null,
  };
}

/**
 * True when a lease may be taken over: it expired, or (on this host) its process is gone. A lease with our
 * own pid is ours (any store in this thread) unless another thread wrote it before this process started:
 * then an earlier process with the same pid left it (a restarted container's pid 1).
 */
export function isStale(lease: LeaseRow, now: number): boolean {
  if (lease.expires_ms !== null && lease.expires_ms <= now) return true;
  if (lease.host !== hostname()) return false;
  if (lease.pid === process.pid) {
    const processStartedAt = now - process.uptime() * 1000;
    return lease.instance !== instanceId() && lease.acquired_ms < processStartedAt;
  }
  return !isProcessAlive(lease.pid);
}

/** Who holds a lease, for `SessionBusyError`. */
export function describeHolder(lease: LeaseRow): string {
  const where = lease.host !== hostname() ? ` on ${lease.host}` : "";
  const until = lease.expires_ms === null ? "" : ` until ${new Date(lease.expires_ms).toISOString()}`;
  return `its lease is held by process ${lease.pid}${where}${until}`;
}
