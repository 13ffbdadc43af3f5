import { describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { colorEnabled } from "./io.js";
import { Screen } from "./screen.js";

describe("Screen", () => {
  it("shows no progress line and no colors when stderr is not a terminal", () => {
    const io = createFakeIO();
    const screen = new Screen(io);
    screen.status("› Running a");
    screen.note(screen.err.red("oops"));
    expect(io.stderrText()).toBe("oops\n");
  });

  it("clears the progress line before a note and puts it back after", () => {
    const io = createFakeIO({ stderrTTY: true, env: { NO_COLOR: "1" } });
    const screen = new Screen(io);
    screen.status("› Running a");
    screen.note("hello");
    expect(io.stderrText()).toBe("\r\u001B[2K› Running a\r\u001B[2Khello\n\r\u001B[2K› Running a");
  });

  it("hides the progress line while a reply streams to the same terminal", () => {
    const io = createFakeIO({ stderrTTY: true, stdoutTTY: true, env: { NO_COLOR: "1" } });
    const screen = new Screen(io);
    screen.status("› Running a");
    screen.reply("Hel");
    screen.status("› Running b");
    screen.reply("lo");
    expect(io.stdoutText()).toBe("Hello");
    expect(io.stderrText()).toBe("\r\u001B[2K› Running a\r\u001B[2K");
    // A note mid-reply starts on a new line.
    screen.note("approve?");
    expect(io.stdoutText()).toBe("Hello\n");
  });

  it("when stdout and stderr are one pipe (2>&1), a note after the reply starts on its own line", () => {
    const io = createFakeIO({ outputsShared: true });
    const screen = new Screen(io);
    screen.reply("The reply");
    screen.endReply();
    screen.note("session 123");
    expect(io.stdoutText()).toBe("The reply\n");
    expect(io.stderrText()).toBe("session 123\n");
    // Apart (> out.md 2> err.txt), the reply is left exactly as it was.
    const apart = createFakeIO({ outputsShared: false });
    const alone = new Screen(apart);
    alone.reply("The reply");
    alone.endReply();
    alone.note("session 123");
    expect(apart.stdoutText()).toBe("The reply");
  });

  it("leaves piped output exactly as the reply, and ends a terminal reply with a newline", () => {
    const piped = createFakeIO();
    const screen = new Screen(piped);
    screen.reply("no newline");
    screen.endReply();
    expect(piped.stdoutText()).toBe("no newline");
    screen.reply("again");
    screen.endReply({ always: true });
    expect(piped.stdoutText()).toBe("no newlineagain\n");

    const tty = createFakeIO({ stdoutTTY: true });
    const ttyScreen = new Screen(tty);
    ttyScreen.reply("hi");
    ttyScreen.endReply();
    expect(tty.stdoutText()).toBe("hi\n");
  });

  it("keeps the progress line off a question until it is answered", () => {
    const io = createFakeIO({ stderrTTY: true, env: { NO_COLOR: "1" } });
    const screen = new Screen(io);
    screen.status("› a");
    screen.beforePrompt();
    screen.note("? deploy wants to run with");
    screen.status("› b");
    expect(io.stderrText()).toBe("\r\u001B[2K› a\r\u001B[2K? deploy wants to run with\n");
    screen.afterPrompt();
    screen.status("› c");
    expect(io.stderrText().endsWith("\r\u001B[2K› c")).toBe(true);
  });

  it("respects NO_COLOR and TERM=dumb", () => {
    const tty = { write() {}, isTTY: true };
    expect(colorEnabled({}, tty)).toBe(true);
    expect(colorEnabled({ NO_COLOR: "1" }, tty)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "" }, tty)).toBe(true);
    expect(colorEnabled({ TERM: "dumb" }, tty)).toBe(false);
    expect(colorEnabled({}, { ...tty, isTTY: false })).toBe(false);
  });
});
