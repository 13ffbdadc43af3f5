/**
 * Starts the Copy Agent on 127.0.0.1: the API from `createCopyAgent` and the UI, either built
 * (`npm start`: dist/web) or live from source through Vite (`npm run dev`).
 *
 *   npm run dev                                      # offline models, http://127.0.0.1:5180
 *   COPY_AGENT_MODEL=openai:gpt-5-mini npm run dev   # every agent on a real model (OPENAI_API_KEY)
 *
 * Settings (environment): COPY_AGENT_MODEL (see model-setting.ts), PORT (default 5180; 0 picks a free one),
 * COPY_AGENT_DATA (default .copy-agent). `--dev` serves the UI through Vite.
 */
import { fileURLToPath } from "node:url";
import { toNodeListener, type NodeListener } from "june/server";
import { createCopyAgent } from "./copy-agent.js";
import { MODEL_SETTING, modelFromSetting } from "./model-setting.js";
import { serveCopyAgent } from "./serve.js";
import { staticFiles } from "./static-files.js";

const appDir = fileURLToPath(new URL("../../", import.meta.url));

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  const model = await modelFromSetting(process.env[MODEL_SETTING]);
  const app = createCopyAgent({ dataDir: process.env.COPY_AGENT_DATA ?? ".copy-agent", model });

  // `npm run dev`: the UI from source through Vite's middleware, its hot-reload socket on this same server.
  let viteMiddleware: NodeListener | undefined;
  const ui: NodeListener = dev
    ? (req, res) => (viteMiddleware ? viteMiddleware(req, res) : res.writeHead(503).end("Starting Vite…"))
    : toNodeListener(staticFiles(`${appDir}dist/web`));
  const running = await serveCopyAgent({ api: app.handler, ui, port: Number(process.env.PORT ?? 5180), onError: (error) => console.error(error) });
  if (dev) {
    const { createServer } = await import("vite");
    const vite = await createServer({
      configFile: `${appDir}vite.config.ts`,
      server: { middlewareMode: true, hmr: { server: running.server } },
      appType: "spa",
    });
    viteMiddleware = (req, res) => vite.middlewares(req, res);
    running.server.once("close", () => void vite.close());
  }
  console.log(`Copy Agent on ${running.url} (${model ? `model ${process.env[MODEL_SETTING]}` : "offline models"})`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
