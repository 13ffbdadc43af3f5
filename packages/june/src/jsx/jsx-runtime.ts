import { createElement, Fragment, type ElementType, type JuneElement, type JuneNode } from "./element.js";

export { Fragment };
export type { JuneElement, JuneNode };

/** The automatic JSX runtime's factory; `jsx`, `jsxs` and `jsxDEV` are the same function. */
export function jsx(type: ElementType, props: Record<string, unknown> | null, key?: string): JuneElement {
  return createElement(type, props, key);
}
export const jsxs = jsx;

// eslint-disable-next-line @typescript-eslint/no-namespace
export namespace JSX {
  export type Element = JuneElement<any>;
  export interface ElementChildrenAttribute {
    children: {};
  }
  // June has no intrinsic (lower-case) elements: every tag is a component.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface IntrinsicElements {}
  export interface IntrinsicAttributes {
    key?: string | number;
  }
  // Components may return an element, an array, null or a render function.
  export type ElementType = string | ((props: any) => JuneNode);
}
