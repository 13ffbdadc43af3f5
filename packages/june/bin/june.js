#!/usr/bin/env node
// The `june` executable. It lives outside dist/ so npm links it at install time, before the first build;
// the CLI itself is dist/cli/bin.js (built from src/cli/bin.ts by `npm run build`).
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli/bin.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("june: the CLI is not built yet: run `npm run build` first\n");
  process.exit(2);
}
await import(cli.href);
