export { scriptedModel } from "./scripted-model.js";
export type {
  Script,
  ScriptCall,
  ScriptCallInfo,
  ScriptDelta,
  ScriptEntry,
  ScriptToolCall,
  ScriptedModel,
  ScriptedModelOptions,
} from "./scripted-model.js";
