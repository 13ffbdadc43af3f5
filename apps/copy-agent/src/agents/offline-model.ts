import type { LanguageModel } from "ai";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";
import type { CopyAgentInfo } from "./agents.js";
import { DRAFT_MARK, REPLY_REQUEST } from "./copy-workflow.js";
import { readRequest } from "./request.js";

/**
 * The offline models: `scriptedModel` from `june/testing`, one per agent, each a function of the call, so
 * the app runs with no API key and no network and answers any number of turns. They do what the agents'
 * instructions ask of a real model, by rule: the headline writer fills templates, the editor cuts filler
 * words, the translator looks words up in a small glossary. They call `publish` when asked to publish.
 */
type PromptMessage = ScriptCallInfo["options"]["prompt"][number];

function textOf(message: PromptMessage | undefined): string {
  if (!message || message.role === "system") return message?.content ?? "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The last tool result of this step (after the last user message): what publishing came to. */
function toolOutcome(prompt: readonly PromptMessage[]): { ran: boolean; text: string } | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === "user") return undefined;
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      if (output.type === "execution-denied") return { ran: false, text: output.reason ?? "denied" };
      if (output.type === "text" || output.type === "error-text") return { ran: true, text: output.value };
      return { ran: true, text: JSON.stringify("value" in output ? output.value : output) };
    }
  }
  return undefined;
}

