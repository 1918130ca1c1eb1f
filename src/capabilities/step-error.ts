// The error of a capability step that is the plan's fault, not the service's (SPEC §10): the
// step fails with its message, and the model reads it as the plan step's result.

/** A handler's run failed in a way that is the plan's fault (bad input, missing index): a step error. */
export class StepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StepError";
  }
}
