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
