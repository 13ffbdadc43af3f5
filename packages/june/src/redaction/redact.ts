/**
 * The one redaction June applies wherever data leaves the process: trace rows, HTTP responses,
 * `june sessions export` and datasets. A value is masked when its key looks like a credential, or when
 * the value itself looks like one, wherever it sits in a string.
 */

/** What a masked value becomes. */
export const REDACTED = "[redacted]";

const CIRCULAR = "[circular]";
const TOO_DEEP = "[truncated]";
const DEFAULT_MAX_DEPTH = 32;

/** Single words that make any key a credential's (`dbPassword`, `client_secret`, `set-cookie`). */
const CREDENTIAL_WORDS = new Set([
  "apikey",
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "pwd",
  "passphrase",
  "authorization",
  "cookie",
  "cookies",
  "credential",
  "credentials",
  "privatekey",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "authtoken",
  "sessiontoken",
  "bearer",
]);

/** The word before a trailing `key` that makes it a credential (`api_key`, `privateKey`, `x-api-key`). */
const KEY_QUALIFIERS = new Set(["account", "api", "private", "secret", "access", "signing", "encryption", "client", "master", "auth", "session", "license", "service", "admin", "webhook"]);

/**
 * Services whose name before a trailing `key` makes it a credential (`openaiKey`, `STRIPE_KEY`): a key named
 * after a provider holds that provider's key. Written as one word (`openai`, `huggingface`), as the words
 * before `key` join.
 */
const SERVICE_NAMES = new Set([
  "openai", "anthropic", "claude", "gemini", "google", "vertex", "azure", "aws", "gcp", "bedrock", "mistral", "cohere",
  "groq", "deepseek", "xai", "grok", "perplexity", "openrouter", "together", "fireworks", "replicate", "huggingface", "hf",
  "voyage", "elevenlabs", "tavily", "serpapi", "exa", "brave", "bing", "pinecone", "weaviate", "qdrant", "langsmith",
  "langfuse", "stripe", "paypal", "braintree", "plaid", "github", "gitlab", "bitbucket", "slack", "discord", "telegram",
  "twilio", "sendgrid", "mailgun", "mailchimp", "postmark", "resend", "supabase", "firebase", "vercel", "netlify",
  "cloudflare", "datadog", "sentry", "npm", "pypi", "heroku", "digitalocean", "linear", "notion", "airtable", "shopify",
  "algolia", "mapbox", "segment", "mixpanel", "amplitude", "posthog", "clerk", "auth0", "okta",
]);

/** Splits `apiKey`, `API_KEY`, `x-api-key`, `clientSecret2` into lower-case words. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * Whether a key names a credential: `apiKey`, `api_key`, `token`, `secret`, `password`, `authorization`,
 * `cookie`, `access_token`, `client_secret`, `private_key` and the like, in any case. Counts such as
 * `inputTokens` or `maxOutputTokens` are not credentials.
 */
export function isCredentialKey(key: string): boolean {
  const parts = words(key);
  if (parts.length === 0) return false;
  const joined = parts.join("");
  if (CREDENTIAL_WORDS.has(joined)) return true;
  const last = parts[parts.length - 1];
  // `token` singular names a credential (`githubToken`, `csrf_token`); `tokens` are counts.
  if (last === "token" || last === "auth") return true;
  if (last === "key" && parts.length >= 2) {
    if (KEY_QUALIFIERS.has(parts[parts.length - 2])) return true;
    // `openaiKey`, `OPEN_AI_KEY`, `stripeKey`: the service's name, in one or more words.
    if (SERVICE_NAMES.has(parts.slice(0, -1).join("")) || SERVICE_NAMES.has(parts[parts.length - 2])) return true;
  }
  for (let i = 0; i < parts.length; i++) {
    if (CREDENTIAL_WORDS.has(parts[i])) return true;
    if (i + 1 < parts.length && CREDENTIAL_WORDS.has(parts[i] + parts[i + 1])) return true;
  }
  return false;
}

/**
 * A key as it is written before `=` or `:` in text, when it may name a credential: an identifier (maybe
 * dotted or dashed) with one of the words credentials are named with. `isCredentialKey` then decides, so
 * `max_tokens=200` stays while `AWS_SECRET_ACCESS_KEY=…` goes.
 */
const TEXT_KEY = "[A-Za-z0-9_.-]{0,48}(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Pp][Aa][Ss][Ss]|[Pp][Ww][Dd]|[Aa][Uu][Tt][Hh]|[Cc][Oo][Oo][Kk][Ii][Ee]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll])[A-Za-z0-9_.-]{0,48}";

