#!/usr/bin/env node
// The fixture MCP server over stdio. With MCP_FIXTURE_LOG set, it appends one JSON line to that file when it
// starts ({ event: "start", pid }) and one per tool call ({ event: "call", tool, input }), so a test can count
// the calls that reached it and check that its process is gone.
import { appendFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFixtureServer } from "./fixture-server.mjs";

const log = process.env.MCP_FIXTURE_LOG;
const write = (entry) => {
  if (log) appendFileSync(log, `${JSON.stringify(entry)}\n`);
};
const server = createFixtureServer({ onCall: (call) => write({ event: "call", ...call }) });
await server.connect(new StdioServerTransport());
write({ event: "start", pid: process.pid });
