// pqkit-wasm in Node (node --test): the JavaScript API, its errors, and
// agreement with noble-post-quantum (an independent implementation) in
// both directions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ml_kem512, ml_kem768, ml_kem1024 } from '@noble/post-quantum/ml-kem.js';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { loadPqkit } from './load.mjs';

const pqkit = await loadPqkit();
const hex = (s) => Uint8Array.from(s.match(/../g), (b) => parseInt(b, 16));
const seq = (n, k) => Uint8Array.from({ length: n }, (_, i) => (i * 13 + k) & 0xff);

const kems = { 512: ml_kem512, 768: ml_kem768, 1024: ml_kem1024 };
const dsas = { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 };

test('ML-KEM keys, encapsulation and decapsulation agree with noble', () => {
  for (const [level, noble] of Object.entries(kems)) {
    const seed = seq(64, Number(level));
    const dk = pqkit.MlKemDecapsulationKey.fromSeed(Number(level), seed);
    const nk = noble.keygen(seed);
    assert.deepEqual(dk.encapsulationKey(), nk.publicKey, `ek ${level}`);
    assert.deepEqual(dk.seed(), seed);
    // pqkit encapsulates, noble decapsulates; and the other way round.
    const ek = pqkit.MlKemEncapsulationKey.fromBytes(Number(level), nk.publicKey);
    const m = seq(32, 7);
    const e = ek.encapsulateDeterministic(m);
    const n = noble.encapsulate(nk.publicKey, m);
    assert.deepEqual(e.ciphertext, n.cipherText, `ct ${level}`);
    assert.deepEqual(e.sharedSecret, n.sharedSecret, `ss ${level}`);
    assert.deepEqual(noble.decapsulate(e.ciphertext, nk.secretKey), e.sharedSecret);
    const r = ek.encapsulate();
    assert.deepEqual(dk.decapsulate(r.ciphertext), r.sharedSecret);
    assert.deepEqual(noble.decapsulate(r.ciphertext, nk.secretKey), r.sharedSecret);
    // A modified ciphertext: implicit rejection on both sides, same value.
    const bad = r.ciphertext.slice();
    bad[5] ^= 0x40;
    const rej = dk.decapsulate(bad);
    assert.notDeepEqual(rej, r.sharedSecret);
    assert.deepEqual(rej, noble.decapsulate(bad, nk.secretKey));
    for (const x of [dk, ek, e, r]) x.free();
  }
});

test('ML-DSA signatures agree with noble and verify across', () => {
  for (const [level, noble] of Object.entries(dsas)) {
    const seed = seq(32, Number(level));
    const sk = pqkit.MlDsaSigningKey.fromSeed(Number(level), seed);
    const nd = noble.keygen(seed);
    assert.deepEqual(sk.verifyingKey(), nd.publicKey, `vk ${level}`);
    const vk = pqkit.MlDsaVerifyingKey.fromBytes(Number(level), nd.publicKey);
    const msg = seq(100, 3);
    const ctx = seq(5, 9);
    // Deterministic signatures are byte-identical.
    const sig = sk.signDeterministic(msg, ctx);
    assert.deepEqual(sig, noble.sign(msg, nd.secretKey, { context: ctx, extraEntropy: false }));
    assert.equal(vk.verify(msg, sig, ctx), true);
    assert.equal(vk.verify(msg, sig), false, 'wrong context');
    // Hedged: each side verifies the other's.
    const ours = sk.sign(msg);
    assert.equal(noble.verify(ours, msg, nd.publicKey), true);
    const theirs = noble.sign(msg, nd.secretKey);
    assert.equal(vk.verify(msg, theirs), true);
    const bad = theirs.slice();
    bad[10] ^= 1;
    assert.equal(vk.verify(msg, bad), false);
    assert.equal(vk.verify(msg, theirs.subarray(1)), false);
    sk.free();
    vk.free();
  }
});

test('Ed25519: RFC 8032 test 2', () => {
  const sk = pqkit.Ed25519SigningKey.fromSeed(
    hex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'),
  );
  const pk = hex('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');
  assert.deepEqual(sk.verifyingKey(), pk);
  const sig = sk.sign(hex('72'));
  assert.deepEqual(
    sig,
    hex(
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da' +
        '085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
    ),
  );
  const vk = pqkit.Ed25519VerifyingKey.fromBytes(pk);
  assert.equal(vk.verify(hex('72'), sig), true);
  assert.equal(vk.verify(hex('73'), sig), false);
  const fresh = pqkit.Ed25519SigningKey.generate();
  const fvk = pqkit.Ed25519VerifyingKey.fromBytes(fresh.verifyingKey());
  assert.equal(fvk.verify(seq(9, 1), fresh.sign(seq(9, 1))), true);
});

test('bad input throws an Error with the typed error', () => {
  assert.throws(() => pqkit.MlKemDecapsulationKey.fromSeed(769, seq(64, 0)), /unknown parameter set level 769/);
  assert.throws(() => pqkit.MlKemDecapsulationKey.fromSeed(768, seq(63, 0)), /ML-KEM seed: 63 bytes, expected 64/);
  assert.throws(() => pqkit.MlKemEncapsulationKey.fromBytes(768, new Uint8Array(1184).fill(0xff)), /ML-KEM/);
  assert.throws(() => pqkit.MlDsaSigningKey.fromSeed(66, seq(32, 0)), /level 66/);
  assert.throws(() => pqkit.MlDsaVerifyingKey.fromBytes(65, seq(10, 0)), /ML-DSA/);
  const sk = pqkit.MlDsaSigningKey.generate(44);
  assert.throws(() => sk.sign(seq(1, 0), new Uint8Array(256)), /ML-DSA/);
  assert.throws(() => pqkit.Ed25519SigningKey.fromSeed(seq(31, 0)), /expected 32/);
});
