// The page's script: a demo of every operation of pqkit-wasm, and the
// benches beside noble-post-quantum (../js/bench-lib.mjs).
import init, * as pqkit from '/pkg/pqkit_wasm.js';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { benchRows } from '/js/bench-lib.mjs';

const log = document.getElementById('log');
const say = (line) => { log.textContent += line + '\n'; };
const hex = (b) => Array.from(b.slice(0, 8), (x) => x.toString(16).padStart(2, '0')).join('') + '...';
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function demo() {
  log.textContent = '';
  // ML-KEM-768: a fresh key, encapsulation from its bytes, decapsulation.
  const dk = pqkit.MlKemDecapsulationKey.generate(768);
  const ek = pqkit.MlKemEncapsulationKey.fromBytes(768, dk.encapsulationKey());
  const { ciphertext, sharedSecret } = ek.encapsulate();
  const kemOk = same(dk.decapsulate(ciphertext), sharedSecret);
  say(`ML-KEM-768: ek ${dk.encapsulationKey().length} B, ct ${ciphertext.length} B, secret ${hex(sharedSecret)} ${kemOk ? 'agrees' : 'DIFFERS'}`);
  // ML-DSA-65: sign and verify, and a modified message refused.
  const sk = pqkit.MlDsaSigningKey.generate(65);
  const vk = pqkit.MlDsaVerifyingKey.fromBytes(65, sk.verifyingKey());
  const msg = new TextEncoder().encode('hello from the browser');
  const sig = sk.sign(msg);
  const dsaOk = vk.verify(msg, sig) && !vk.verify(new TextEncoder().encode('hello'), sig);
  say(`ML-DSA-65: signature ${sig.length} B ${hex(sig)} ${dsaOk ? 'verifies (and a modified message does not)' : 'FAILED'}`);
  // Ed25519.
  const ek2 = pqkit.Ed25519SigningKey.generate();
  const ev = pqkit.Ed25519VerifyingKey.fromBytes(ek2.verifyingKey());
  const esig = ek2.sign(msg);
  const edOk = ev.verify(msg, esig);
  say(`Ed25519: signature ${hex(esig)} ${edOk ? 'verifies' : 'FAILED'}`);
  // Cross-check: noble decapsulates pqkit's ciphertext.
  const seed = crypto.getRandomValues(new Uint8Array(64));
  const nk = ml_kem768.keygen(seed);
  const e2 = pqkit.MlKemEncapsulationKey.fromBytes(768, nk.publicKey).encapsulate();
  const crossOk = same(ml_kem768.decapsulate(e2.ciphertext, nk.secretKey), e2.sharedSecret);
  say(`noble-post-quantum decapsulates pqkit's ciphertext: ${crossOk ? 'same secret' : 'DIFFERS'}`);
  for (const x of [dk, ek, sk, vk, ek2, ev]) x.free();
  return kemOk && dsaOk && edOk && crossOk;
}

function bench() {
  const rows = benchRows(pqkit, { ml_kem768, ml_dsa65 });
  const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const table = document.createElement('table');
  table.innerHTML = '<tr><th>operation</th><th>pqkit-wasm (us)</th><th>noble-post-quantum (us)</th><th>noble / pqkit</th></tr>' +
    rows.map(([n, a, b]) => `<tr><td>${n}</td><td>${f(a)}</td><td>${f(b)}</td><td>${(b / a).toFixed(1)}x</td></tr>`).join('');
  const box = document.getElementById('table');
  box.replaceChildren(table);
  window.benchRows = rows;
  return rows;
}

await init();
document.getElementById('demo').onclick = () => {
  document.body.dataset.status = demo() ? 'ok' : 'failed';
};
document.getElementById('bench').onclick = () => {
  document.body.dataset.status = 'benching';
  setTimeout(() => { bench(); document.body.dataset.status = 'benched'; }, 0);
};
document.body.dataset.status = 'ready';
