import { createElement, type ElementType, type JuneElement } from "./element.js";

export { Fragment, jsx, jsxs } from "./jsx-runtime.js";
export type { JSX } from "./jsx-runtime.js";

export function jsxDEV(type: ElementType, props: Record<string, unknown> | null, key?: string): JuneElement {
  return createElement(type, props, key);
}