/** A value masked already: `[redacted]`, `"[redacted]"`, or a scheme and `[redacted]` (`Bearer [redacted]`). */
const MASKED_VALUE = /^["']?(?:\[redacted|[A-Za-z]+ \[redacted\])/;

/** Masks the value after a key that names a credential (see `isCredentialKey`); keeps anything else. */
const maskIfCredential =
  (mask: (prefix: string, value: string) => string) =>
  (match: string, prefix: string, key: string, value: string): string =>
    isCredentialKey(key) && !MASKED_VALUE.test(value) ? mask(prefix, value) : match;

/**
 * One of the words a credential's key is named with, in any case: every key pattern below needs one, and
 * ordinary prose with a `:` in it ("Question 3: what next?") has none, so their backtracking never starts.
 */
const KEY_WORD = /key|token|secret|pass|pwd|auth|cookie|credential/i;

interface TextPattern {
  needs: readonly string[];
  /** Also needed, when set: a match names its key, so the text holds a `KEY_WORD`. */
  keyWord?: true;
  pattern: RegExp;
  replace: string | ((match: string, ...groups: string[]) => string);
}

/**
 * How a token of a known shape starts (`sk-`, `ghp_`, `npm_`, `SG.` ...): a word that starts so and ends a line
 * may go on at the start of the next (a key wrapped by a line break). The stream redactor holds such a word back.
 */
const TOKEN_PREFIXES = String.raw`sk-|[sr]k_(?:live|test)_|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|ft|cbt|imt|agent|oas|soat)-|hf_|xox[a-z]-|xapp-|npm_|AIza|AKIA|ASIA|ABIA|ACCA|SG\.`;
export const TOKEN_START = new RegExp(`^(?:${TOKEN_PREFIXES})`);
/** The letters a token's prefix starts with (a cheap first test). */
const TOKEN_FIRST_CHARS = "srghxnAS";

/** Tokens of a known shape (a provider's prefix, then random characters): each becomes `[redacted]` whole. */
const TOKEN_PATTERNS: readonly TextPattern[] = [
  // OpenAI / Anthropic keys: project, service-account and admin keys (sk-proj-…, sk-ant-…, sk-svcacct-…), digits
  // or not; other sk-… keys (legacy OpenAI, DeepSeek, ...) with a digit, or of 20 or more letters in both cases
  // that do not read as words, so that `sk-learn-…`, `sk-TransformerPipeline` and the like stay.
  { needs: ["sk-"], pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: (match) => (isSkKey(match) ? REDACTED : match) },
  // Stripe-style secret and restricted keys.
  { needs: ["_live_", "_test_"], pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g, replace: REDACTED },
  // AWS access key ids.
  { needs: ["AKIA", "ASIA", "ABIA", "ACCA"], pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g, replace: REDACTED },
  // GitHub tokens (classic ghp_/gho_/ghu_/ghs_/ghr_ and fine-grained github_pat_).
  { needs: ["gh", "github_pat_"], pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, replace: REDACTED },
  // GitLab personal, deploy, runner and other tokens (glpat-…, gldt-…, glrt-…).
  { needs: ["gl"], pattern: /\bgl(?:pat|dt|rt|ptt|ft|cbt|imt|agent|oas|soat)-[A-Za-z0-9_-]{20,}/g, replace: REDACTED },
  // Hugging Face tokens.
  { needs: ["hf_"], pattern: /\bhf_[A-Za-z0-9]{30,}/g, replace: REDACTED },
  // npm access tokens (npm_ and 36 letters and digits; `npm_config_…` variables stay).
  { needs: ["npm_"], pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g, replace: REDACTED },
  // SendGrid API keys: SG.<id>.<secret>.
  { needs: ["SG."], pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{30,}/g, replace: REDACTED },
  // Slack tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxe-, xoxc-, xoxd-…) and app-level tokens (xapp-).
  { needs: ["xox", "xapp-"], pattern: /\b(?:xox[a-z]|xapp)-[A-Za-z0-9-]{10,}/g, replace: REDACTED },
  // Google API keys.
  { needs: ["AIza"], pattern: /\bAIza[0-9A-Za-z_-]{35}/g, replace: REDACTED },
];

/** The start of a token anywhere: one pass over text that has none spares `TOKEN_PATTERNS` their scans. */
const TOKEN_ANYWHERE = new RegExp(`\\b(?:${TOKEN_PREFIXES})`);
const TOKEN_PATTERN_SET: ReadonlySet<TextPattern> = new Set(TOKEN_PATTERNS);

/** The start of a line after a wrapped token: its rest, up to a space, the text's end or closing punctuation. */
const WRAPPED_TAIL = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*(?=\.?(?:\s|$)|[,;)\]}'"`>])/y;

