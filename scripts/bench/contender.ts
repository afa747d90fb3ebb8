// Starts one server of the benchmark as a child process and waits for the address it prints.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Contender {
  name: string;
  command: string[];
  env?: Record<string, string>;
}

export interface RunningContender {
  base: string;
  child: ChildProcess;
  /** what it printed until it listened, then its warning lines */
  output(): string;
  stop(): Promise<void>;
}

const ADDRESS = / at (http:\/\/[^\s/]+)\//;

export function startContender(contender: Contender, timeoutMs = 20_000): Promise<RunningContender> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = contender.command;
    const child = spawn(command, args, {
      env: { ...process.env, NO_COLOR: '1', ...contender.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${contender.name} did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const m = ADDRESS.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      // From here on only warnings are kept: a profiled server prints a line per request.
      // The bench's own CPU is taken from the machine the servers share: a chunk without one is not split.
      const keepWarnings = (more: Buffer) => {
        if (!more.includes('warning')) return;
        for (const line of String(more).split('\n')) if (line.includes('warning')) output += `${line}\n`;
      };
      child.stdout!.on('data', keepWarnings);
      child.stderr!.on('data', keepWarnings);
      resolve({ base: m[1], child, output: () => output, stop: () => stopChild(child) });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${contender.name} exited with ${code} before listening:\n${output}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
