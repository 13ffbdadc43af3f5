export { JuneError } from "./june-error.js";
export { GuardrailTrippedError, type GuardrailStage } from "./guardrail-tripped-error.js";
