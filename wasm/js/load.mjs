// Load the wasm-bindgen package (`--target web`) in Node from
// target/wasm-pkg (made by scripts/wasm.sh), or from PQKIT_WASM_PKG.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
export const pkgDir = process.env.PQKIT_WASM_PKG ?? path.join(here, '../../target/wasm-pkg');

export async function loadPqkit() {
  const pqkit = await import(pathToFileURL(path.join(pkgDir, 'pqkit_wasm.js')).href);
  pqkit.initSync({ module: readFileSync(path.join(pkgDir, 'pqkit_wasm_bg.wasm')) });
  return pqkit;
}
