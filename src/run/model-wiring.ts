// The model port each profile's invocations use (SPEC §11, §13), composed from the outside in:
//   --replay         the journal's answers, and nothing else (a miss is an AIError; a recheck is told of the first)
//   --replay=fill    the journal's answers; a miss goes on to the live model and is recorded (also resume)
//   otherwise        the live model, recorded in the journal when it is on
// and the live model is always metered: the run's one budget admits or refuses each HTTP request
// before it is sent, and prices it by its route once it has ended. The code of these layers (and
// the journal's request keys, with node:crypto; and the journal's own code and SQLite, when it
// records) loads when a profile's port is first made, which is at the first block, or when a plan
// with blocks warms the client up.

import type { ProfileSettings } from "../config/index.js";
import type { ModelPort } from "../model-port.js";
import type { RunBudget } from "../observe/budget.js";
import type { JournalSession } from "../observe/journal-session.js";
import type { ReplayChoice, ReplayMiss } from "./run-command.js";

export interface ModelWiring {
  session: JournalSession | null;
  replay: ReplayChoice | null;
  budget: RunBudget;
  /** Names a block's file for messages. */
  shown: (file: string) => string;
  /** `aiython recheck` (SPEC §11.3): told of each request the recording cannot answer. */
  missed?: (miss: ReplayMiss) => void;
}

export function profileModel(profile: ProfileSettings, live: () => ModelPort, wiring: ModelWiring): ModelPort {
  return loadedPort(layers(profile, wiring).then((loaded) => composed(profile, live, wiring, loaded)));
}

type Layers = Awaited<ReturnType<typeof layers>>;

/** The layers this profile's port is made of: no journal code (nor node:crypto) when nothing is recorded or replayed. */
async function layers(profile: ProfileSettings, { session, replay }: ModelWiring) {
  const records = session !== null && profile.journal;
  const replays = session !== null && replay !== null;
  if (records) session.warmUp(); // SQLite loads while the program runs up to its first block
  const [{ meteredModel }, recording, replaying] = await Promise.all([
    import("../observe/metered-model.js"),
    records ? import("../observe/recording-model.js") : null,
    replays ? import("../observe/replaying-model.js") : null,
  ]);
  return { meteredModel, recordingModel: recording?.recordingModel, replayingModel: replaying?.replayingModel };
}

function composed(profile: ProfileSettings, live: () => ModelPort, wiring: ModelWiring, { meteredModel, recordingModel, replayingModel }: Layers): ModelPort {
  const { session, replay, budget, shown, missed } = wiring;
  const route = { id: profile.routes[0].id, model: profile.routes[0].model };
  const prices = new Map(profile.routes.map((r) => [r.id, r.price]));
  let meteredPort: ModelPort | null = null;
  const metered = () => (meteredPort ??= meteredModel(live(), (id) => prices.get(id) ?? null, budget));
  const recorded = (counted: { key: string; occurrence: number } | null = null) =>
    session && profile.journal && recordingModel ? recordingModel(metered(), route, session, counted) : metered();
  if (replay && session && replayingModel) {
    const source = {
      answer: (key: string) => session.answer(key),
      candidates: (block: string) => session.candidates(block),
      replayed: (exchange: Parameters<JournalSession["replayed"]>[0]) => session.replayed(exchange),
      missed,
    };
    return replayingModel(route, source, shown, replay.fill ? recorded : null);
  }
  return recorded();
}

/** A port whose code is still loading (it began when the port was made); calls wait for it, and once it has loaded they go straight to it. */
function loadedPort(loading: Promise<ModelPort>): ModelPort {
  let loaded: ModelPort | null = null;
  loading.then(
    (port) => (loaded = port),
    () => undefined,
  );
  return { complete: async (request, options) => (loaded ?? (await loading)).complete(request, options) };
}
