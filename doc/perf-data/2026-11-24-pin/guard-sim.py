#!/usr/bin/env python3
# The guard rules against resampled runs: python3 guard-sim.py RUNS.CSV...
# Each point's gd and pt runs are drawn 3 (first look) and 6 (second look)
# at a time, 4000 times; 'median': ratio of medians below 0.90;
# 'separation': every gd run below 0.90 of every pt run (the guard's rule).
import csv, math, random, statistics as st, sys
pts={}
for f in sys.argv[1:]:
    for r in csv.reader(open(f)):
        if len(r)<14: continue
        impl,op,kind,size=r[:4]
        try: v=float(r[8]) if kind=='bw' else float(r[9])
        except: continue
        if not (v>0 and math.isfinite(v)): continue
        pts.setdefault((f,op,kind,int(size)),{}).setdefault(impl,[]).append(v)
random.seed(3)
def med_below(kind,g,p,m=0.9):
    s = st.median(g)/st.median(p) if kind=='bw' else st.median(p)/st.median(g)
    return s < m
def sep_below(kind,g,p,m=0.9):
    return max(g) < m*min(p) if kind=='bw' else min(g)*m > max(p)
N=4000
for name,rule in (('median',med_below),('separation',sep_below)):
    tot=[];first=[]
    for k,d in pts.items():
        g=d['gd']; p=d['pt']
        def pf(n): return sum(rule(k[2],random.sample(g,min(n,len(g))),random.sample(p,min(n,len(p)))) for _ in range(N))/N
        p3=pf(3); p6=pf(6); first.append(p3); tot.append(p3*p6)
    print('%-10s over %d points: second looks expected %.2f; P(no false failure, with the second look) %.3f; P(no false alarm in the first look) %.3f'%(name,len(tot),sum(first),math.prod(1-x for x in tot),math.prod(1-x for x in first)))
