import { describe, expect, it } from "vitest";
import { isCredentialKey, REDACTED, redact, redactText } from "./redact.js";

// The shapes the hardening campaign's canaries got through (issue 9, item 5), each in the place it was found.
const CASES: [string, string, string][] = [
  ["an sk-proj- key without a digit", "key sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz here", `key ${REDACTED} here`],
  ["an sk-svcacct- key", "sk-svcacct-AbCdEfGhIjKlMnOpQrStUv", REDACTED],
  ["AWS_SECRET_ACCESS_KEY=…", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY npm start", `AWS_SECRET_ACCESS_KEY=${REDACTED} npm start`],
  ["a YAML api_key", "provider:\n  api_key: abcdef-ghijkl-mnopq\n  model: gpt", `provider:\n  api_key: ${REDACTED}\n  model: gpt`],
  ["a quoted YAML password", "password: 'hunter2 hunter3'", `password: '${REDACTED}'`],
  ["a password in a connection URL", "DATABASE_URL is postgres://ann:s3cr3t-pw@db.example.com:5432/app", `DATABASE_URL is postgres://ann:${REDACTED}@db.example.com:5432/app`],
  ["a redis URL with only a password", "redis://:hunter2@127.0.0.1:6379", `redis://:${REDACTED}@127.0.0.1:6379`],
  ["a GitLab token", "token glpat-AbCdEfGhIjKlMnOpQrSt12 ok", `token ${REDACTED} ok`],
  ["a Hugging Face token", "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf", REDACTED],
  ["a GitHub token", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", REDACTED],
  ["a Slack bot token", "xoxb-123456789012-123456789012-AbCdEfGhIjKlMnOpQrStUvWx", REDACTED],
  ["a Slack user token", "xoxe.xoxp-1-AbCdEfGhIjKl is", "xoxe.xoxp-1-AbCdEfGhIjKl is".replace("xoxp-1-AbCdEfGhIjKl", REDACTED)],
  ["openaiKey in code", 'const config = { openaiKey: "plain-looking-value" };', `const config = { openaiKey: "${REDACTED}" };`],
  ["stripeSecretKey in code", "stripeSecretKey = 'plain'", `stripeSecretKey = '${REDACTED}'`],
  ["OPENAI_KEY in an env file", "OPENAI_KEY=plain", `OPENAI_KEY=${REDACTED}`],
  ['"openaiKey" in JSON', '{"openaiKey":"plain","model":"x"}', `{"openaiKey":"${REDACTED}","model":"x"}`],
];

describe("the credential shapes the campaign found", () => {
  it.each(CASES)("redactText masks %s", (_name, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it.each(CASES)("redact masks %s in any string it walks", (_name, text, expected) => {
    expect(redact({ note: text, list: [text] })).toEqual({ note: expected, list: [expected] });
  });

  it("keys named after a service are credentials in objects too; other *Key names are not", () => {
    for (const key of ["openaiKey", "OPENAI_KEY", "anthropicKey", "stripeSecretKey", "stripeKey", "hfKey", "huggingFaceKey", "licenseKey", "AWS_SECRET_ACCESS_KEY"]) {
      expect(isCredentialKey(key), key).toBe(true);
    }
    for (const key of ["primaryKey", "sortKey", "cacheKey", "keyboard", "monkey", "publicKey", "partitionKey", "idempotencyKey"]) {
      expect(isCredentialKey(key), key).toBe(false);
    }
    expect(redact({ openaiKey: "x", stripeSecretKey: "y", cacheKey: "z" })).toEqual({ openaiKey: REDACTED, stripeSecretKey: REDACTED, cacheKey: "z" });
  });

  it("leaves ordinary text alone", () => {
    const text = [
      "Use scikit-learn with max_tokens=200, sk-learn and sort_key: name.",
      "Note: the monkey: jumps. See https://example.com:8080/docs@v2 and mailto:ann@example.com.",
      "inputTokens: 12, cacheKey=abc, author: Ann",
    ].join("\n");
    expect(redactText(text)).toBe(text);
  });

  it("masks once: already redacted text is left as it is", () => {
    const once = redactText("password: hunter2 and more\nsee postgres://a:b@c and api_key=x");
    expect(once).toBe(`password: ${REDACTED}\nsee postgres://a:${REDACTED}@c and api_key=${REDACTED}`);
    expect(redactText(once)).toBe(once);
    expect(redactText(redactText("Authorization: Bearer abcdefghijklmnop"))).toBe("Authorization: Bearer [redacted]");
  });
});

describe("hideFilePaths", () => {
  it("masks file paths in error messages, not URLs", async () => {
    const { hideFilePaths } = await import("./redact.js");
    expect(hideFilePaths("EACCES: permission denied, open '/srv/app/.june/chat/s.jsonl'")).toBe("EACCES: permission denied, open '[path]'");
    expect(hideFilePaths("ENOENT: no such file or directory, stat 'C:\\Users\\ann\\chat\\x.jsonl'")).toBe("ENOENT: no such file or directory, stat '[path]'");
    expect(hideFilePaths("at /work/app/index.js and (/tmp/x/y)")).toBe("at [path] and ([path])");
    const url = "POST https://api.openai.com/v1/responses failed: 401";
    expect(hideFilePaths(url)).toBe(url);
    expect(hideFilePaths("a/b and 1/2 stay")).toBe("a/b and 1/2 stay");
  });
});

// The shapes the second campaign found (issue 22, item 9).
const MORE_CASES: [string, string, string][] = [
  ["a digit-free sk- key", "key sk-AbCdEfGhIjKlMnOpQrStUvWxYz here", `key ${REDACTED} here`],
  ["a digit-free sk- key of exactly 20 characters", "sk-AbCdEfGhIjKlMnOpQrSt", REDACTED],
  ["an npm token", "//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 x", `//registry.npmjs.org/:_authToken=${REDACTED} x`],
  ["an npm token alone", "use npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 to publish", `use ${REDACTED} to publish`],
  ["a SendGrid key", "SG.AbCdEfGhIjKlMnOpQrStUv.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG", REDACTED],
  [
    "an Azure storage connection string",
    "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4+/Zm9vYmFy==;EndpointSuffix=core.windows.net",
    `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${REDACTED};EndpointSuffix=core.windows.net`,
  ],
  ["a key split by a line break", "key: sk-proj-AbCdEfGhIj0123\nKlMnOpQrSt4567UvWx\nnext line", `key: ${REDACTED}\nnext line`],
  ["a key split early by a line break", "sk-proj-Ab\nCdEfGhIj0123KlMnOpQrSt4567 end", `${REDACTED} end`],
  ["a GitHub token split by a CRLF", "ghp_AbCdEfGhIjKlMnOp\r\nQrStUvWxYz0123456789 end", `${REDACTED} end`],
  ["a key at a line's end, the next line kept", "GH=ghp_AbCdEfGhIjKlMnOpQrSt0123\nDEBUG=1", `GH=${REDACTED}\nDEBUG=1`],
  ["a key at a line's end, the next words kept", "My key is sk-proj-AbCdEfGhIj0123KlMnOp\nthanks for the help", `My key is ${REDACTED}\nthanks for the help`],
];

describe("the credential shapes the second campaign found", () => {
  it.each(MORE_CASES)("redactText masks %s", (_name, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it("an Azure accountKey in an object is a credential", () => {
    expect(isCredentialKey("accountKey")).toBe(true);
    expect(isCredentialKey("SharedAccessKey")).toBe(true);
    expect(redact({ accountName: "acme", accountKey: "x" })).toEqual({ accountName: "acme", accountKey: REDACTED });
  });

  // Ordinary words and code identifiers that look a little like the shapes above stay as they are.
  const ORDINARY = [
    "sk-learn",
    "Use scikit-learn (sk-learn) for it.",
    "sk-learn-compatible-estimators-and-pipelines",
    "sk-supercalifragilisticexpialidocious",
    "the sk-TransformerPipeline class",
    "npm_config_registry=https://registry.npmjs.org npm_package_version",
    "npm_lifecycle_event and npm_execpath",
    "SG.Component and SG.main.run()",
    "SG.AbCdEf.xyz",
    "AccountName=acme;EndpointSuffix=core.windows.net",
    "accountId: 12345, primaryKey: id",
    "sk-learn\nThanks a lot",
    "sk-learn\nWithTheBestRegards",
    "const skLearnModel = fit(x);\nsk_learn_model.predict(y)",
    "ThisIsAVeryLongPascalCaseIdentifierName and snake_case_identifier_names_here",
  ];
  it.each(ORDINARY)("leaves %j alone", (text) => {
    expect(redactText(text)).toBe(text);
  });
});
