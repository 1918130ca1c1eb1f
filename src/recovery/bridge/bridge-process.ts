// The bridge child process: the only place that spawns the interpreter. The program inherits
// fds 0–2; fd 3 is the control channel and fd 4 carries signal notices (docs/protocol.md). The
// host's first messages are sent right after spawning, without waiting for `hello`, so a plain
// run costs one process start and no extra round trip.

import { spawn, type ChildProcess } from "node:child_process";
import type { Duplex } from "node:stream";
import { InternalError, ProtocolError, UsageError } from "../../errors.js";
import { Channel } from "./channel.js";
import { describeChoice, type InterpreterChoice } from "./interpreter.js";
import { type BridgeMessage, type HostMessage, MIN_PYTHON, PROTOCOL_VERSION, type PythonInfo } from "./protocol.js";

type Result = Extract<BridgeMessage, { type: "result" }>;
type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;

export interface BridgeEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  endOfStream: boolean;
  exitMessage: Extract<BridgeMessage, { type: "exit" }> | null;
  fatal: Extract<BridgeMessage, { type: "fatal" }> | null;
  protocolError: ProtocolError | null;
}

export interface BridgeOptions {
  handlers?: BridgeHandlers;
  env?: NodeJS.ProcessEnv;
  inspect?: boolean;
  /** "ignore" for helper processes that never run a program (the oracle behind --explain). */
  stdin?: "inherit" | "ignore";
}

export interface BridgeHandlers {
  /** pause / pause_end / pause results / plan requests: everything that is not a reply to the host. */
  onMessage?(message: BridgeMessage): void;
}

const SIGINT_NUMBER = 2;

export class BridgeProcess {
  readonly child: ChildProcess;
  readonly hello: Promise<PythonInfo>;
  readonly ended: Promise<BridgeEnd>;
  /** Time (ms) the interpreter last reported receiving SIGINT, 0 if never. */
  lastSigintNotice = 0;
  private readonly channel: Channel;
  private readonly pending = new Map<string, (result: Result) => void>();
  private nextId = 0;
  private exitMessage: BridgeEnd["exitMessage"] = null;
  private fatal: BridgeEnd["fatal"] = null;
  private protocolError: ProtocolError | null = null;
  private sigintWaiters: (() => void)[] = [];

  /** Where messages that are not replies go; may be set after the process is started. */
  handlers: BridgeHandlers;

  constructor(choice: InterpreterChoice, bridgeDir: string, options: BridgeOptions = {}) {
    this.handlers = options.handlers ?? {};
    const boot = `__import__('sys').path.insert(0, ${JSON.stringify(bridgeDir)});__import__('aiython_bridge.boot').boot.main()`;
    // `-i` is passed to the interpreter itself, so the console after the program, sys.flags and
    // SystemExit under -i behave exactly as with `python3 -i`.
    const args = options.inspect ? ["-i", "-c", boot] : ["-c", boot];
    this.child = spawn(choice.command, args, {
      stdio: [options.stdin ?? "inherit", "inherit", "inherit", "pipe", "pipe"],
      env: options.env ?? process.env,
    });
    const control = this.child.stdio[3] as Duplex;
    const notices = this.child.stdio[4] as Duplex;

    let resolveHello!: (info: PythonInfo) => void;
    let rejectHello!: (error: Error) => void;
    this.hello = new Promise((resolve, reject) => {
      resolveHello = resolve;
      rejectHello = reject;
    });
    this.hello.catch(() => undefined);

    this.channel = new Channel(control, {
      message: (message) => {
        switch (message.type) {
          case "hello": {
            if (message.protocol !== PROTOCOL_VERSION) {
              rejectHello(new InternalError(`the bridge speaks protocol ${message.protocol}, the host ${PROTOCOL_VERSION}`));
              return;
            }
            const [major, minor] = message.python.version_info;
            if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
              rejectHello(new UsageError(
                `Python ${message.python.version} at ${message.python.executable} is too old: aiython needs Python ${MIN_PYTHON.join(".")} or newer (choose one with --python PATH or AIYTHON_PYTHON)`,
              ));
              return;
            }
            resolveHello(message.python);
            return;
          }
          case "result": {
            const waiter = message.pause === undefined ? this.pending.get(message.id) : undefined;
            if (waiter) {
              this.pending.delete(message.id);
              waiter(message);
              return;
            }
            this.handlers.onMessage?.(message);
            return;
          }
          case "exit":
            this.exitMessage = message;
            return;
          case "fatal":
            this.fatal = message;
            return;
          default:
            this.handlers.onMessage?.(message);
        }
      },
      endOfStream: () => undefined,
      violation: (error) => {
        this.protocolError = error;
        this.child.kill("SIGKILL");
      },
    });

    notices.on("data", (chunk: Buffer) => {
      if (chunk.includes(SIGINT_NUMBER)) {
        this.lastSigintNotice = Date.now();
        const waiters = this.sigintWaiters;
        this.sigintWaiters = [];
        for (const wake of waiters) wake();
      }
    });
    notices.on("error", () => undefined);

    this.ended = new Promise((resolve) => {
      let spawnError: NodeJS.ErrnoException | null = null;
      this.child.on("error", (error: NodeJS.ErrnoException) => {
        spawnError = error;
        rejectHello(
          error.code === "ENOENT"
            ? new UsageError(`Python interpreter ${describeChoice(choice)} not found: install Python ${MIN_PYTHON.join(".")}+ or choose one with --python PATH or AIYTHON_PYTHON`)
            : new UsageError(`cannot start Python interpreter ${describeChoice(choice)}: ${error.message}`),
        );
        resolve({ code: null, signal: null, endOfStream: false, exitMessage: null, fatal: null, protocolError: null });
      });
      this.child.on("close", (code, signal) => {
        if (spawnError) return;
        // After anything the channel still has to deliver (a `hello` naming an old Python wins).
        setImmediate(() =>
          rejectHello(new UsageError(`${describeChoice(choice)} did not start as a Python interpreter (exit status ${code ?? signal})`)),
        );
        for (const waiter of this.pending.values()) {
          waiter({ type: "result", id: "", ok: false, error: { type: "bridge_exited", message: "the Python process ended" } });
        }
        this.pending.clear();
        resolve({
          code,
          signal,
          endOfStream: this.channel.sawEndOfStream,
          exitMessage: this.exitMessage,
          fatal: this.fatal,
          protocolError: this.protocolError,
        });
      });
    });

    this.send({ type: "init", protocol: PROTOCOL_VERSION });
  }

  send(message: HostMessage): void {
    this.channel.send(message);
  }

  /** Send a request (an id is added) and wait for its `result`. */
  request(message: DistributiveOmit<Extract<HostMessage, { type: "compile" | "run" }>, "id">): Promise<Result> {
    const id = `h${++this.nextId}`;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ ...message, id } as HostMessage);
    });
  }

  /** Resolves true when the interpreter reports a SIGINT within `ms`, false otherwise. */
  waitForSigintNotice(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sigintWaiters = this.sigintWaiters.filter((w) => w !== wake);
        resolve(false);
      }, ms);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.sigintWaiters.push(wake);
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
}
