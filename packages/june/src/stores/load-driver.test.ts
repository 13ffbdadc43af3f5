import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { StoreDriverMissingError } from "./errors.js";
import { loadDriver } from "./load-driver.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const hideDrivers = fileURLToPath(new URL("./__fixtures__/hide-drivers.cjs", import.meta.url));
const chatEntry = new URL("../chat/index.ts", import.meta.url).href;

describe("loadDriver", () => {
  it("loads an installed driver", () => {
    expect(typeof loadDriver<{ Pool: unknown }>("pg", "postgresStore", "8").Pool).toBe("function");
  });

  it("names the package to install when it is missing", () => {
    let caught: unknown;
    try {
      loadDriver("june-test-no-such-driver", "someStore", "1");
    } catch (error) {
      caught = error;
    }
    expect(StoreDriverMissingError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({
      name: "StoreDriverMissingError",
      packageName: "june-test-no-such-driver",
      message: expect.stringContaining("npm install june-test-no-such-driver@1"),
    });
  });

  it("june/chat imports without either driver; making a SQLite or PostgreSQL store names the package", async () => {
    const script = `
      const sqlite = await import(${JSON.stringify(chatEntry)});
      const postgres = sqlite;
      const attempt = (make) => { try { make(); return { made: true }; } catch (e) { return { name: e.name, packageName: e.packageName, message: e.message }; } };
      const fakePool = { query: async () => ({ rows: [], rowCount: 0 }), connect: async () => ({}), end: async () => {} };
      console.log(JSON.stringify({
        sqlite: attempt(() => sqlite.sqliteStore(":memory:")),
        postgres: attempt(() => postgres.postgresStore({ connectionString: "postgres://u:secret@127.0.0.1/x" })),
        postgresWithPool: attempt(() => postgres.postgresStore({ pool: fakePool })),
      }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--require", hideDrivers, "--import", "tsx", "--input-type=module", "-e", script],
      { cwd: packageDir },
    );
    const result = JSON.parse(stdout);
    expect(result.sqlite).toMatchObject({ name: "StoreDriverMissingError", packageName: "better-sqlite3" });
    expect(result.sqlite.message).toMatch(/sqliteStore needs the "better-sqlite3" package.*npm install better-sqlite3@12/);
    expect(result.postgres).toMatchObject({ name: "StoreDriverMissingError", packageName: "pg" });
    expect(result.postgres.message).toMatch(/postgresStore needs the "pg" package.*npm install pg@8/);
    expect(result.postgres.message).not.toContain("secret");
    // A pool of your own needs no driver from june.
    expect(result.postgresWithPool).toEqual({ made: true });
  });
});
