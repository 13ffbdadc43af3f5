/**
 * Start-up part: a fresh process that imports one module and prints how long the import took (ms), as JSON.
 * Usage: node import-cost.mjs SPECIFIER   (a package specifier, or a path relative to the repository root)
 */
const [specifier] = process.argv.slice(2);
const target = specifier.startsWith(".") ? new URL(`../../${specifier}`, import.meta.url).href : specifier;
const start = performance.now();
await import(target);
process.stdout.write(`${JSON.stringify({ importMs: performance.now() - start, sinceStartMs: performance.now() })}\n`);
