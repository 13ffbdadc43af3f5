/**
 * A small seeded PRNG (mulberry32) for the random tests (fuzz, mutations, kill loops): the same seed gives
 * the same sequence, so a failure names its seed and reproduces. `JUNE_TEST_SEED` overrides the default.
 */
export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** A whole number in [0, n). */
  int(n: number): number;
  /** One of `items`. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

export function seededRandom(defaultSeed: number): SeededRandom {
  const fromEnv = Number(process.env.JUNE_TEST_SEED);
  const seed = Number.isInteger(fromEnv) && process.env.JUNE_TEST_SEED !== "" ? fromEnv : defaultSeed;
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { seed, next, int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}
