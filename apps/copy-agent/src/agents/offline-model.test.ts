import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { agentById } from "./agents.js";
import { NOTHING_TO_WORK_ON, offlineDraft, offlineModel } from "./offline-model.js";
import { readRequest } from "./request.js";

const editor = agentById("editor");
const translator = agentById("translator");
const headlineWriter = agentById("headline-writer");
const COPY = "We are really very excited to launch the machine";
const PREVIOUS = "We are excited to launch the machine.\n\nChanges: cut \"really\", \"very\"; fixed capitals and punctuation.";

describe("the offline agents work on the draft, not on the request's wording", () => {
  it.each([
    ["Make it shorter: we are really very excited to launch the machine", "We are excited to launch the machine."],
    ["Tighten this up please: it is just really quite good", "It is good."],
    [`Can you make "this is actually very simple" plainer?`, "This is simple."],
    ["Make it shorter\nour very new espresso machine is basically here", "Our new espresso machine is here."],
    ["Edit: we are really very excited to launch the machine", "We are excited to launch the machine."],
    ["we are really very excited", "We are excited."],
  ])("the editor on %j", (request, edited) => {
    const draft = offlineDraft(editor, request, undefined);
    expect(draft.split("\n\n")[0]).toBe(edited);
  });

  it.each(["Make it shorter", "Shorten that", "Now tighten the draft", "Fix it please"])("the editor on %j edits the previous reply", (request) => {
    const previous = "Our new machine is really very fast.";
    expect(offlineDraft(editor, request, previous).split("\n\n")[0]).toBe("Our new machine is fast.");
    // With nothing before it, it says so instead of editing the request.
    expect(offlineDraft(editor, request, undefined)).toBe(NOTHING_TO_WORK_ON);
  });

  it.each([
    ["Translate into Spanish: our new coffee machine", "nuestro nuevo café máquina"],
    [`Put "the new machine is here" in German`, "die neu Maschine ist hier"],
    ["Translate that into German", "Wir sind begeistert zu starten die Maschine."],
    ["Now in Spanish", "Nosotros estamos emocionados de lanzar el máquina."],
    ["our new coffee machine", "notre nouveau café machine"],
  ])("the translator on %j", (request, translated) => {
    const draft = offlineDraft(translator, request, PREVIOUS);
    expect(draft.split("\n\n")[0]).toBe(translated);
    expect(draft).not.toMatch(/translate|into|put\b|now in/i);
  });

  it.each([
    ["Headlines for our new espresso machine", undefined, "1. New Espresso Machine, Made Simple"],
    ["Give me three headlines about the spring sale", undefined, "1. Spring Sale, Made Simple"],
    ["Headlines: fresh coffee every day", undefined, "1. Fresh Coffee Every Day, Made Simple"],
    ["Make them punchier", "1. New Espresso Machine, Made Simple\n2. Why Everyone Is Talking About New Espresso Machine", "1. New Espresso Machine, Made Simple"],
  ])("the headline writer on %j", (request, previous, first) => {
    expect(offlineDraft(headlineWriter, request, previous).split("\n")[0]).toBe(first);
  });

  it("reads the request's instruction apart from its copy", () => {
    expect(readRequest("Make it shorter: a b c", undefined)).toEqual({ instruction: "Make it shorter", text: "a b c" });
    expect(readRequest("Make it shorter", "the copy")).toEqual({ instruction: "Make it shorter", text: "the copy" });
    expect(readRequest("Fresh coffee every day", "the copy")).toEqual({ instruction: "", text: "Fresh coffee every day" });
    // A colon after a long sentence is part of the copy.
    const sentence = "Our espresso machine does three things better than any other machine we know: heat, pressure, speed";
    expect(readRequest(sentence, undefined)).toEqual({ instruction: "", text: sentence });
  });

  it("the offline model answers the draft step with the edited copy, through the AI SDK", async () => {
    const result = streamText({
      model: offlineModel(editor),
      messages: [
        { role: "user", content: "Edit: our machine is here" },
        { role: "assistant", content: "Our machine is here.\n\nChanges: fixed capitals and punctuation." },
        { role: "user", content: `Make it shorter: ${COPY}` },
      ],
    });
    expect((await result.text).split("\n\n")[0]).toBe("We are excited to launch the machine.");
  });
});
