/** An e2e fixture for `june run --mcp`: a workflow with no tools of its own, on the echo fixtures' scripted model. */
import { Agent, Step } from "june";
import { echoModel } from "./echo-model.js";

export default function EchoWorkflow({ input }: { input: string }) {
  return (
    <Agent model={echoModel()}>
      <Step id="reply" prompt={input} />
    </Agent>
  );
}
