#!/bin/bash
# call 2 on the GPU machine (16 CPUs): bench-baseline.sh with 10 baseline runs, 30 good and 30
# limited runs per loss (5 % and 10 %), judged under k 2, 3 and 4; then bench-rounds.sh over
# libfabric tcp (8 ranks)
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p "$o"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
export OMPI_MCA_mca_base_component_path=$PWD/ompi PMIX_MCA_mca_base_component_path=$PWD/pmix
export OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi OMPI_MCA_osc=^ucx,pt2pt OMPI_MCA_btl_base_warn_component_unused=0
{ date -u; uname -r; nproc; cat /proc/loadavg; } >"$o/host.txt" 2>&1
t0=$(date +%s)
top_builddir=$PWD GD_BENCH_PORT=32300 GD_BENCH_LOSS='5 10' GD_BENCH_K='2 3 4' timeout -k 5 125 \
	scripts/bench-baseline.sh 10 30 30 >"$o/baseline.txt" 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >>"$o/baseline.txt"
t0=$(date +%s)
timeout -k 5 90 scripts/bench-rounds.sh --ranks 8 --provider tcp --pairs 3 --iterations 10000 \
	--port 24000 --bindir tools >"$o/rounds-tcp.txt" 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >>"$o/rounds-tcp.txt"