/** Replies that report on publishing rather than carry copy. */
const NOT_COPY = /^(Published "|Not published:|There is nothing to publish)/;

/** The copy in a reply: its first paragraph (the editor's change list and the translator's note follow it). */
function copyOf(reply: string): string {
  return reply.split("\n\n")[0]!.trim();
}

function words(text: string): { text: string; delay: number }[] {
  return text.split(/(?<= )/).map((word) => ({ text: word, delay: 25 }));
}

function sentenceCase(text: string): string {
  return text.replace(/(^\s*|[.!?]\s+)([a-zà-ÿ])/g, (_, lead: string, letter: string) => lead + letter.toUpperCase());
}

function titleCase(text: string): string {
  return text.replace(/\b([a-z])/g, (letter) => letter.toUpperCase());
}

/** The draft step's answer when the request names no copy and no earlier reply has any. */
export const NOTHING_TO_WORK_ON =
  'There is no copy to work on yet: put it after a colon ("Make it shorter: <your copy>") or ask for some first.';

/** The topic of "Write headlines for our new espresso machine": "our new espresso machine". */
function topicOf(input: string): string {
  const topic = input
    .replace(/^(please\s+)?(write|give me|suggest|draft)?\s*(some\s+|three\s+|3\s+)?(headlines?|titles?)\s*(for|about|on)?\s*/i, "")
    .replace(/[.!?]+$/, "")
    .trim();
  return topic || input.trim();
}

/** The topic of earlier copy: its first line, without a headline's number or this writer's template around it. */
function topicOfCopy(copy: string): string {
  return copy
    .split("\n")[0]!
    .replace(/^\d+\.\s*/, "")
    .replace(/, Made Simple$/, "")
    .replace(/[.!?]+$/, "")
    .trim();
}

function headlines(input: string, previousCopy: string | undefined): string {
  // "Make headlines for <topic>" names its topic; "Make them punchier" works on the previous reply.
  const named = /\b(?:headlines?|titles?)\s+(?:for|about|on)\s+(.+)$/i.exec(input.trim())?.[1];
  const request = named ? { text: named } : readRequest(input, previousCopy);
  if (request.text === undefined) return NOTHING_TO_WORK_ON;
  // Copy as it stands may be a request for headlines ("Headlines for <topic>"); a draft is a topic as it is.
  const topic = request.text === previousCopy ? topicOfCopy(request.text) : topicOf(request.text);
  const name = titleCase(topic.replace(/^(our|the|a|an|my)\s+/i, ""));
  return [`1. ${name}, Made Simple`, `2. Why Everyone Is Talking About ${name}`, `3. Meet ${name}: Less Work, Better Results`].join("\n");
}

const FILLER = /\b(very|really|just|actually|basically|literally|totally|quite|simply|in order)\s+/gi;

function edit(input: string, previousCopy: string | undefined): string {
  // "Edit that" edits the previous reply; "Make it shorter: <copy>" (or bare copy) edits the copy.
  const { text } = readRequest(input, previousCopy);
  return text === undefined ? NOTHING_TO_WORK_ON : editCopy(text);
}

function editCopy(input: string): string {
  const cut = input.match(FILLER)?.map((word) => word.trim().toLowerCase()) ?? [];
  let text = input.replace(FILLER, "").replace(/\s{2,}/g, " ").trim();
  text = sentenceCase(text);
  if (!/[.!?]$/.test(text)) text += ".";
  const changes = [cut.length > 0 ? `cut ${[...new Set(cut)].map((word) => `"${word}"`).join(", ")}` : "", "fixed capitals and punctuation"].filter(Boolean);
  return `${text}\n\nChanges: ${changes.join("; ")}.`;
}

const GLOSSARY: Record<string, Record<string, string>> = {
  french: {
    the: "le", a: "un", and: "et", our: "notre", your: "votre", new: "nouveau", is: "est", here: "ici", for: "pour",
    with: "avec", fast: "rapide", faster: "plus rapide", better: "meilleur", coffee: "café", every: "chaque", day: "jour",
    meet: "découvrez", simple: "simple", made: "rendu", work: "travail", less: "moins", results: "résultats", launch: "lancer", we: "nous", are: "sommes", excited: "ravis", to: "de", machine: "machine",
  },
  spanish: {
    the: "el", a: "un", and: "y", our: "nuestro", your: "tu", new: "nuevo", is: "es", here: "aquí", for: "para",
    with: "con", fast: "rápido", faster: "más rápido", better: "mejor", coffee: "café", every: "cada", day: "día",
    meet: "conoce", simple: "sencillo", made: "hecho", work: "trabajo", less: "menos", results: "resultados", launch: "lanzar", we: "nosotros", are: "estamos", excited: "emocionados", to: "de", machine: "máquina",
  },
  german: {
    the: "die", a: "ein", and: "und", our: "unser", your: "dein", new: "neu", is: "ist", here: "hier", for: "für",
    with: "mit", fast: "schnell", faster: "schneller", better: "besser", coffee: "Kaffee", every: "jeden", day: "Tag",
    meet: "entdecken", simple: "einfach", made: "gemacht", work: "Arbeit", less: "weniger", results: "Ergebnisse", launch: "starten", we: "wir", are: "sind", excited: "begeistert", to: "zu", machine: "Maschine",
  },
};

function translate(input: string, previousCopy: string | undefined): string {
  // "Translate that into Spanish" translates the previous reply; "Into German: <copy>" the copy; bare copy itself.
  const { instruction, text: source } = readRequest(input, previousCopy);
  if (source === undefined) return NOTHING_TO_WORK_ON;
  const language = /\b(french|spanish|german)\b/i.exec(instruction)?.[1]?.toLowerCase() ?? "french";
  const glossary = GLOSSARY[language]!;
  const translated = source.replace(/[A-Za-z]+/g, (word) => {
    const found = glossary[word.toLowerCase()];
    if (!found) return word;
    return word[0] === word[0]!.toUpperCase() ? found[0]!.toUpperCase() + found.slice(1) : found;
  });
  return `${translated}\n\n(${language[0]!.toUpperCase()}${language.slice(1)}, offline glossary)`;
}

/**
 * The draft step's answer for an agent's own work on `input`, given the last earlier reply with copy in it:
 * the agent works on the copy the request names (`readRequest`), never on the request's own wording.
 */
export function offlineDraft(agent: CopyAgentInfo, input: string, previousReply: string | undefined): string {
  const previousCopy = previousReply === undefined ? undefined : copyOf(previousReply);
  switch (agent.id) {
    case "headline-writer":
      return headlines(input, previousCopy);
    case "editor":
      return edit(input, previousCopy);
    case "translator":
      return translate(input, previousCopy);
    default:
      return `${agent.name} has no offline script; set COPY_AGENT_MODEL to use a real model.`;
  }
}

/** The agent's scripted behavior on one model call. */
function script(agent: CopyAgentInfo, { options }: ScriptCallInfo): ScriptEntry {
  const prompt = options.prompt;
  const users = prompt.filter((message) => message.role === "user");
  const last = textOf(users.at(-1));
  // The reply step: stream the draft as the answer.
  if (last.startsWith(REPLY_REQUEST)) {
    const draft = last.slice(last.indexOf(DRAFT_MARK) + DRAFT_MARK.length).trim();
    return { text: words(draft) };
  }
  // The draft step after `publish` ran or was denied.
  const outcome = toolOutcome(prompt);
  if (outcome) return outcome.ran ? `${outcome.text}.` : `Not published: the call was denied (${outcome.text}).`;

  // Earlier replies are in the conversation as assistant messages; the last one with copy in it is "that".
  const previousReply = prompt
    .filter((message) => message.role === "assistant")
    .map(textOf)
    .filter((text) => !NOT_COPY.test(text))
    .at(-1);
  if (/\bpublish\b/i.test(last)) {
    // "Publish it" publishes the previous reply's copy; "Publish: <copy>" that copy.
    const copy = readRequest(last, previousReply === undefined ? undefined : copyOf(previousReply)).text;
    if (copy === undefined) return "There is nothing to publish yet: ask me for some copy first.";
    const title = copy.split("\n")[0]!.replace(/^\d+\.\s*/, "").slice(0, 80);
    return {
      text: [{ text: `Publishing "${title}".`, delay: 150 }],
      toolCalls: [{ toolName: "publish", input: { title, text: copy } }],
    };
  }
  return { text: [{ text: offlineDraft(agent, last, previousReply), delay: 150 }] };
}

/** The offline model for one agent: its modelId names the agent, so provenance shows which script answered. */
export function offlineModel(agent: CopyAgentInfo): LanguageModel {
  return scriptedModel((call) => script(agent, call), { provider: "offline", modelId: `scripted-${agent.id}` });
}