/**
 * Masks tokens wrapped by a line break (`sk-proj-AbCd` at a line's end, `Ef12…` at the next one's start), whole,
 * line break and all, when the two halves joined are a token of a known shape and the second half does not read
 * as a word (`sk-proj-… ⏎ thanks` keeps "thanks"; `DEBUG=1` on the next line is kept too). It looks only at the
 * word before each line break, so text without tokens costs a scan for `\n`.
 */
function joinWrappedTokens(text: string): string {
  let out = "";
  let done = 0;
  for (let lineEnd = text.indexOf("\n"); lineEnd !== -1; lineEnd = text.indexOf("\n", lineEnd + 1)) {
    const headEnd = lineEnd > 0 && text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
    let headStart = headEnd;
    while (headStart > done && isTokenChar(text.charCodeAt(headStart - 1))) headStart--;
    // Only a word of 4 characters or more (the shortest prefix, `npm_`) may start a token.
    if (headEnd - headStart < 4 || !TOKEN_FIRST_CHARS.includes(text[headStart]!)) continue;
    const head = text.slice(headStart, headEnd);
    if (!TOKEN_START.test(head)) continue;
    WRAPPED_TAIL.lastIndex = lineEnd + 1;
    const tail = WRAPPED_TAIL.exec(text)?.[0];
    if (tail === undefined) continue;
    if (!/\d/.test(tail) && !isRandomLetters(tail.replace(/[_.-]/g, ""))) continue;
    if (!isOneToken(head + tail)) continue;
    out += `${text.slice(done, headStart)}${REDACTED}`;
    done = lineEnd + 1 + tail.length;
    lineEnd = done - 1;
  }
  return done === 0 ? text : out + text.slice(done);
}

/** Whether a word that starts `sk-` (and has 16 more characters) is a key. */
function isSkKey(word: string): boolean {
  if (/^sk-(?:proj|ant|svcacct|admin|live|or)-.{16}/.test(word) || /\d/.test(word)) return true;
  const letters = word.slice(3);
  return letters.length >= 20 && /^[A-Za-z]+$/.test(letters) && isRandomLetters(letters);
}

/** A letter, a digit, `_`, `-` or `.`: what a token is made of. */
function isTokenChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 45 || code === 46;
}

/** True when `text` is, whole, one token of a known shape. */
function isOneToken(text: string): boolean {
  return TOKEN_PATTERNS.some(({ needs, pattern, replace }) => {
    if (!needs.some((piece) => text.includes(piece))) return false;
    pattern.lastIndex = 0;
    const out = typeof replace === "string" ? text.replace(pattern, replace) : text.replace(pattern, replace as (m: string, ...g: string[]) => string);
    return out === REDACTED;
  });
}

/**
 * Letters in both cases that do not read as words: not `Word`, `camelCase` or `PascalCase` humps of two or more
 * lower-case letters each. A random key's letters change case every one or two characters.
 */
function isRandomLetters(letters: string): boolean {
  return /[a-z]/.test(letters) && /[A-Z]/.test(letters) && !/^[A-Za-z]?[a-z]{2,}(?:[A-Z][a-z]{2,})*$/.test(letters);
}

/**
 * Patterns for values that look like credentials wherever they sit in a string. Order matters. `needs`: text
 * that every match contains (one of them); a string with none of them is not scanned, which spares the key
 * patterns' backtracking on ordinary prose (a model chat redacts every prompt and reply excerpt it keeps).
 */
