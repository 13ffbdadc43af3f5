/** Small measurement helpers: medians, CPU and wall time of an async piece of work. */

/** The median of a list of numbers (NaN for an empty list). */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs `fn` once and returns its CPU time (user + system, all threads of this process) and wall time, in ms. */
export async function measure(fn) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: wall, value };
}

/**
 * Runs several variants in interleaved rounds (so a machine that slows down mid-run slows all of them) and
 * returns, per variant, the median over rounds of the per-item CPU and wall time.
 *
 * @param variants `{ name, round(roundIndex) }`: `round` does one round of work and returns
 *   `{ cpuMs, wallMs, items }` (items = how many turns it timed).
 */
export async function interleave(variants, { rounds, warmupRounds = 1 }) {
  const samples = new Map(variants.map((v) => [v.name, { cpu: [], wall: [] }]));
  for (let r = 0; r < warmupRounds + rounds; r++) {
    // The order rotates every round: with a fixed order, the variant run right after another paid for the
    // garbage the other left (up to 0.1× on whichever came second). A forced gc() before each round is no
    // cure: its concurrent sweeping runs on other threads into the measured round and inflates its CPU.
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(k + r) % variants.length];
      const { cpuMs, wallMs, items } = await variant.round(r);
      if (r < warmupRounds) continue;
      const s = samples.get(variant.name);
      s.cpu.push(cpuMs / items);
      s.wall.push(wallMs / items);
    }
  }
  const out = {};
  for (const [name, s] of samples) out[name] = { cpuMs: median(s.cpu), wallMs: median(s.wall), rounds: s.cpu.length };
  return out;
}

/** A forced garbage collection, when the process runs with --expose-gc. */
export function gc() {
  if (typeof globalThis.gc === "function") {
    globalThis.gc();
    globalThis.gc();
  }
}

/** Rounds a figure for display and JSON: 3 significant digits, small numbers kept readable. */
export function round(value, digits = 3) {
  if (!Number.isFinite(value)) return value;
  if (value === 0) return 0;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return Number(value.toFixed(Math.min(decimals, 6)));
}

/** The `p`th percentile of an ascending list (nearest rank; NaN for an empty list). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
