import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The UI (web/), built into dist/web, which `npm start` serves; `npm run dev` serves it through Vite.
// june-design-system's `june-source` export is its TypeScript source: the app builds it with its own code.
export default defineConfig({
  root: here("web"),
  base: "/",
  plugins: [react()],
  resolve: { conditions: ["june-source", ...defaultClientConditions] },
  build: { outDir: here("dist/web"), emptyOutDir: true },
});
