/** The scripted model of the echo fixtures: calls `echo` with the user's input, then answers with what it returned. */
import { scriptedModel } from "june/testing";

export function echoModel() {
  return scriptedModel(({ options }) => {
    const last = options.prompt.at(-1);
    if (last?.role === "tool") {
      const part = last.content.find((p) => p.type === "tool-result");
      const output = part?.type === "tool-result" ? part.output : undefined;
      if (output?.type === "content") return `echoed: ${output.value.map((v) => (v.type === "text" ? v.text : "")).join("")}`;
      if (output?.type === "execution-denied") return "the echo was denied";
      return `tool output: ${JSON.stringify(output)}`;
    }
    const tools = (options.tools ?? []).map((t) => t.name);
    if (!tools.includes("echo")) return `no echo tool (tools: ${tools.join(", ") || "none"})`;
    const input = last?.role === "user" && typeof last.content !== "string" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
    return { toolCalls: [{ toolName: "echo", input: { text: input } }] };
  });
}
