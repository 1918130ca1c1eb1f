// A file `aiython setup` cannot write — a read-only file system, a folder without write
// permission (or an immutable one), a full disk — is one message naming the file, the reason and
// what to do, with exit status 1, like a failed --check. It used to end as `internal error:
// EROFS` (exit 70). Other errors are bugs and still go up.

import type { RunOutcome } from "../errors.js";

const REASONS: Record<string, string> = {
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
};

/** Runs `write`; a write the system refused becomes the outcome to end setup with, else null. */
export function writeFailure(write: () => void, shown: string, whatNow: string): RunOutcome | null {
  try {
    write();
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !(code in REASONS)) throw error;
    return { kind: "status", status: 1, message: `setup: cannot write ${shown}: ${REASONS[code]} (${code}); ${whatNow}` };
  }
}
