# Re-derives the sampler and norm-bound constants of pqkit-fn-dsa (Falcon spec, sections 2.6 and 3.8.3;
# the RCDT table of Falcon spec section 3.9.3 is printed as base-2^24 limbs).
from mpmath import mp, mpf, sqrt, log, pi, cos, sin, floor
mp.dps = 60
q = 12289
for logn in range(1, 11):
    n = 2**logn
    bitsec = max(2, n//4)
    eps = 1/sqrt(mpf(bitsec)*mpf(2)**64)
    smooth = sqrt(log(4*n*(1+1/eps))/pi)/sqrt(2*pi)
    sigma = smooth*mpf(117)/100*sqrt(q)
    beta2 = floor(mpf(121)/100 * sigma**2 * 2*n)
    print(logn, repr(float(1/sigma)), repr(float(smooth)), int(beta2), float(sigma))
print("inv2sqrsigma0", repr(float(1/(2*mpf('1.8205')**2))))
print("ln2", repr(float(log(2))), "invln2", repr(float(1/log(2))))
RCDT=[3024686241123004913666, 1564742784480091954050, 636254429462080897535, 199560484645026482916, 47667343854657281903, 8595902006365044063, 1163297957344668388, 117656387352093658, 8867391802663976, 496969357462633, 20680885154299, 638331848991, 14602316184, 247426747, 3104126, 28824, 198, 1]
for r in RCDT:
    print("    [%d, %d, %d]," % (r >> 48, (r >> 24) & 0xFFFFFF, r & 0xFFFFFF))

# Key generation: cumulative tables for sampling f and g (n = 2^logn), as
# 16-bit thresholds: tab[j] = round(2^16 * CDF(-kmax + j)) for the lower
# half (CDF of the discrete Gaussian of sigma = 1.17 * sqrt(q / 2n)), and
# tab[2*kmax - 1 - j] = 65535 - tab[j]. logn < 8 sums 2^(8 - logn) samples
# of the logn = 8 table. The fn-dsa 0.3 / ntrugen design tables differ from
# this rounding in two entries of each of the logn 9 and 10 tables; those
# corrections (needed for byte-identical keys) are applied below.
from mpmath import exp
FIX = {9: {15: 23285, 16: 29542}, 10: {8: 7197, 11: 28206}}
for logn, kmax in ((8, 24), (9, 17), (10, 12)):
    n = 2**logn
    sigma = mpf(117)/100*sqrt(mpf(q)/(2*n))
    w = {k: exp(-mpf(k)**2/(2*sigma**2)) for k in range(-80, 81)}
    tot = sum(w.values())
    acc = mpf(0); c = {}
    for k in range(-80, 81):
        acc += w[k]/tot; c[k] = acc
    lower = [int(floor(c[-kmax + j]*65536 + mpf(1)/2)) for j in range(kmax)]
    for j, v in FIX.get(logn, {}).items():
        lower[j] = v
    tab = lower + [65535 - v for v in reversed(lower)]
    print("GTAB_%d" % logn, tab)
