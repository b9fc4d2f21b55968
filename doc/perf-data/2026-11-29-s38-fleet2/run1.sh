#!/bin/bash
# call 1 on the GPU machine (16 CPUs): bench-baseline.sh alone, then bench-rounds.sh (8 ranks, shm)
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p "$o"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
export OMPI_MCA_mca_base_component_path=$PWD/ompi PMIX_MCA_mca_base_component_path=$PWD/pmix
export OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi OMPI_MCA_osc=^ucx,pt2pt OMPI_MCA_btl_base_warn_component_unused=0
{ date -u; uname -r; nproc; lscpu | grep -E 'Model name|^CPU\(s\)|NUMA node\(s\)'; cat /proc/loadavg; } >"$o/host.txt" 2>&1
fi_info -p tcp >/dev/null 2>&1 || true
t0=$(date +%s)
top_builddir=$PWD GD_BENCH_PORT=32300 timeout -k 5 130 scripts/bench-baseline.sh ${BB_ARGS:-5 15 15} >"$o/baseline.txt" 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >>"$o/baseline.txt"
t0=$(date +%s)
timeout -k 5 95 scripts/bench-rounds.sh --ranks 8 --provider shm --pairs 3 --iterations ${BR_ITERS:-20000} \
	--bindir tools >"$o/rounds-shm.txt" 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >>"$o/rounds-shm.txt"