const TEXT_PATTERNS: readonly TextPattern[] = [
  // PEM private key blocks, also a block cut off before its END line.
  {
    needs: ["-----BEGIN "],
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----|$)/g,
    replace: REDACTED,
  },
  // JWTs: header.payload.signature, base64url, the header starting `{"` (eyJ).
  { needs: ["eyJ"], pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, replace: REDACTED },
  // `Bearer <token>` (Authorization headers).
  { needs: ["Bearer", "BEARER"], pattern: /\b(Bearer|BEARER)\s+[A-Za-z0-9\-._~+/]{8,}=*/g, replace: (_match, scheme) => `${scheme} ${REDACTED}` },
  ...TOKEN_PATTERNS,
  // The password in a URL's user info: `postgres://user:pass@host` keeps the user and the host.
  {
    needs: ["://"],
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@'"]*:)(?!\[redacted\]@)[^\s/?#@'"]+(?=@)/gi,
    replace: (_match, prefix) => `${prefix}${REDACTED}`,
  },
  // `"password": "…"` inside JSON text (a key that names a credential, quoted).
  {
    needs: [":"],
    keyWord: true,
    pattern: new RegExp(`("(${TEXT_KEY})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*")`, "g"),
    replace: maskIfCredential((prefix) => `${prefix}"${REDACTED}"`),
  },
  // `api_key=…`, `AWS_SECRET_ACCESS_KEY=…` in query strings, env files and command lines.
  {
    needs: ["="],
    keyWord: true,
    pattern: new RegExp(`(\\b(${TEXT_KEY})=)([^\\s&;,"'\\]})]+)`, "g"),
    replace: maskIfCredential((prefix) => `${prefix}${REDACTED}`),
  },
  // `Authorization: …` and `Cookie: …` header lines.
  {
    needs: [":"],
    keyWord: true,
    pattern: /(\b(?:proxy-)?(?:authorization|cookie|set-cookie|x-api-key)\s*:\s*)(?![ \t]*(?:\[redacted\]|Bearer \[redacted\]))[^\s'"][^\r\n'"]*/gi,
    replace: (_match, prefix) => `${prefix}${REDACTED}`,
  },
  // YAML and code: `api_key: value`, `openaiKey: "value"`, `password = 'value'` (a key that names a credential).
  {
    needs: [":", "="],
    keyWord: true,
    pattern: new RegExp(`((?:^|[\\s{,(])(${TEXT_KEY})\\s*[:=]\\s*)("[^"\\r\\n]*"|'[^'\\r\\n]*'|[^\\s"',}{)][^\\r\\n,}]*)`, "gm"),
    replace: maskIfCredential((prefix, value) => {
      const quote = value[0] === '"' || value[0] === "'" ? value[0] : "";
      return `${prefix}${quote}${REDACTED}${quote}`;
    }),
  },
];

/**
 * Masks everything in a string that looks like a credential: `sk-…` keys (including `sk-proj-`, `sk-ant-` and
 * `sk-svcacct-`), `Bearer …` tokens, JWTs, AWS access key ids, PEM private key blocks, GitHub (`ghp_`, `github_pat_`),
 * GitLab (`glpat-`), Hugging Face (`hf_`), npm (`npm_`), SendGrid (`SG.`), Slack (`xox?-`) and Google tokens (also
 * when a line break wraps one), the password of a URL
 * (`postgres://user:[redacted]@host`), and `key=value`, `"key": "value"` and `key: value` (YAML, code)
 * whose key names a credential (see `isCredentialKey`). Each becomes `[redacted]`.
 *
 * @example
 * redactText("curl -H 'Authorization: Bearer abc.def.ghi'"); // "curl -H 'Authorization: Bearer [redacted]'"
 */
export function redactText(text: string, options: TextRedactOptions = {}): string {
  let out = joinWrappedTokens(text);
  // Looked for once: a replacement (`[redacted]`) never adds a key word, nor the start of a token.
  let hasKeyWord: boolean | undefined;
  const hasToken = TOKEN_ANYWHERE.test(out);
  for (const entry of TEXT_PATTERNS) {
    const { needs, keyWord, pattern, replace } = entry;
    if (!hasToken && TOKEN_PATTERN_SET.has(entry)) continue;
    if (!needs.some((piece) => out.includes(piece))) continue;
    if (keyWord && !(hasKeyWord ??= KEY_WORD.test(out))) continue;
    pattern.lastIndex = 0;
    out = typeof replace === "string" ? out.replace(pattern, replace) : out.replace(pattern, replace as (m: string, ...g: string[]) => string);
  }
  for (const pattern of options.patterns ?? []) out = out.replace(globalCopy(pattern), REDACTED);
  return out;
}

/** What `redactText` takes: patterns of your own, masked after June's. */
export interface TextRedactOptions {
  /**
   * Credentials of your own shape (an internal token format, a customer id): every match becomes
   * `[redacted]`, after June's patterns. Give them to the surfaces (`createChatHandler({ redact })`,
   * `serveStudio({ handler: { redact } })`, the CLI's `JUNE_REDACT`), which pass them here.
   */
  patterns?: readonly RegExp[];
}

const GLOBAL_COPIES = new WeakMap<RegExp, RegExp>();

