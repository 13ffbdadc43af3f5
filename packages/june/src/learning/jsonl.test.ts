import { createChat } from "june/chat";
import { REDACTED } from "june";
import { dataset, EvalCaseFormatError, parseJSONL, toJSONL, type EvalCase } from "june/learning";
import { describe, expect, test } from "vitest";

const KEY = "sk-proj-0123456789abcdefghijklmn";

const leaky: EvalCase = {
  id: "s/t1",
  input: `my key is ${KEY}, deploy`,
  messages: [
    { role: "user", content: "curl -H 'Authorization: Bearer abcdefghijklmnop'" },
    { role: "assistant", content: [{ type: "text", text: `use ${KEY}` }] },
  ],
  reply: "Deployed.",
  feedback: { score: 1, comment: "good", tags: ["ops"] },
  metadata: {
    sessionId: "s",
    turnId: "t1",
    responder: { kind: "model", id: "ops", version: "3" },
    model: { provider: "openai", modelId: "gpt-5-mini" },
    usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
    at: "2024-01-01T00:00:00.000Z",
  },
};

describe("toJSONL / parseJSONL", () => {
  test("one case a line, credentials redacted; parsing it back gives the redacted cases", () => {
    const other: EvalCase = { ...leaky, id: "s/t2", input: "plain", messages: [], feedback: undefined };
    delete other.feedback;
    const text = toJSONL([leaky, other]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("abcdefghijklmnop");

    const back = parseJSONL(text);
    expect(back).toHaveLength(2);
    expect(back[0]).toEqual({
      ...leaky,
      input: `my key is ${REDACTED}, deploy`,
      messages: [
        { role: "user", content: `curl -H 'Authorization: Bearer ${REDACTED}'` },
        { role: "assistant", content: [{ type: "text", text: `use ${REDACTED}` }] },
      ],
    });
    expect(back[1]).toEqual(other);
    // Usage counts are not credentials.
    expect(back[0]!.metadata.usage).toEqual({ inputTokens: 10, outputTokens: 2, totalTokens: 12 });
    expect(toJSONL(back)).toBe(text);
  });

  test("takes an async iterable such as dataset(chat)", async () => {
    const chat = createChat({ responder: { respond: ({ input }) => ({ result: Promise.resolve({ text: `echo ${input}` }) }) } });
    const session = await chat.createSession();
    await session.send(`token=${KEY}`).result;
    const text = await toJSONL(dataset(chat));
    const [only] = parseJSONL(text);
    expect(only).toMatchObject({ input: `token=${REDACTED}`, reply: `echo token=${REDACTED}` });
  });

  test("a hand-written case needs only id, input and reply", () => {
    const [only] = parseJSONL('\n{"id":"q1","input":"2+2?","reply":"4"}\n\n');
    expect(only).toEqual({
      id: "q1",
      input: "2+2?",
      messages: [],
      reply: "4",
      metadata: { sessionId: "", turnId: "", responder: { kind: "custom" }, at: "" },
    });
  });

  test("a bad line is an EvalCaseFormatError naming the line", () => {
    const good = '{"id":"a","input":"x","reply":"y"}';
    const bad = (text: string) => {
      try {
        parseJSONL(text);
      } catch (error) {
        expect(error).toBeInstanceOf(EvalCaseFormatError);
        return `${(error as EvalCaseFormatError).line} ${(error as Error).message}`;
      }
      throw new Error("expected an error");
    };
    expect(bad(`${good}\n{oops`)).toMatch(/^2 line 2: not JSON/);
    expect(bad(`${good}\n\n[1]`)).toMatch(/^3 line 3: an eval case must be a JSON object/);
    expect(bad('{"id":"a","input":1,"reply":"y"}')).toMatch(/"input" must be a string \(case "a"\)/);
    expect(bad('{"id":"a","input":"x","reply":"y","messages":[{"content":"no role"}]}')).toMatch(/messages\[0\]/);
    expect(bad('{"id":"a","input":"x","reply":"y","feedback":{"score":"up"}}')).toMatch(/feedback/);
    expect(bad(`${good}\n${good}`)).toMatch(/^2 line 2: the id "a" is used twice/);
    expect(() => toJSONL(5 as never)).toThrow(/cases must be an array/);
  });
});
