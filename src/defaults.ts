// Behaviour-changing defaults of the host, in one place.

/** How long a child that ignores a relayed SIGTERM/SIGHUP gets before SIGKILL. */
export const KILL_GRACE_MS = Number(process.env.AIYTHON_KILL_GRACE_MS) > 0 ? Number(process.env.AIYTHON_KILL_GRACE_MS) : 5000;

/** How long the host waits for the interpreter to report a SIGINT before relaying one itself. */
export const SIGINT_NOTICE_WAIT_MS = 100;

/** Signals that end a run without a message: the user or the system asked for it. */
export const QUIET_SIGNALS: ReadonlySet<string> = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE"]);
