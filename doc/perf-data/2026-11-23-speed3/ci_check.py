import sys
def eps(size):
    for upto, cv in ((2048, .26), (32768, .23), (524288, .18), (1 << 64, .17)):
        if size <= upto: return 1.96 * cv * 100
for path in sys.argv[1:]:
    bad, n, worst = [], 0, 0
    for line in open(path):
        f = line.split()
        if len(f) >= 7 and f[1].isdigit() and f[2].isdigit():
            size, ci = int(f[1]), f[6]
            cap = "(cap)" in line
            n += 1
            try: c = float(ci)
            except ValueError: bad.append((size, ci)); continue
            worst = max(worst, c / eps(size))
            if c > eps(size) or cap: bad.append((size, c, round(eps(size)), "cap" if cap else ""))
    print(path, "sizes", n, "worst ci/eps %.2f" % worst, "outside or capped:", bad)
