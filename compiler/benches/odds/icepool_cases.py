# The odds benchmark's cases in icepool (issue 10 §5), timed the way tests/benches/odds.rs
# times rulesc: best of at least three runs and about a second.
import time, icepool
from icepool import d6, d12

def best(f):
    start = time.perf_counter(); b = float('inf'); runs = 0
    while True:
        t = time.perf_counter(); out = f(); b = min(b, time.perf_counter() - t); runs += 1
        if runs >= 3 and time.perf_counter() - start > 1.0:
            return b, out

def exchange(a, d, m, armor):
    A = d12.explode(depth=9)
    D = d12.explode(depth=9)
    def f(x, y):
        if x == 1:
            return 'EpicFailure'
        att = x + a; de = y + d + m
        if att < de:
            return 'Miss'
        steps = min((att - de) // 3 + 1, 4) - armor
        return 'L%d' % max(steps, 0)
    return icepool.map(f, A, D)

cases = [
    ("bare exchange (a 3, d 2, m 1, armor 1)", lambda: exchange(3, 2, 1, 1)),
    ("roll 8d6 + location", lambda: icepool.map(lambda dmg, loc: (dmg, loc), 8 @ d6, d6)),
    ("roll 20d6", lambda: 20 @ d6),
    ("4d6kh3 >= 13", lambda: d6.pool(4).highest(3).sum() >= 13),
]
print("icepool", icepool.__version__)
for name, f in cases:
    t, out = best(f)
    print("  %-40s %10.3f ms" % (name, t * 1e3))
t0 = time.perf_counter()
n = 0
for a in range(10):
    for d in range(10):
        for m in range(10):
            exchange(a, d, m, 1); n += 1
t = time.perf_counter() - t0
print("  %-40s %10.3f ms   %d cases, %.3f ms a case" % ("sweep of the bare exchange (1,000 cases)", t * 1e3, n, t * 1e3 / n))
