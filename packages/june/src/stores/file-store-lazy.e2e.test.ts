/**
 * End to end on the BUILT library: `fileStore` loads its implementation (`file-store-core.js`) on the store's
 * first call, so importing `june/chat` (and making a fileStore) for a chat on another store loads none of it.
 * Built first when dist is missing or older than the source.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuilt, packageDir, traceImport } from "../cli/__fixtures__/built-bin.js";

beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), "june-lazy-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("importing june/chat and making a fileStore load no file-store-core.js; the store's first call does", { timeout: 60_000 }, () => {
  const trace = join(dir, "trace.txt");
  writeFileSync(trace, "");
  const chatIndex = pathToFileURL(join(packageDir, "dist/chat/index.js")).href;
  const script = `
    import { appendFileSync } from "node:fs";
    const { fileStore } = await import(${JSON.stringify(chatIndex)});
    const store = fileStore(${JSON.stringify(join(dir, "sessions"))});
    appendFileSync(process.env.JUNE_TRACE_FILE, "-- first call\\n");
    const listed = await store.listSessions();
    await store.createSession({ id: "s1" });
    const again = await store.listSessions();
    await store.close();
    process.stdout.write(JSON.stringify([listed.length, again.map((s) => s.id)]));
  `;
  const result = spawnSync(process.execPath, ["--import", traceImport, "--input-type=module", "-e", script], {
    env: { ...process.env, JUNE_TRACE_FILE: trace },
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe(JSON.stringify([0, ["s1"]]));
  const lines = readFileSync(trace, "utf8").split("\n");
  const mark = lines.indexOf("-- first call");
  expect(mark).toBeGreaterThan(0);
  // The build bundles the library: fileStore's core is the chunk of its own that its `import()` makes.
  const core = (urls: string[]) => urls.some((url) => /\/dist\/chunks\/file-store-core-\w+\.js$/.test(url));
  expect(lines.slice(0, mark).some((url) => url.endsWith("/dist/chat/index.js"))).toBe(true);
  expect(core(lines.slice(0, mark))).toBe(false);
  expect(core(lines.slice(mark))).toBe(true);
});
