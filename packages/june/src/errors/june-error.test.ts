import { describe, expect, it } from "vitest";
import { RenderError, TimeoutError } from "../runtime/errors.js";
import { SessionBusyError } from "../stores/errors.js";
import { JuneError } from "./june-error.js";

describe("JuneError", () => {
  it("isInstance matches every June error on the base and only its own kind on a subclass", () => {
    const timeout = new TimeoutError("too slow", { timeout: 5 });
    expect(JuneError.isInstance(timeout)).toBe(true);
    expect(TimeoutError.isInstance(timeout)).toBe(true);
    expect(RenderError.isInstance(timeout)).toBe(false);
    expect(SessionBusyError.isInstance(new SessionBusyError("s"))).toBe(true);
    expect(JuneError.isInstance(new Error("plain"))).toBe(false);
    expect(JuneError.isInstance(null)).toBe(false);
  });

  it("works across bundles: a copy with the same marker and name matches", () => {
    // Another copy marks its errors with the same registered symbols: the base's and the class's own.
    const foreign = Object.assign(new Error("from another copy"), {
      name: "TimeoutError",
      [Symbol.for("june.error")]: true,
      [Symbol.for("june.TimeoutError")]: true,
    });
    expect(TimeoutError.isInstance(foreign)).toBe(true);
    expect(RenderError.isInstance(foreign)).toBe(false);
  });
});
