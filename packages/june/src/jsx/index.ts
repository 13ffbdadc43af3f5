export { createElement, isElement, Fragment, ELEMENT } from "./element.js";
export type { JuneElement, JuneNode, ElementType, RenderFunction } from "./element.js";
