// aiython's own output on stdout (--explain, config show, runs list/show), each command's in one
// write; a reader that went away (`| head -1`, EPIPE) ends the write quietly instead of crashing
// the CLI. Never used while a program runs: stdout is the program's then.

export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") resolve();
    };
    process.stdout.on("error", onError);
    process.stdout.write(text, (error) => {
      // A failed write's callback runs before the stream emits 'error': the listener stays for it.
      if (!error) process.stdout.off("error", onError);
      resolve();
    });
  });
}
