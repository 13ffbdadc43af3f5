import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { storeConformanceCases } from "../testing/store-conformance.js";
import { fileStore } from "./file-store.js";

const root = mkdtempSync(join(tmpdir(), "june-file-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
describe("fileStore conformance (fresh directory per case)", () => {
  for (const c of storeConformanceCases(() => fileStore(join(root, `case-${n++}`)))) it(c.name, c.run);
});

describe("fileStore conformance (one shared directory, no fsync)", () => {
  const shared = join(root, "shared");
  for (const c of storeConformanceCases(() => fileStore(shared, { fsync: false }))) it(c.name, c.run);
});
