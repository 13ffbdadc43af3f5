import { describe, expect, it } from "vitest";
import { isCredentialKey, REDACTED, redact, redactText } from "./redact.js";

const OPENAI = "sk-proj-AbC123dEf456GhI789jKl012MnO345pQr678";
const ANTHROPIC = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AAAA";
const LEGACY = "sk-0123456789abcdefghijABCDEFGHIJ";
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const AWS = "AKIAIOSFODNN7EXAMPLE";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB",
  "aFDrBz9vFqU4yNfA8Cz0l1W2pE9p",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

describe("isCredentialKey", () => {
  it.each([
    "apiKey",
    "api_key",
    "API_KEY",
    "x-api-key",
    "OPENAI_API_KEY",
    "token",
    "Token",
    "githubToken",
    "csrf_token",
    "access_token",
    "refreshToken",
    "secret",
    "clientSecret",
    "client_secret",
    "aws_secret_access_key",
    "password",
    "dbPassword",
    "PASSWORD",
    "passwd",
    "passphrase",
    "authorization",
    "Authorization",
    "proxy-authorization",
    "cookie",
    "Set-Cookie",
    "private_key",
    "privateKey",
    "credentials",
    "basicAuth",
  ])("masks %s", (key) => {
    expect(isCredentialKey(key)).toBe(true);
  });

  it.each(["inputTokens", "outputTokens", "totalTokens", "maxOutputTokens", "tokenBudget", "key", "keys", "author", "env", "name", "monkey", "keyboard", "id", "input"])(
    "keeps %s",
    (key) => {
      expect(isCredentialKey(key)).toBe(false);
    },
  );
});

describe("redactText", () => {
  it("masks provider keys wherever they sit in a string", () => {
    for (const key of [OPENAI, ANTHROPIC, LEGACY]) {
      const out = redactText(`use ${key} for this`);
      expect(out).toBe(`use ${REDACTED} for this`);
    }
  });

  it("masks Bearer tokens and keeps the scheme", () => {
    expect(redactText("Authorization: Bearer abcdef0123456789.xyz")).toBe("Authorization: Bearer [redacted]");
    expect(redactText("-H 'authorization: Bearer abcdef0123456789' https://x")).toBe("-H 'authorization: Bearer [redacted]' https://x");
  });

  it("masks JWTs, AWS access keys and PEM private keys", () => {
    expect(redactText(`jwt=${JWT};`)).not.toContain("eyJ");
    expect(redactText(`the token ${JWT} expired`)).toBe(`the token ${REDACTED} expired`);
    expect(redactText(`aws ${AWS} key`)).toBe(`aws ${REDACTED} key`);
    const pem = redactText(`key:\n${PEM}\nafter`);
    expect(pem).toBe(`key:\n${REDACTED}\nafter`);
    expect(pem).not.toContain("MIIE");
  });

  it("masks a PEM block cut off before its END line", () => {
    const cut = PEM.slice(0, 80);
    expect(redactText(`x ${cut}`)).toBe(`x ${REDACTED}`);
  });

  it("masks key=value and JSON pairs whose key names a credential", () => {
    expect(redactText("GET /v1?api_key=abc123&q=cats")).toBe("GET /v1?api_key=[redacted]&q=cats");
    expect(redactText("OPENAI_API_KEY=hunter2 npm start")).toBe("OPENAI_API_KEY=[redacted] npm start");
    expect(redactText('{"password":"hunter2","user":"ann"}')).toBe('{"password":"[redacted]","user":"ann"}');
    expect(redactText('{"githubToken": "x y z"}')).toBe('{"githubToken": "[redacted]"}');
    expect(redactText("Cookie: session=abc; theme=dark")).toBe("Cookie: [redacted]");
  });

  it("leaves ordinary text alone", () => {
    const text = "Use scikit-learn with max_tokens=200 and {\"inputTokens\": 12}. The bearer of news. sk-learn";
    expect(redactText(text)).toBe(text);
  });
});

describe("redact", () => {
  it("masks values under credential keys at any depth, in arrays too, in any case", () => {
    const input = {
      user: "ann",
      apiKey: "plain-looking",
      nested: { deeper: [{ Authorization: "Basic dXNlcjpwYXNz" }, { PASSWORD: 1234 }] },
      headers: { Cookie: "a=b", accept: "json" },
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
      client_secret: { any: "shape" },
      token: null,
    };
    expect(redact(input)).toEqual({
      user: "ann",
      apiKey: REDACTED,
      nested: { deeper: [{ Authorization: REDACTED }, { PASSWORD: REDACTED }] },
      headers: { Cookie: REDACTED, accept: "json" },
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
      client_secret: REDACTED,
      token: null,
    });
  });

  it("masks credential-looking values under ordinary keys", () => {
    const out = redact({ note: `key ${OPENAI} and ${AWS}`, list: [`Bearer ${JWT}`] });
    expect(out).toEqual({ note: `key ${REDACTED} and ${REDACTED}`, list: [`Bearer ${REDACTED}`] });
    expect(redact(`x ${ANTHROPIC}`)).toBe(`x ${REDACTED}`);
  });

  it("never changes its input", () => {
    const input = { apiKey: "k", list: [{ token: "t" }] };
    const copy = structuredClone(input);
    redact(input);
    expect(input).toEqual(copy);
  });

  it("survives cycles and keeps shared references that are not cycles", () => {
    const shared = { ok: 1 };
    const a: Record<string, unknown> = { name: "a", left: shared, right: shared };
    a.self = a;
    const out = redact(a) as Record<string, unknown>;
    expect(out.self).toBe("[circular]");
    expect(out.left).toEqual({ ok: 1 });
    expect(out.right).toEqual({ ok: 1 });
    expect(() => JSON.stringify(out)).not.toThrow();
  });

  it("cuts very deep nesting", () => {
    let deep: Record<string, unknown> = { secret: "s" };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const json = JSON.stringify(redact(deep));
    expect(json).toContain("[truncated]");
    expect(redact(deep, { maxDepth: 200 })).toBeDefined();
    expect(JSON.stringify(redact(deep, { maxDepth: 200 }))).toContain(`"secret":"${REDACTED}"`);
  });

  it("handles errors, maps, sets, dates and toJSON", () => {
    const error = Object.assign(new Error(`bad key ${OPENAI}`), { apiKey: "x" });
    expect(redact(error)).toEqual({ name: "Error", message: `bad key ${REDACTED}`, apiKey: REDACTED });
    const map = redact(new Map<string, unknown>([["token", "t"], ["name", LEGACY]]));
    expect([...map]).toEqual([["token", REDACTED], ["name", REDACTED]]);
    expect([...redact(new Set([LEGACY, "ok"]))]).toEqual([REDACTED, "ok"]);
    const date = new Date(0);
    expect(redact({ at: date }).at).toBe(date);
    expect(redact({ v: { toJSON: () => ({ password: "p" }) } })).toEqual({ v: { password: REDACTED } });
  });

  it("keeps primitives", () => {
    expect(redact(1)).toBe(1);
    expect(redact(null)).toBe(null);
    expect(redact(undefined)).toBe(undefined);
    expect(redact(true)).toBe(true);
  });
});
