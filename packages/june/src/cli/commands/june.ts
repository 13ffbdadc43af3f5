import { defineCommand, type CommandDef } from "citty";
import { commandMeta, EXIT_LINE, type CommandHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { MODEL_PROVIDERS, PROVIDER_ENV } from "../models.js";
import { juneVersion } from "../version.js";
import { askCommand } from "./ask.js";
import { chatCommand } from "./chat.js";
import { datasetCommand } from "./dataset.js";
import { evalCommand } from "./eval.js";
import { resumeCommand } from "./resume.js";
import { runCommand } from "./run.js";
import { sessionsCommand } from "./sessions.js";
import { studioCommand } from "./studio.js";
import { workerCommand } from "./worker.js";
import { scheduleCommand } from "./schedule.js";

/** `june --help`: what every command shares (models and their keys, output, telemetry, exit codes). */
export const juneHelp: CommandHelp = {
  summary: "Run June workflows and chats from the terminal.",
  usage: ["june <command> [options]"],
  examples: [
    ["june ask examples/offline.tsx \"Deploy the docs to staging\"", "one turn, offline (a scripted model)"],
    ["june chat --model openai:gpt-5-mini", "a chat with a model, no module"],
    ["june run examples/first-workflow.tsx --input \"the bicycle\"", "run a workflow once"],
    ["june sessions list", "the sessions in .june/chat"],
    ["june studio examples/offline.tsx", "June Studio in the browser"],
  ],
  sections: [
    {
      title: "MODELS",
      lines: [
        "--model PROVIDER:ID (or JUNE_MODEL) names a model; keys and base URLs come from the environment:",
        ...providerLines(),
        "With no file, chat, ask and studio talk to that model. With a file, the model reaches the module when",
        "its default export is a function: ({ model }) => Chat | Responder for chat, ask and studio, a component",
        "taking { input, model } for run. A module exporting a Chat, a Responder or an element picks its own.",
      ],
    },
    {
      title: "OUTPUT",
      lines: [
        "stdout carries the reply alone, streamed; stderr carries progress (on a terminal),",
        "approvals, errors and the session id. With no terminal and neither --yes nor --deny, each approval is",
        "denied (\"no one to approve\"). Ctrl-C cancels the running turn; a second quits. NO_COLOR turns colors off.",
      ],
    },
    {
      title: "TELEMETRY",
      lines: [
        "OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) makes chat, ask, run and studio send",
        "every turn's and run's spans over OTLP/HTTP; OTEL_EXPORTER_OTLP_HEADERS adds headers, OTEL_SERVICE_NAME",
        "names the service (default june).",
      ],
    },
    { title: "EXIT CODES", lines: [EXIT_LINE] },
  ],
};

/** One line per provider: an example `--model` and where its key and base URL come from. */
function providerLines(): string[] {
  const example: Record<string, string> = {
    openai: "openai:gpt-5-mini",
    anthropic: "anthropic:claude-sonnet-4-5",
    google: "google:gemini-2.5-flash",
    ollama: "ollama:llama3.2",
    "openai-compatible": "openai-compatible:ID",
  };
  const where: Record<string, string> = {
    ollama: "a local Ollama: OLLAMA_BASE_URL, or OLLAMA_HOST + /v1, or http://127.0.0.1:11434/v1",
    "openai-compatible": "--base-url URL (or OPENAI_COMPATIBLE_BASE_URL); OPENAI_COMPATIBLE_API_KEY if needed",
  };
  return MODEL_PROVIDERS.map((provider) => {
    const env = PROVIDER_ENV[provider];
    const text = where[provider] ?? `${env.key} (base URL: ${env.baseUrl})`;
    return `  ${example[provider]!.padEnd(30)} ${text}`;
  });
}

/** The `june` command tree, with `io` given to every command. A new command goes here, by its name. */
export function juneCommand(io: CliIO): CommandDef {
  return defineCommand({
    meta: { ...commandMeta("june", juneHelp), version: juneVersion() },
    subCommands: {
      run: runCommand(io),
      chat: chatCommand(io),
      ask: askCommand(io),
      resume: resumeCommand(io),
      studio: studioCommand(io),
      sessions: sessionsCommand(io),
      dataset: datasetCommand(io),
      eval: evalCommand(io),
      worker: workerCommand(io),
      schedule: scheduleCommand(io),
    },
  }) as CommandDef;
}
