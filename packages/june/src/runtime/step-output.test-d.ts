import { jsonSchema, Output } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { outputOf, type OutputValue, type PartialOutputValue, type RunResult } from "june";
import type { JuneOutputData } from "june/server";

const card = Output.object({ schema: z.object({ title: z.string(), tags: z.array(z.string()) }) });
declare const result: RunResult;

describe("typed structured output (issue 41)", () => {
  it("outputOf types a step's result from the Output it was given", () => {
    expectTypeOf(outputOf(result, "card", card)).toEqualTypeOf<{ title: string; tags: string[] }>();
  });

  it("a schema given as output types the result the same way", () => {
    const schema = z.object({ n: z.number() });
    expectTypeOf(outputOf(result, "n", schema)).toEqualTypeOf<{ n: number }>();
    const json = jsonSchema<{ ok: boolean }>({ type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });
    expectTypeOf<OutputValue<typeof json>>().toEqualTypeOf<{ ok: boolean }>();
  });

  it("the partial value is the AI SDK's partial output: every field may be missing", () => {
    expectTypeOf<PartialOutputValue<typeof card>>().toMatchTypeOf<{ title?: string | undefined } | undefined>();
    expectTypeOf<{ title?: string }>().toMatchTypeOf<PartialOutputValue<typeof card>>();
  });

  it("the data-june-output part's data carries the partial value, typed by the Output", () => {
    expectTypeOf<JuneOutputData<typeof card>["output"]>().toEqualTypeOf<PartialOutputValue<typeof card>>();
    expectTypeOf<JuneOutputData["output"]>().toEqualTypeOf<unknown>();
    expectTypeOf<JuneOutputData<typeof card>["done"]>().toEqualTypeOf<boolean>();
  });
});
