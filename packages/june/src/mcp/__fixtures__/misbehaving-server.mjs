// A hand-written MCP server that misbehaves on purpose, for June's timeout, size and credential tests. It
// answers `initialize` properly and offers one tool, `work`; then, by `mode`:
//   hang-list   never answers tools/list          hang-call  never answers tools/call
//   null        answers a call with a `null` line  wrong-id   answers a call under another id
//   garbage     answers a call with a line that is not JSON
//   huge        answers a call with a text of `bytes` bytes
//   echo        answers tools/list with an error that repeats `secret`
//   echo-call   answers tools/call with an error that repeats `secret`
// `respond(message)` turns one JSON-RPC message from the client into the lines to send back (strings, sent as
// they are) or nothing.

/** @param {{ mode: string; bytes?: number; secret?: string }} options */
export function misbehavingServer(options) {
  const { mode } = options;
  const result = (id, value) => JSON.stringify({ jsonrpc: "2.0", id, result: value });
  const error = (id, message) => JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message } });
  const tool = { name: "work", description: "Does some work", inputSchema: { type: "object", properties: {} } };
  return {
    /** @param {any} message @returns {string[]} */
    respond(message) {
      if (message === null || typeof message !== "object" || message.id === undefined) return [];
      const { id, method } = message;
      switch (method) {
        case "initialize":
          return [
            result(id, {
              protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
              capabilities: { tools: {} },
              serverInfo: { name: "misbehaving", version: "1.0.0" },
            }),
          ];
        case "tools/list":
          if (mode === "hang-list") return [];
          if (mode === "echo") return [error(id, `unauthorized: ${options.secret}`)];
          return [result(id, { tools: [tool] })];
        case "tools/call":
          switch (mode) {
            case "hang-call":
              return [];
            case "null":
              return ["null"];
            case "wrong-id":
              return [result(id + 1000, { content: [{ type: "text", text: "for someone else" }] })];
            case "garbage":
              return ["this is not JSON {"];
            case "huge":
              return [result(id, { content: [{ type: "text", text: "x".repeat(options.bytes ?? 1_000_000) }] })];
            case "echo-call":
              return [error(id, `token ${options.secret} was refused`)];
            default:
              return [result(id, { content: [{ type: "text", text: "done" }] })];
          }
        default:
          return [result(id, {})];
      }
    },
  };
}
