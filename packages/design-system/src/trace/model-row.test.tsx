import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { answeredModel, retryingModel } from "../__fixtures__/rows.js";
import { describeModelError } from "./error-words.js";
import { TraceList } from "./trace-list.js";
import type { ChatTraceModelRow } from "./types.js";

afterEach(cleanup);

describe("ModelRow", () => {
  it("shows an excerpt of what the call reasoned, before what it wrote", () => {
    const { container } = render(<TraceList rows={[{ ...(answeredModel as ChatTraceModelRow), text: "Use npm.", reasoning: "Both work; npm ships with Node." }]} />);
    const text = container.textContent ?? "";
    expect(text).toContain("Both work; npm ships with Node.");
    expect(text.indexOf("Both work")).toBeLessThan(text.indexOf("Use npm."));
  });

  it("folds the prompt and the response into one line each, opening to every message with its role", () => {
    const { container } = render(<TraceList rows={[answeredModel]} />);
    const prompt = container.querySelector<HTMLElement>('[data-messages="prompt"]')!;
    expect(prompt.querySelector("details")!.open).toBe(false);
    expect(prompt.querySelector(".jt-more__preview")!.textContent).toBe("9 messages · User: Which one should I use? My key is [redacted]");
    expect([...prompt.querySelectorAll(".jt-message__role")].map((node) => node.textContent)).toEqual(["User", "Assistant", "User"]);
    expect(prompt.querySelector(".jt-messages__omitted")!.textContent).toBe("6 earlier messages not shown");
    const response = container.querySelector<HTMLElement>('[data-messages="response"]')!;
    expect(response.querySelector(".jt-message__text")!.textContent).toBe("Use the one your team already uses; npm ships with Node.");
    expect(container.querySelector(".jt-row__meta")!.textContent).toBe("1,242 tokens");
  });

  it("shows the call's cost after its tokens, and none when the model's price is not known", () => {
    const { container } = render(<TraceList rows={[{ ...(answeredModel as ChatTraceModelRow), cost: { usd: 0.000432 } }]} />);
    expect(container.querySelector(".jt-row__meta")!.textContent).toBe("1,242 tokens · $0.00043");
    cleanup();
    const unknown = render(<TraceList rows={[{ ...(answeredModel as ChatTraceModelRow), cost: {} }]} />);
    expect(unknown.container.querySelector(".jt-row__meta")!.textContent).toBe("1,242 tokens");
  });

  it("says each failed request in words while the AI SDK retries, the raw error folded under it", () => {
    const { container } = render(<TraceList rows={[retryingModel]} />);
    expect(container.querySelector(".jt-row__title")!.textContent).toBe("Retrying gpt-5-mini (attempt 2)");
    const attempt = container.querySelector<HTMLElement>('.jt-attempt[data-attempt="1"]')!;
    expect(attempt.querySelector(".jt-attempt__words")!.textContent).toBe(
      "Attempt 1 failed after 420 ms: The model provider had a problem. Retrying…",
    );
    expect(attempt.querySelector("details")!.open).toBe(false);
    expect(attempt.querySelector("code")!.textContent).toBe("AI_APICallError: Overloaded");
  });

  it("a failed call keeps the provider's error folded (its turn says it in words), each attempt in words", () => {
    const row: ChatTraceModelRow = {
      ...(retryingModel as ChatTraceModelRow),
      title: "gpt-5-mini failed",
      status: "error",
      endedAt: 1_700_000_003_000,
      error: "AI_RetryError: Failed after 3 attempts. Last error: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434",
      failedAttempts: [1, 2, 3].map((attempt) => ({ attempt, startedAt: 0, endedAt: 10, error: "AI_APICallError: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434" })),
    };
    const { container } = render(<TraceList rows={[row]} />);
    expect(container.querySelector(".jt-failure .jt-error")).toBeNull();
    expect(container.querySelector(".jt-attempt__words")!.textContent).toBe("Attempt 1 failed after 10 ms: The model's server could not be reached.");
    const detail = container.querySelector<HTMLDetailsElement>(".jt-failure details")!;
    expect(detail.open).toBe(false);
    expect(detail.textContent).toContain("ECONNREFUSED");
    expect(container.querySelectorAll(".jt-attempt")).toHaveLength(3);
    expect(container.querySelector(".jt-attempt__words")!.textContent).not.toContain("Retrying");
  });

  // A 5xx is the provider's problem whichever way the provider words it: the AI SDK's error carries the
  // response body's message (OpenAI, Anthropic, Google) or, with no JSON body, the HTTP status text.
  it.each([
    ["a 500 with no JSON body", "AI_APICallError: Internal Server Error"],
    ["OpenAI's 500", "AI_APICallError: The server had an error while processing your request. Sorry about that!"],
    ["Anthropic's 500", "AI_APICallError: api_error: Internal server error"],
    ["Google's 500", "AI_APICallError: INTERNAL: An internal error has occurred."],
    ["a 502", "AI_APICallError: Bad Gateway"],
    ["a 504", "AI_APICallError: Gateway Timeout"],
    ["a 503", "AI_APICallError: Service Unavailable"],
  ])("%s reads as the provider's problem, like a 503", (_, error) => {
    const row: ChatTraceModelRow = { ...(retryingModel as ChatTraceModelRow), failedAttempts: [{ attempt: 1, startedAt: 0, endedAt: 420, error }] };
    const { container } = render(<TraceList rows={[row]} />);
    expect(container.querySelector(".jt-attempt__words")!.textContent).toBe("Attempt 1 failed after 420 ms: The model provider had a problem. Retrying…");
    expect(describeModelError(error)).toBe("The model provider had a problem. Try again in a moment.");
  });

  it("describeModelError names what a person can act on, and nothing else", () => {
    expect(describeModelError({ name: "AI_APICallError", message: "invalid x-api-key" })).toMatch(/refused the API key/);
    expect(describeModelError("AI_APICallError: 429 Too Many Requests")).toMatch(/limiting requests/);
    expect(describeModelError("TypeError: x is not a function")).toBeUndefined();
    // A request the provider rejected is not the provider's problem.
    expect(describeModelError("AI_APICallError: Invalid value for 'model': the model does not exist")).toBeUndefined();
    expect(describeModelError("AI_APICallError: The server could not parse the request body")).toBeUndefined();
  });
});
