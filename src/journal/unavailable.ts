// The one error of opening the journal (SPEC §11): its message says what is wrong and what to
// do; callers turn it into a warning and run on without a journal.

export class JournalUnavailableError extends Error {
  constructor(
    message: string,
    /** "read-only": it could not be opened for writing (a reader may still read it). */
    readonly reason: "read-only" | "other" = "other",
  ) {
    super(message);
    this.name = "JournalUnavailableError";
  }
}
