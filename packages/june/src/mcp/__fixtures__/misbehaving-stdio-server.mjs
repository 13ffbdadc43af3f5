#!/usr/bin/env node
// The misbehaving MCP server (misbehaving-server.mjs) over stdio: MCP_MODE picks how it misbehaves,
// MCP_BYTES the size of a `huge` answer, API_TOKEN the secret an `echo` server repeats.
import { createInterface } from "node:readline";
import { misbehavingServer } from "./misbehaving-server.mjs";

const server = misbehavingServer({ mode: process.env.MCP_MODE ?? "", bytes: Number(process.env.MCP_BYTES ?? 1_000_000), secret: process.env.API_TOKEN });
for await (const line of createInterface({ input: process.stdin })) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    continue;
  }
  for (const out of server.respond(message)) process.stdout.write(`${out}\n`);
}
