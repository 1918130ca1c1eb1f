// The scripted model's surface for the run's composition: the port, the early check of its rules
// files, and the variable `aiython eval` numbers its runs with.

export { checkRulesFiles } from "./load-rules.js";
export { EVAL_RUN_ENV, scriptedModel, type ScriptedRoute } from "./scripted-port.js";
