/** A subpath of June: the built package (`june/<subpath>`), or the same subpath of another build's `dist/`. */
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Imports `june/<subpath>`, or with `packageDir` (a June package directory holding `dist/`, such as a copy of
 * an older build) that build's `dist/<subpath>/index.js`: before/after runs load both builds the same way.
 */
export function juneModule(subpath, packageDir) {
  if (!packageDir) return import(`june/${subpath}`);
  return import(pathToFileURL(join(packageDir, "dist", subpath, "index.js")).href);
}
