/**
 * An e2e fixture for `june resume` and `june chat --session`: the durable deploy chat of the durable-turn
 * tests (src/chat/__fixtures__/durable-chat.tsx) over a file store in JUNE_TEST_STORE, its model calls and tool
 * executions logged to JUNE_TEST_LOG, suspending after JUNE_TEST_SUSPEND_MS (default: never).
 */
import { fileStore } from "../../chat/index.js";
import { durableChat } from "../../chat/__fixtures__/durable-chat.js";

const suspendAfterMs = process.env.JUNE_TEST_SUSPEND_MS;

export default durableChat({
  store: fileStore(process.env.JUNE_TEST_STORE ?? ".june/chat"),
  ...(process.env.JUNE_TEST_LOG ? { log: process.env.JUNE_TEST_LOG } : {}),
  durable: suspendAfterMs === undefined ? true : { suspendAfterMs: Number(suspendAfterMs) },
}).chat;
