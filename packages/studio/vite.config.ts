import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * For `npm run dev`: a running `june studio` to send `/api` to, e.g.
 * `JUNE_STUDIO_URL=http://127.0.0.1:4321 npm run dev -w june-studio`, then open the dev page with
 * `?token=` and that Studio's token.
 */
const devApi = process.env.JUNE_STUDIO_URL;

// The build ships inside the `june` package, which serves it under `june studio`; `base: "./"` keeps every
// asset URL relative, so the app works under any path the server mounts it at.
export default defineConfig({
  root: here("."),
  base: "./",
  plugins: [react()],
  // june-design-system's `june-source` export is its TypeScript source: Studio builds it with its own code.
  resolve: { conditions: ["june-source", ...defaultClientConditions] },
  build: {
    outDir: here("../june/studio-dist"),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: devApi
    ? {
        proxy: {
          "/api": {
            target: devApi,
            changeOrigin: true,
            // Studio refuses cross-origin requests; the dev page's origin is the dev server's, so drop it.
            configure: (proxy) => proxy.on("proxyReq", (request) => request.removeHeader("origin")),
          },
        },
      }
    : undefined,
});
