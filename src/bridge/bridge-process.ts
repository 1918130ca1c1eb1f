// The bridge child process: the interpreter that runs a program, the console, or the compile
// oracle (docs/architecture.md lists the spawners), started by spawn-interpreter.ts, here or by
// bin/aiython's first file before the CLI loads (then adopted as it is). The program inherits fds
// 0–2; fd 3 is the control channel (docs/protocol.md). The host's
// first messages are sent right after spawning, without waiting for `hello`, so a plain run costs
// one process start and no extra round trip.

import type { ChildProcess } from "node:child_process";
import type { Duplex } from "node:stream";
import { InternalError, type ProtocolError, UsageError } from "../errors.js";
import { Channel } from "./channel.js";
import { describeChoice, type InterpreterChoice } from "./interpreter.js";
import { ProcessTree } from "./process-tree.js";
import { spawnInterpreter, type SpawnOptions } from "./spawn-interpreter.js";
import {
  MIN_PYTHON,
  PROTOCOL_VERSION,
  type BridgeMessage,
  type CheckpointsRequest,
  type CompileRequest,
  type ErrorInfo,
  type FatalMessage,
  type HelloMessage,
  type HostMessage,
  type PythonInfo,
  type RequestValues,
} from "./protocol.js";

/** The answer to a host request, with its value typed by the request. */
export type RequestResult<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export interface BridgeEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  fatal: FatalMessage | null;
  protocolError: ProtocolError | null;
  /** The program ended with an uncaught AIBudgetError (the bridge's `exit`, SPEC §13). */
  budgetExhausted?: boolean;
}

export interface BridgeOptions extends SpawnOptions {
  handlers?: BridgeHandlers;
  /** Signals the host inherited as ignored: the bridge ignores them too (docs/protocol.md `init`). */
  ignoredSignals?: readonly number[];
  /** The interpreter, already started by spawnInterpreter with these options (bin/aiython's first file does). */
  child?: ChildProcess;
}

export interface BridgeHandlers {
  /** pause / pause_end / op results / plan requests: everything that is not a reply to the host. */
  onMessage?(message: BridgeMessage): void;
}

export class BridgeProcess {
  readonly child: ChildProcess;
  readonly hello: Promise<PythonInfo>;
  readonly ended: Promise<BridgeEnd>;
  /** Where messages that are not replies go; may be set after the process is started. */
  handlers: BridgeHandlers;
  private readonly channel: Channel;
  private readonly pending = new Map<string, (result: RequestResult<unknown>) => void>();
  private nextId = 0;
  private fatal: FatalMessage | null = null;
  private protocolError: ProtocolError | null = null;
  private budgetExhausted = false;
  private settleHello!: { resolve: (info: PythonInfo) => void; reject: (error: Error) => void };

  constructor(
    private readonly choice: InterpreterChoice,
    bridgeDir: string,
    options: BridgeOptions = {},
  ) {
    this.handlers = options.handlers ?? {};
    this.child = options.child ?? spawnInterpreter(choice.command, bridgeDir, options);
    this.hello = new Promise((resolve, reject) => {
      this.settleHello = { resolve, reject };
    });
    this.hello.catch(() => undefined);
    this.channel = new Channel(this.child.stdio[3] as Duplex, {
      message: (message) => this.receive(message),
      violation: (error) => {
        this.protocolError = error;
        this.child.kill("SIGKILL");
      },
    });
    this.ended = this.whenEnded();
    this.send({ type: "init", protocol: PROTOCOL_VERSION, ignored_signals: [...(options.ignoredSignals ?? [])] });
  }

  send(message: HostMessage): void {
    this.channel.send(message);
  }

  /** Send a request (an id is added) and wait for its `result`. */
  request(message: Omit<CompileRequest, "id">): Promise<RequestResult<RequestValues["compile"]>>;
  request(message: Omit<CheckpointsRequest, "id">): Promise<RequestResult<RequestValues["checkpoints"]>>;
  request(message: Omit<CompileRequest, "id"> | Omit<CheckpointsRequest, "id">): Promise<RequestResult<unknown>> {
    const id = `h${++this.nextId}`;
    return new Promise((resolve) => {
      this.pending.set(id, resolve as (result: RequestResult<unknown>) => void);
      this.send({ ...message, id });
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Ends the control channel: a bridge that has not started a program exits quietly. */
  close(): void {
    this.channel.end();
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** The interpreter and every process it started (SPEC §9), as they are now; null once it has ended. */
  tree(): ProcessTree | null {
    return this.running && this.child.pid !== undefined ? new ProcessTree(this.child.pid) : null;
  }

  private receive(message: BridgeMessage): void {
    switch (message.type) {
      case "hello":
        return this.greeted(message);
      case "result": {
        const waiter = message.pause === undefined ? this.pending.get(message.id) : undefined;
        if (!waiter) return this.handlers.onMessage?.(message);
        this.pending.delete(message.id);
        return waiter(message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error });
      }
      case "fatal":
        this.fatal = message;
        return;
      case "exit":
        this.budgetExhausted = message.budget === true;
        return; // the exit status comes with the process's end
      default:
        this.handlers.onMessage?.(message);
    }
  }

  /** The handshake: the same protocol, and a Python that is new enough (SPEC §2). */
  private greeted(message: HelloMessage): void {
    if (message.protocol !== PROTOCOL_VERSION) {
      return this.settleHello.reject(new InternalError(`the bridge speaks protocol ${message.protocol}, the host ${PROTOCOL_VERSION}`));
    }
    const [major, minor] = message.python.version_info;
    if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
      return this.settleHello.reject(
        new UsageError(
          `Python ${message.python.version} at ${message.python.executable} is too old: aiython needs Python ${MIN_PYTHON.join(".")} or newer (choose one with --python PATH or AIYTHON_PYTHON)`,
        ),
      );
    }
    this.settleHello.resolve(message.python);
  }

  private whenEnded(): Promise<BridgeEnd> {
    return new Promise((resolve) => {
      let spawnError = false;
      this.child.on("error", (error: NodeJS.ErrnoException) => {
        spawnError = true;
        this.settleHello.reject(spawnFailure(this.choice, error));
        resolve({ code: null, signal: null, fatal: null, protocolError: null });
      });
      this.child.on("close", (code, signal) => {
        if (spawnError) return;
        // After anything the channel still has to deliver (a `hello` naming an old Python wins).
        setImmediate(() => this.settleHello.reject(new UsageError(`${describeChoice(this.choice)} did not start as a Python interpreter (exit status ${code ?? signal})`)));
        for (const waiter of this.pending.values()) waiter({ ok: false, error: { type: "bridge_exited", message: "the Python process ended" } });
        this.pending.clear();
        resolve({ code, signal, fatal: this.fatal, protocolError: this.protocolError, budgetExhausted: this.budgetExhausted });
      });
    });
  }
}

function spawnFailure(choice: InterpreterChoice, error: NodeJS.ErrnoException): UsageError {
  return error.code === "ENOENT"
    ? new UsageError(`Python interpreter ${describeChoice(choice)} not found: install Python ${MIN_PYTHON.join(".")}+ or choose one with --python PATH or AIYTHON_PYTHON`)
    : new UsageError(`cannot start Python interpreter ${describeChoice(choice)}: ${error.message}`);
}
