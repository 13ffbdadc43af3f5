/**
 * An e2e fixture for `june dataset` and `june eval`: replies with the input and how many earlier messages
 * it was given, so a case's reply is reproduced exactly only when its messages are the ones the turn saw.
 * `JUNE_TEST_VERSION=v2` answers differently. Its `scorers` export comes from `june/learning`, resolved
 * from the built package.
 */
import type { Responder } from "june/chat";
import { exactMatch, includes } from "june/learning";

const version = process.env.JUNE_TEST_VERSION ?? "v1";

const echo: Responder = {
  id: "echo",
  version,
  respond: ({ input, messages }) => ({
    result: Promise.resolve({
      text: version === "v2" ? `RE: ${input}` : `re: ${input} (after ${messages.length})`,
      metadata: { usage: { inputTokens: messages.length + 1, outputTokens: 4, totalTokens: messages.length + 5 } },
    }),
  }),
};

export default echo;

export const scorers = { exact: exactMatch(), mentions: includes("re:", { ignoreCase: true }) };
