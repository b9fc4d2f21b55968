# per-round ratio to fi, median (min..max) per variant; median of values
{ v[$4","$5]=$6; names[$5]=1; if ($4>R) R=$4 }
function med(a,n,  i,j,t) { for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(a[j]<a[i]){t=a[i];a[i]=a[j];a[j]=t} return n%2?a[(n+1)/2]:(a[n/2]+a[n/2+1])/2 }
END { for (k in names) { n=0; m=0; delete a; delete b; for (r=1;r<=R;r++) if (v[r","k]!="" && v[r",fi"]!="") { n++; a[n]=v[r","k]/v[r",fi"]; b[n]=v[r","k] }
  mn=1e9; mx=0; for(i=1;i<=n;i++){if(a[i]<mn)mn=a[i]; if(a[i]>mx)mx=a[i]}
  printf "%-5s value %8.2f  ratio/fi per round %.3f (%.3f..%.3f) n=%d\n", k, med(b,n), med(a,n), mn, mx, n } }
