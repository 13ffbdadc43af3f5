/**
 * `june/studio`: serves June Studio (the built web app and a chat handler under `/api`) for one chat, as
 * `june studio` does. Its own entry point, apart from `june/server`, because it reads the app's files from
 * the package's `studio-dist` directory, which a bundler cannot follow.
 */
export { DEFAULT_STUDIO_DIR, serveStudio } from "../server/serve-studio.js";
export type { ServeStudioOptions, StudioServer } from "../server/serve-studio.js";
