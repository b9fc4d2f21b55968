# shellcheck shell=sh
# What the built tools were built with, asked of the tools themselves: every tool's
# --version prints one line "features: cuda-driver=dlopen cuda-kernels=yes mpi=yes
# yaml=yes libfabric=no" (src/core/opts.c). The shell tests ask here, not config.h and
# not fi_info (libfabric may be installed on a host whose gdperf was built without it:
# ./configure --without-libfabric). Sourced as tests/lib/ports.sh is; plain sh.
#
#   built_with FEATURE        0 when the tools say FEATURE=yes (libfabric, mpi, yaml...)
#   needs_libfabric WHAT...   0 in a build with libfabric; else prints "skip: WHAT (...)",
#                             counts it in $lf_skipped and returns 1: the caller leaves
#                             that part out and runs the rest
#   lf_skip_exit              when a part was left out: "SKIP: ..." and exit 77; else
#                             returns. Call it after the script's own failures (a test
#                             that failed exits 1 first: a skipped part hides no failure)
#   lf_features               the features line (for a test written in Python: hostile.sh
#                             passes it as GD_FEATURES)
lf_features() {
	if [ -z "${_lf_line:-}" ]; then
		_lf_line=$("${top_builddir:-.}/tools/gd_write_bw" --version 2>/dev/null | sed -n 's/^features: //p')
	fi
	printf '%s\n' "$_lf_line"
}
built_with() {
	case " $(lf_features) " in
	*" $1=yes "*) return 0 ;;
	*) return 1 ;;
	esac
}
needs_libfabric() {
	built_with libfabric && return 0
	echo "skip: $* (this gdperf was built without libfabric: ./configure --with-libfabric)"
	lf_skipped=$((${lf_skipped:-0} + 1))
	return 1
}
lf_skip_exit() {
	[ "${lf_skipped:-0}" -gt 0 ] || return 0
	echo "SKIP: $lf_skipped part(s) need libfabric, which this gdperf was built without (every other check here passed)"
	exit 77
}
