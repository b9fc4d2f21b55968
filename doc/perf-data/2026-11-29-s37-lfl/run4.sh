#!/bin/bash
# call 4: A/B of the change (gd_new) against the build before it (gd_x, run without GDX_*:
# main's behaviour), like for like with fi_rma_bw and the A/A control: shm, writes above the inject size
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
./bench-vs-libfabric.sh --providers shm --kinds bw --bw-ops "write writedata" --sizes "65536 1048576" \
	--bw-iters "65536:20000 1048576:2000" --pairs 5 --pin "2 3" --bindir gd_new --gd-before gd_x \
	--fi-bindir ft --fabtests ft --ld-library-path lib --port-base 35000 --timeout 60 \
	--out $o/ab-shm > $o/ab-shm.log 2>&1
