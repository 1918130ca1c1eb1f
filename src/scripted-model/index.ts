// The scripted model's surface for the run's composition: the port and the early check of its
// rules files.

export { checkRulesFiles } from "./load-rules.js";
export { scriptedModel, type ScriptedRoute } from "./scripted-port.js";
