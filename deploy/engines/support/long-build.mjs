// Runs a build that takes minutes (Go, Maven): its output goes to a log file, a progress line is printed every
// 30 s, and a failure reports the last lines it printed.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const PROGRESS_EVERY_MS = 30_000;

/**
 * @param {object} build
 * @param {string} build.command
 * @param {string[]} build.args
 * @param {string} [build.cwd]
 * @param {NodeJS.ProcessEnv} [build.env]
 * @param {string} build.buildLog  the command line and all output are written here
 * @param {(line: string) => void} [build.onLine]  sees each output line (to count packages, note the step)
 * @param {() => string} build.progress  what the periodic progress line says
 * @param {(line: string) => void} build.log
 * @param {number} [build.tailLines]
 * @returns {Promise<{ seconds: number }>} rejects with an Error whose `tail` holds the last output lines
 */
export function runLongBuild({ command, args, cwd, env, buildLog, onLine = () => {}, progress, log, tailLines = 30 }) {
  writeFileSync(buildLog, `$ ${command} ${args.join(' ')}${cwd ? `   (in ${cwd})` : ''}\n`);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 1000);
    let tail = [];
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setInterval(() => log(`  still building (${progress()}), ${seconds()} s`), PROGRESS_EVERY_MS);
    const collect = (chunk) => {
      const text = chunk.toString();
      writeFileSync(buildLog, text, { flag: 'a' });
      for (const line of text.split('\n')) {
        if (!line) continue;
        onLine(line);
        tail.push(line);
      }
      tail = tail.slice(-tailLines);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (error) => {
      clearInterval(timer);
      reject(Object.assign(new Error(`could not run ${command}: ${error.message}`), { tail }));
    });
    child.once('close', (code) => {
      clearInterval(timer);
      if (code === 0) resolve({ seconds: seconds() });
      else reject(Object.assign(new Error(`${command} exited with ${code}`), { tail }));
    });
  });
}
