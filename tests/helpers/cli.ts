import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const BIN = resolve(process.cwd(), 'dist/cli/bin.js');
export const PACKAGE_ENTRY = resolve(process.cwd(), 'dist/index.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `app` bin to completion (bounded by a timeout). */
export function runApp(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return runNode([BIN, ...args], { ...options, env: { NO_COLOR: '1', ...options.env } });
}

/** Runs node with `args` to completion (bounded by a timeout), `env` added to this process's. */
export function runNode(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  child: ChildProcess;
  base: string;
  output: () => string;
  /** SIGTERM, then the exit code */
  stop(): Promise<number | null>;
}

/** Starts `app serve --port 0` and waits for the address it prints. */
export function startServe(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; bin?: string },
): Promise<ServeProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, 'serve', '--port', '0', ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`app serve did not start:\n${output}`));
    }, 20_000);
    const onData = (d: Buffer) => {
      output += d;
      const m = / at (http:\/\/[^\s/]+)\//.exec(output);
      if (m) {
        clearTimeout(timer);
        resolvePromise({
          child,
          base: m[1],
          output: () => output,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done(child.exitCode);
              const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
              child.once('exit', (code) => {
                clearTimeout(kill);
                done(code);
              });
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!/ at http/.test(output)) reject(new Error(`app serve exited ${code}:\n${output}`));
    });
  });
}

export { runAppInProcess, runCliInProcess } from './cli-in-process.js';
