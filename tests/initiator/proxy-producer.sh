#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --producer (make check, no GPU, no RDMA device needed): the option belongs
# to --initiator=proxy (exit 2 naming it), takes gpu|host|auto only (exit 2
# naming the choices), and is in --help. The choice itself (default gpu when
# CUDA finds a device, the header/JSON reason) runs in the GPU tier
# (tests/gpu/proxy-ofi.sh).
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
# exit code | text the output must hold | case | gd_write_bw arguments
while IFS='|' read -r want pat what args; do
	# shellcheck disable=SC2086 # the arguments are words
	"$b/tools/gd_write_bw" $args >"$tmp/out" 2>&1 </dev/null
	rc=$?
	if [ $rc -eq "$want" ] && grep -q -- "$pat" "$tmp/out"; then
		echo "ok: $what (exit $rc)"
		continue
	fi
	echo "FAIL: $what: exit $rc (want $want), output must hold '$pat':"
	sed 's/^/  /' "$tmp/out"
	fail=1
done <<'EOT'
2|add --initiator=proxy|--producer without the proxy|--producer gpu
2|belongs to --initiator=proxy|--producer with IBGDA|--initiator=ibgda --producer host
2|gpu|--producer with a bad value|--initiator=proxy --producer fpga
0|producer=WHO|--producer in --help|--help
EOT
exit $fail
