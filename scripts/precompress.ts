// The builds of the back office and the ticket office write a brotli and a gzip copy beside each hashed asset; the
// server sends the one the browser accepts (serveStatic's `precompressed`, api/src/product.ts), so nothing is
// compressed per request and the copies are made once, at the highest levels (issue 15).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text: images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json)$/;

/** Writes `file.br` and `file.gz` beside `file`, each only where it is smaller than the file. */
export async function precompressFile(file: string): Promise<void> {
  const content = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
      },
    }),
    gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([
    br.byteLength < content.byteLength && writeFile(`${file}.br`, br),
    gz.byteLength < content.byteLength && writeFile(`${file}.gz`, gz),
  ]);
}

/**
 * A Vite plugin: precompresses the files a client build writes under `assets/` (a server build's are not sent to
 * browsers). Typed by what it uses, not by Vite's Plugin: the workspaces do not all resolve the same Vite.
 */
export const precompress = () => ({
  name: "precompress",
  apply: "build" as const,
  applyToEnvironment: (environment: { config: { consumer: string } }) => environment.config.consumer === "client",
  async writeBundle(options: { dir?: string }, bundle: Record<string, unknown>) {
    const dir = options.dir;
    if (!dir) throw new Error("precompress: the build has no output folder");
    const assets = Object.keys(bundle).filter((name) => name.startsWith("assets/") && COMPRESSIBLE.test(name));
    await Promise.all(assets.map((name) => precompressFile(join(dir, name))));
  },
});
