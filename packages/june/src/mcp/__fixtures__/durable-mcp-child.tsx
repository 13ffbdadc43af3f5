// A child process for durable-mcp.test.tsx (run with `node --import tsx`): a durable turn of ./durable-mcp-chat.tsx
// over a file store asks to run the fixture MCP server's `slow` tool; once the request is checkpointed it prints
// {"event":"waiting","turnId","requestId"}, approves it, and waits to be killed (SIGKILL) while the call runs.
// argv: <store dir> <session id> <MCP_FIXTURE_LOG file> <stdio server script>
import { fileStore } from "../../chat/index.js";
import { mcpChat } from "./durable-mcp-chat.js";

const [dir, sessionId, mcpLog, script] = process.argv.slice(2) as [string, string, string, string];
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const store = fileStore(dir);
const chat = mcpChat({ store, server: { command: process.execPath, args: [script], env: { MCP_FIXTURE_LOG: mcpLog } }, tool: "slow" });
const session = await chat.createSession({ id: sessionId });
const turn = session.send("take your time");
for await (const event of turn) {
  if (event.type !== "approval-request") continue;
  const request = event.request;
  for (;;) {
    const stored = await store.getCheckpoint!(sessionId, turn.id);
    if (stored?.data.includes(request.id)) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  say({ event: "waiting", turnId: turn.id, requestId: request.id });
  turn.approve(request.id);
  break;
}
await new Promise(() => {});
