// The processes a program started, for ending all of them (SPEC §9: `--time-limit` ends the
// program and every process it started). The interpreter is in the caller's process group (it
// owns the terminal, so Ctrl-C and `input()` work as under python3), so its workers cannot be
// told apart by group: they are found as its descendants, from /proc on Linux (each process's
// parent) or from `ps` elsewhere. A process is remembered with its start time, so a worker
// orphaned when the interpreter died (its parent is then init) is still ended, and a process id
// the system has handed to someone else since is never signalled.

import { execFileSync } from "node:child_process";
import fs from "node:fs";

interface Member {
  pid: number;
  started: string;
}

interface Row {
  pid: number;
  ppid: number;
  started: string;
}

export class ProcessTree {
  private readonly members = new Map<number, Member>();

  constructor(root: number) {
    const row = table().find((entry) => entry.pid === root);
    this.members.set(root, { pid: root, started: row?.started ?? "" });
  }

  /** Sends `signal` to every member still alive, after taking in the descendants found now. */
  signal(signal: NodeJS.Signals): void {
    this.grow();
    for (const member of this.members.values()) {
      try {
        process.kill(member.pid, signal);
      } catch {
        // gone already
      }
    }
  }

  /** Whether any member is still alive. */
  alive(): boolean {
    this.grow();
    return this.members.size > 0;
  }

  /** Ends every member as by SIGTERM, then by SIGKILL those still alive after `graceMs` (SPEC §9). */
  async end(graceMs: number): Promise<void> {
    this.signal("SIGTERM");
    const until = Date.now() + graceMs;
    while (this.alive() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    this.signal("SIGKILL");
  }

  /** Adds the descendants of every member, and forgets members that are gone (or reused). */
  private grow(): void {
    const rows = table();
    const current = new Map(rows.map((row) => [row.pid, row]));
    for (const [pid, member] of this.members) {
      const row = current.get(pid);
      if (!row || (member.started !== "" && row.started !== member.started) || row.started === "zombie") this.members.delete(pid);
    }
    let added = true;
    while (added) {
      added = false;
      for (const row of rows) {
        if (!this.members.has(row.pid) && this.members.has(row.ppid) && row.started !== "zombie") {
          this.members.set(row.pid, { pid: row.pid, started: row.started });
          added = true;
        }
      }
    }
  }
}

/** Every process: its id, its parent's, and when it started ("zombie" for one that has ended). */
function table(): Row[] {
  try {
    return procTable();
  } catch {
    return psTable();
  }
}

function procTable(): Row[] {
  const rows: Row[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended while we looked
    }
    // `pid (comm) state ppid … starttime …`: comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    rows.push({ pid: Number(name), ppid: Number(fields[1]), started: fields[0] === "Z" ? "zombie" : fields[19] });
  }
  return rows;
}

function psTable(): Row[] {
  const text = execFileSync("ps", ["-A", "-o", "pid=,ppid=,lstart=,stat="], { encoding: "utf8" });
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length >= 3)
    .map((parts) => ({ pid: Number(parts[0]), ppid: Number(parts[1]), started: parts.at(-1)?.startsWith("Z") ? "zombie" : parts.slice(2, -1).join(" ") }));
}
