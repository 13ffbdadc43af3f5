// The status a refused file answers with at the server's edge: the one table, `statusOf`.
import { describe, expect, it } from "vitest";
import { FileRejectedError } from "june/chat";
import { statusOf } from "../../server/http-error.js";

describe("statusOf(FileRejectedError)", () => {
  it("is 413 too large or too many, 415 for a type not allowed, 400 for malformed data or a URL", () => {
    const status = (reason: FileRejectedError["reason"]) => statusOf(new FileRejectedError(reason, 0, "a.png", "why"));
    expect([status("too-large"), status("too-many"), status("type-not-allowed"), status("malformed"), status("url")]).toEqual([413, 413, 415, 400, 400]);
  });
});
