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
  for (const [name, s] of samples) out[name] = { cpuMs: median(s.cpu), wallMs: median(s.wall), rounds: s.cpu.length, cpuSamples: s.cpu, wallSamples: s.wall };
  return out;
}

/**
 * How a variant's CPU compares with a floor's, round by round (both from one `interleave`, so round r of each ran
 * next to the other): the per-round ratios' median and quartiles, and a 95 % interval for the median ratio
 * (bootstrap over rounds, a fixed seed so a saved run prints the same). An A/A pair (the floor against a second
 * copy of itself) shows the run's noise: a gap between two variants means something only when it is larger than
 * that interval.
 */
export function ratioSpread(samples, floorSamples, { resamples = 2000 } = {}) {
  const ratios = samples.map((v, i) => v / floorSamples[i]);
  const sorted = [...ratios].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))];
  let seed = 0x9e3779b9;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const medians = [];
  for (let k = 0; k < resamples; k++) {
    const pick = Array.from({ length: ratios.length }, () => ratios[Math.floor(random() * ratios.length)]);
    medians.push(median(pick));
  }
  medians.sort((a, b) => a - b);
  return {
    median: median(ratios),
    q1: q(0.25),
    q3: q(0.75),
    min: sorted[0],
    max: sorted.at(-1),
    ci95: [medians[Math.floor(0.025 * (resamples - 1))], medians[Math.ceil(0.975 * (resamples - 1))]],
  };
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
