// pqkit-wasm beside noble-post-quantum in Node: `node bench-node.mjs`
// prints a markdown table (scripts/wasm.sh --bench).
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { loadPqkit } from './load.mjs';
import { benchRows, markdown } from './bench-lib.mjs';

const pqkit = await loadPqkit();
console.log(markdown(benchRows(pqkit, { ml_kem768, ml_dsa65 })));
