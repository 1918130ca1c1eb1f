// Whether a SIGINT the host receives came from its terminal (SPEC §2, §4.1). Ctrl-C at a terminal
// reaches the whole foreground process group, the interpreter with it, so the host relays nothing;
// a SIGINT sent to aiython alone must be relayed. The interpreter reports nothing itself: the
// signal wakeup fd is the program's (trio, asyncio), so the host judges by where it stands — in
// the foreground process group of its controlling terminal (Linux: /proc/self/stat's pgrp, tty_nr
// and tpgid), or, where that cannot be read, with a terminal on one of its standard streams.

import fs from "node:fs";

/** True when the host is in the foreground process group of its controlling terminal. */
export function inTerminalForeground(): boolean {
  const stat = readStat();
  if (stat === null) return Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  // After the command's name (in parentheses, which may hold spaces): state ppid pgrp session tty_nr tpgid …
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [pgrp, ttyNr, tpgid] = [Number(fields[2]), Number(fields[4]), Number(fields[5])];
  return ttyNr !== 0 && tpgid === pgrp;
}

function readStat(): string | null {
  try {
    return fs.readFileSync("/proc/self/stat", "utf8");
  } catch {
    return null;
  }
}
