/**
 * A `june run` fixture for redaction, offline: a scripted model calls `vault`, whose output holds
 * credentials, and answers with some; a plain step then returns a config holding more (the step that
 * finishes last, so `june run` prints it). With `--input fail` that step throws with credentials in its
 * message. The canaries are the ones `redaction-surfaces.test.ts` looks for.
 */
import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool } from "june";
import { scriptedModel } from "june/testing";

const KEY = "sk-proj-RunJsonAbCdEfGhIjKlMnOp";
const TOKEN = "runjsonT0kenAbCdEf1234";
const PASSWORD = "hunter2-runjson-pw";
const OWN = "acme_q1w2e3r4t5y6u7i8";

const vault = tool({
  description: "Reads the deploy credentials",
  inputSchema: jsonSchema<{ name: string }>({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
  execute: async () => ({ password: PASSWORD, header: `Authorization: Bearer ${TOKEN}`, openai: KEY, account: OWN }),
});

const model = scriptedModel(({ options }) => {
  const last = options.prompt.at(-1);
  if (last?.role !== "tool") return { toolCalls: [{ toolName: "vault", input: { name: "deploy" } }] };
  return `Use ${KEY} with Bearer ${TOKEN} for account ${OWN}.`;
});

export default function LeakyFlow({ input }: { input: string }) {
  return (
    <Agent model={model}>
      <Tool name="vault" value={vault} />
      <Step id="lookup" prompt="Find the deploy credentials" />
      <Step
        id="config"
        run={(ctx) => {
          if (input === "fail") throw new Error(`vault refused ${KEY} (Bearer ${TOKEN}) for ${OWN}`);
          return { password: PASSWORD, account: OWN, lookup: ctx.steps.lookup };
        }}
      />
    </Agent>
  );
}