/** `pattern` with the `g` flag (a copy when it lacks it), so that every match is masked. */
function globalCopy(pattern: RegExp): RegExp {
  if (!(pattern instanceof RegExp)) throw new TypeError("redact: `patterns` must be regular expressions");
  if (pattern.global) {
    pattern.lastIndex = 0;
    return pattern;
  }
  let copy = GLOBAL_COPIES.get(pattern);
  if (!copy) {
    copy = new RegExp(pattern.source, `${pattern.flags}g`);
    GLOBAL_COPIES.set(pattern, copy);
  }
  return copy;
}

/** What a file path in an error message becomes. */
export const PATH_MASK = "[path]";

// An absolute POSIX path of two or more segments (`/srv/app/.june/chat/s.jsonl`) or a Windows path (`C:\\x\\y`),
// starting where a path starts in a message: at its start, after a space, a quote, `(`, `=` or `:`.
const FILE_PATH = /(^|[\s'"(=:`])(?:\/(?:[\w.@+~-]+\/)+[\w.@+~-]*|[A-Za-z]:\\(?:[\w.@+~ -]+\\)*[\w.@+~-]*)/g;

/**
 * Masks the file paths in an error message (`EACCES: permission denied, open '/srv/app/.june/chat/s.jsonl'`
 * becomes `... open '[path]'`), for errors that leave the process: where a server keeps its files is not the
 * client's business. URLs keep their paths (`https://host/v1/x`).
 */
export function hideFilePaths(message: string): string {
  return message.replace(FILE_PATH, (_match, before: string) => `${before}${PATH_MASK}`);
}

/** Options for `redact`. */
export interface RedactOptions extends TextRedactOptions {
  /** Nesting past this depth becomes `"[truncated]"` (default 32). */
  maxDepth?: number;
}

/**
 * Returns a copy of `value` with credentials masked as `"[redacted]"`: any value whose key looks like a
 * credential (see `isCredentialKey`), at any depth, in objects, arrays, `Map`s and `Set`s, and every
 * credential-looking piece of every string (see `redactText`). Cycles become `"[circular]"`, nesting past
 * `maxDepth` becomes `"[truncated]"`. Errors become `{ name, message, ... }`; objects with `toJSON` are
 * redacted as their JSON form; class instances as plain objects of their own enumerable fields. The input
 * is never changed.
 *
 * @example
 * redact({ headers: { Authorization: "Bearer abc" }, note: "key sk-proj-0123456789abcdefghij" });
 * // { headers: { Authorization: "[redacted]" }, note: "key [redacted]" }
 */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const text = options.patterns === undefined ? {} : { patterns: options.patterns };
  return walk(value, new WeakSet<object>(), 0, maxDepth, text) as T;
}

function walk(value: unknown, ancestors: WeakSet<object>, depth: number, maxDepth: number, text: TextRedactOptions): unknown {
  switch (typeof value) {
    case "string":
      return redactText(value, text);
    case "number":
    case "boolean":
    case "bigint":
    case "undefined":
    case "symbol":
    case "function":
      return value;
    case "object":
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Date || ArrayBuffer.isView(object) || object instanceof ArrayBuffer || object instanceof RegExp) return object;
  if (ancestors.has(object)) return CIRCULAR;
  if (depth >= maxDepth) return TOO_DEEP;
  ancestors.add(object);
  try {
    const next = (child: unknown) => walk(child, ancestors, depth + 1, maxDepth, text);
    const entry = (key: unknown, child: unknown) =>
      typeof key === "string" && isCredentialKey(key) && child !== null && child !== undefined ? REDACTED : next(child);

    if (Array.isArray(object)) return object.map(next);
    if (object instanceof Map) {
      const out = new Map<unknown, unknown>();
      for (const [key, child] of object) out.set(typeof key === "string" ? redactText(key, text) : next(key), entry(key, child));
      return out;
    }
    if (object instanceof Set) {
      const out = new Set<unknown>();
      for (const child of object) out.add(next(child));
      return out;
    }
    if (object instanceof Error) {
      const out: Record<string, unknown> = { name: object.name, message: redactText(object.message, text) };
      for (const [key, child] of Object.entries(object)) out[key] = entry(key, child);
      if (object.cause !== undefined) out.cause = next(object.cause);
      return out;
    }
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      let json: unknown;
      try {
        json = toJSON.call(object);
      } catch {
        return "[unserializable]";
      }
      if (json !== object) return walk(json, ancestors, depth, maxDepth, text);
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(object)) out[key] = entry(key, child);
    return out;
  } finally {
    ancestors.delete(object);
  }
}
