// The model port each profile's invocations use (SPEC §11, §13), composed from the outside in:
//   --replay         the journal's answers, and nothing else (a miss is an AIError)
//   --replay=fill    the journal's answers; a miss goes on to the live model and is recorded
//   otherwise        the live model, recorded in the journal when it is on
// and the live model is always metered: the run's one budget admits or refuses each HTTP request
// before it is sent, and prices it by its route once it has ended.

import type { ProfileSettings } from "../config/index.js";
import type { ModelPort } from "../model-port.js";
import type { RunBudget } from "../observe/budget.js";
import type { JournalSession } from "../observe/journal-session.js";
import { meteredModel } from "../observe/metered-model.js";
import { recordingModel } from "../observe/recording-model.js";
import { replayingModel } from "../observe/replaying-model.js";

export interface ModelWiring {
  session: JournalSession | null;
  replay: false | "strict" | "fill";
  budget: RunBudget;
  /** Names a block's file for messages. */
  shown: (file: string) => string;
}

export function profileModel(profile: ProfileSettings, live: () => ModelPort, wiring: ModelWiring): ModelPort {
  const { session, replay, budget, shown } = wiring;
  const route = { id: profile.routes[0].id, model: profile.routes[0].model };
  const prices = new Map(profile.routes.map((r) => [r.id, r.price]));
  const metered = () => meteredModel(live(), (id) => prices.get(id) ?? null, budget);
  const recorded = () => (session && profile.journal ? recordingModel(metered(), route, (exchange) => session.recordExchange(exchange)) : metered());
  if (replay && session) {
    const source = { lookup: (key: string) => session.lookup(key), candidates: (block: string) => session.candidates(block) };
    return replayingModel(route, source, shown, replay === "fill" ? recorded() : null);
  }
  return recorded();
}
