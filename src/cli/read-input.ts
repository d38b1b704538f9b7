/** Reads a file named on the command line, or stdin for `-`, with one-line errors. */
import fs from 'node:fs/promises';
import { CliError } from './cli-error.js';

/** The bytes of `file` (`-` is stdin). */
export async function readInput(file: string): Promise<Buffer> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  try {
    return await fs.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`no such file: ${file}`);
    if (code === 'EISDIR') throw new CliError(`${file} is a directory, not a request body`);
    throw new CliError(`cannot read ${file}: ${code ?? String(error)}`);
  }
}

/** Writes bytes to stdout and resolves once they are handed to the OS. */
export function writeStdout(bytes: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}
