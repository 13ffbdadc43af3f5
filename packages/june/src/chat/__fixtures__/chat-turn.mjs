// A child process that sends one turn to an existing session of a fileStore chat, for
// chat-processes.test.tsx. It imports the chat's and the scripted model's TypeScript source (run it with
// `node --import tsx`) and prints one JSON object a line on stdout.
//
// argv: <dir> <session id> <mode>
//   slow    -> sends a turn whose scripted model streams thousands of slow deltas; prints
//              {"event":"streaming","turnId","pid"} after the first text-delta, then keeps streaming
//              (the test kills it with SIGKILL).
//   contend -> prints {"event":"ready"}, waits for a "go" line on stdin, then sends a turn. Its model, when
//              called, prints {"event":"model-called","turnId"} and waits for a "finish" line before it
//              answers. At the end prints {"event":"completed",...} or {"event":"failed","name","message",...}.
//   race    -> prints {"event":"ready"}, waits for "go", then completes <count> turns (argv[5]), sending again
//              after a SessionBusyError; prints {"event":"done","turns":[{turnId,input,prompt}],"busy":n}, where
//              `prompt` is the user texts its model was sent.
import { createInterface } from "node:readline";

const [dir, sessionId, mode, count] = process.argv.slice(2);
const { createChat, fileStore } = await import(new URL("../index.ts", import.meta.url).href);
const { scriptedModel } = await import(new URL("../../testing/scripted-model.ts", import.meta.url).href);

const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

// Lines from stdin, each handed to the first waiter (or kept until one asks).
const waiting = [];
const lines = [];
createInterface({ input: process.stdin }).on("line", (line) => {
  const waiter = waiting.shift();
  if (waiter) waiter(line);
  else lines.push(line);
});
const nextLine = () => (lines.length > 0 ? Promise.resolve(lines.shift()) : new Promise((resolve) => waiting.push(resolve)));
async function waitFor(expected) {
  for (;;) if ((await nextLine()) === expected) return;
}

if (mode === "slow") {
  const deltas = Array.from({ length: 5000 }, (_, i) => ({ text: `w${i} `, delay: 20 }));
  const chat = createChat({ model: scriptedModel({ text: deltas }), store: fileStore(dir) });
  const session = await chat.openSession(sessionId);
  const turn = session.send("the turn that gets killed");
  turn.result.catch(() => {});
  let announced = false;
  for await (const event of turn) {
    if (event.type === "text-delta" && !announced) {
      announced = true;
      say({ event: "streaming", turnId: turn.id, pid: process.pid });
    }
  }
  say({ event: "ended", status: turn.status });
} else if (mode === "contend") {
  let turnId;
  const model = scriptedModel(async () => {
    say({ event: "model-called", turnId });
    await waitFor("finish");
    return { text: ["reply ", "from ", String(process.pid)] };
  });
  const chat = createChat({ model, store: fileStore(dir) });
  const session = await chat.openSession(sessionId);
  say({ event: "ready", pid: process.pid });
  await waitFor("go");
  const turn = session.send(`input from ${process.pid}`);
  turnId = turn.id;
  const deltas = [];
  const reading = (async () => {
    for await (const event of turn) if (event.type === "text-delta") deltas.push(event.text);
  })();
  try {
    const result = await turn.result;
    await reading;
    say({ event: "completed", turnId, pid: process.pid, text: result.text, deltas, status: turn.status, modelCalls: model.callCount });
  } catch (error) {
    await reading;
    say({
      event: "failed",
      turnId,
      pid: process.pid,
      name: error?.name,
      message: error?.message,
      status: turn.status,
      modelCalls: model.callCount,
      turns: (await session.turns()).map((t) => t.id),
    });
  }
  process.stdin.destroy();
} else if (mode === "race") {
  const prompts = [];
  const model = scriptedModel(({ options }) => {
    prompts.push(options.prompt.filter((m) => m.role === "user").map((m) => m.content.map((p) => p.text ?? "").join("")));
    return { text: ["reply ", `${process.pid} `, String(prompts.length)], delay: 1 };
  });
  const chat = createChat({ model, store: fileStore(dir) });
  const session = await chat.openSession(sessionId);
  say({ event: "ready", pid: process.pid });
  await waitFor("go");
  const turns = [];
  let busy = 0;
  while (turns.length < Number(count)) {
    const input = `race ${process.pid} ${turns.length}`;
    const turn = session.send(input);
    try {
      await turn.result;
      turns.push({ turnId: turn.id, input, prompt: prompts.at(-1) });
    } catch (error) {
      if (error?.name !== "SessionBusyError") throw error;
      busy++;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    }
  }
  say({ event: "done", pid: process.pid, turns, busy });
  process.stdin.destroy();
} else {
  throw new Error(`chat-turn.mjs: unknown mode ${mode}`);
}
