// The journal's record of tool calls with effects (SPEC §11.2), as the tool loop sees it
// (invocation/ports.ts EffectJournalPort): the intent of each is written before it runs and its
// end after, so that a run cut short in between leaves it uncertain. In a resumed run, a replayed
// answer's call that the resumed run started and never saw end does not run again: the model is
// told why, and the journal records it as uncertain (`aiython resume` has named it on stderr).

import type { EffectJournalPort } from "../invocation/ports.js";
import type { JournalSession } from "../observe/journal-session.js";

export function effectJournal(session: JournalSession): EffectJournalPort {
  return {
    async starting({ tool, callId, block, exchange }) {
      if (exchange === undefined) return { run: true, ended: () => undefined }; // an answer the journal does not keep
      const effect = { exchangeSeq: exchange.seq, callId, tool, block };
      if (await session.isUncertain(exchange.from, callId)) {
        session.effectUncertain(effect);
        return {
          run: false,
          message:
            `this ${tool} call was started by run ${exchange.from?.run}, which ended before it did, so it may have had its effects already; ` +
            "aiython does not run it again: check the program's state and go on from there",
        };
      }
      const id = await session.effectStarting(effect);
      return { run: true, ended: () => id !== null && session.effectEnded(id) };
    },
  };
}
