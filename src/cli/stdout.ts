// aiython's own output on stdout (--explain, config show, runs): written once, and a reader that
// went away (`| head -1`, EPIPE) ends the write quietly instead of crashing the CLI.

export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") resolve();
    });
    process.stdout.write(text, () => resolve());
  });
}
