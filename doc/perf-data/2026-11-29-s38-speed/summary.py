import json,re,statistics as st,sys
import os; D=os.path.dirname(os.path.abspath(__file__))
for prov in ['tcp','shm']:
    rows={}
    for l in open(f'{D}/ab-{prov}.txt'):
        m=re.match(r'R(\d+) \S+ \d+ (\S+) (.*)',l.strip())
        r,v,rest=int(m[1]),m[2],m[3]
        if rest.startswith('{'):
            j=json.loads(rest); lr=j.get('local_results',j['results'])
            val=lr['bw_avg_mib_per_s']*1.048576
        else: val=float(rest.split()[0])
        rows.setdefault(v,{})[r]=val
    for a,b,ref in [('gd-b-new','gd-b-q1','fi-write'),('gd-wd-new','gd-wd-q1','fi-writedata')]:
        rs=sorted(rows[a])
        q=lambda x,y:[rows[x][r]/rows[y][r] for r in rs]
        f=lambda x:f"{st.median(x):.3f} ({min(x):.3f}..{max(x):.3f})"
        med=lambda x:st.median([rows[x][r] for r in rs])
        print(f"{prov} {a[3:5]} 64KiB: new/old {f(q(a,b))}; new/{ref} {f(q(a,ref))}; old/{ref} {f(q(b,ref))}; median MB/s new {med(a):.0f} old {med(b):.0f} {ref} {med(ref):.0f}")
