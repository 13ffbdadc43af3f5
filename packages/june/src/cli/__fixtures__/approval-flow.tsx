/**
 * An e2e fixture for `june run` approvals, offline: a scripted model calls `touch` (which needs approval and
 * writes the file named by JUNE_TEST_MARKER), then says whether it ran.
 */
import { writeFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool } from "june";
import { scriptedModel } from "june/testing";

const touch = tool({
  description: "Writes the marker file",
  inputSchema: jsonSchema<{ note: string }>({ type: "object", properties: { note: { type: "string" } }, required: ["note"] }),
  needsApproval: true,
  execute: async ({ note }) => {
    writeFileSync(process.env.JUNE_TEST_MARKER ?? "marker.txt", note);
    return "written";
  },
});

const model = scriptedModel(({ options }) => {
  const last = options.prompt.at(-1);
  if (last?.role !== "tool") return { toolCalls: [{ toolName: "touch", input: { note: "ran" } }] };
  const result = last.content.find((part) => part.type === "tool-result");
  return result?.type === "tool-result" && result.output.type === "execution-denied"
    ? `denied: ${result.output.reason ?? ""}`
    : "touched";
});

export default function Flow({ input }: { input: string }) {
  return (
    <Agent model={model}>
      <Tool name="touch" value={touch} />
      <Step id="touch" prompt={input || "touch it"} />
    </Agent>
  );
}
