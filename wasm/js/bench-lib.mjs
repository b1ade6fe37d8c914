// The pqkit-wasm benches beside noble-post-quantum, shared by Node
// (bench-node.mjs) and the browser page (../www/app.mjs): the same inputs
// for both, each row timed as the best of several batches.
//
// `pqkit` is the wasm-bindgen module (initialised), `noble` is
// { ml_kem768, ml_dsa65 } from @noble/post-quantum.

function now() {
  return globalThis.performance.now();
}

/** Microseconds per call of `f`: the fastest of `batches` batches. */
export function time(f, { batches = 7, minMs = 150 } = {}) {
  // Calibrate: enough calls per batch to last about minMs / batches.
  let n = 1;
  for (;;) {
    const t = now();
    for (let i = 0; i < n; i++) f(i);
    const dt = now() - t;
    if (dt > minMs / batches || n > 1 << 20) break;
    n *= 2;
  }
  let best = Infinity;
  for (let b = 0; b < batches; b++) {
    const t = now();
    for (let i = 0; i < n; i++) f(i);
    best = Math.min(best, ((now() - t) * 1000) / n);
  }
  return best;
}

function bytes(n, fill) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (fill * 31 + i * 7) & 0xff;
  return b;
}

/** The bench rows: [name, pqkit us, noble us]. Many distinct inputs are
 *  used where the input varies (seeds, messages). */
export function benchRows(pqkit, noble, opts = {}) {
  const { ml_kem768, ml_dsa65 } = noble;
  const K = 16;
  const kemSeeds = Array.from({ length: K }, (_, i) => bytes(64, i + 1));
  const dsaSeeds = Array.from({ length: K }, (_, i) => bytes(32, i + 1));
  const ms = Array.from({ length: K }, (_, i) => bytes(32, i + 100));
  const msgs = Array.from({ length: K }, (_, i) => bytes(64, i + 200));

  // Keys made once for the "held key" rows (both libraries' own forms).
  const dk = pqkit.MlKemDecapsulationKey.fromSeed(768, kemSeeds[0]);
  const ekBytes = dk.encapsulationKey();
  const ek = pqkit.MlKemEncapsulationKey.fromBytes(768, ekBytes);
  const nk = ml_kem768.keygen(kemSeeds[0]);
  const ct = ek.encapsulateDeterministic(ms[0]).ciphertext;
  const sk = pqkit.MlDsaSigningKey.fromSeed(65, dsaSeeds[0]);
  const vkBytes = sk.verifyingKey();
  const nd = ml_dsa65.keygen(dsaSeeds[0]);
  const sigs = msgs.map((m) => sk.signDeterministic(m));

  const rows = [];
  const row = (name, a, b) => rows.push([name, time(a, opts), time(b, opts)]);
  row(
    'ML-KEM-768 keygen (seed)',
    (i) => {
      const k = pqkit.MlKemDecapsulationKey.fromSeed(768, kemSeeds[i % K]);
      k.encapsulationKey();
      k.free();
    },
    (i) => ml_kem768.keygen(kemSeeds[i % K]),
  );
  row(
    'ML-KEM-768 encaps (key from bytes)',
    (i) => {
      const k = pqkit.MlKemEncapsulationKey.fromBytes(768, ekBytes);
      k.encapsulateDeterministic(ms[i % K]).free();
      k.free();
    },
    (i) => ml_kem768.encapsulate(nk.publicKey, ms[i % K]),
  );
  row(
    'ML-KEM-768 decaps',
    () => dk.decapsulate(ct),
    () => ml_kem768.decapsulate(ct, nk.secretKey),
  );
  row(
    'ML-DSA-65 keygen (seed)',
    (i) => {
      const k = pqkit.MlDsaSigningKey.fromSeed(65, dsaSeeds[i % K]);
      k.verifyingKey();
      k.free();
    },
    (i) => ml_dsa65.keygen(dsaSeeds[i % K]),
  );
  row(
    'ML-DSA-65 sign (deterministic)',
    (i) => sk.signDeterministic(msgs[i % K]),
    (i) => ml_dsa65.sign(msgs[i % K], nd.secretKey, { extraEntropy: false }),
  );
  row(
    'ML-DSA-65 verify (key from bytes)',
    (i) => {
      const k = pqkit.MlDsaVerifyingKey.fromBytes(65, vkBytes);
      if (!k.verify(msgs[i % K], sigs[i % K])) throw new Error('pqkit verify');
      k.free();
    },
    (i) => {
      if (!ml_dsa65.verify(sigs[i % K], msgs[i % K], nd.publicKey)) throw new Error('noble verify');
    },
  );
  dk.free();
  ek.free();
  sk.free();
  return rows;
}

/** The rows as a markdown table with noble's time over pqkit's. */
export function markdown(rows) {
  const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const lines = [
    '| operation | pqkit-wasm (us) | noble-post-quantum (us) | noble / pqkit |',
    '|---|---|---|---|',
  ];
  for (const [name, a, b] of rows) lines.push(`| ${name} | ${f(a)} | ${f(b)} | ${(b / a).toFixed(1)}x |`);
  return lines.join('\n');
}
