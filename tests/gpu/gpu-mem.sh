#!/bin/sh
# The GPU tier for GPU buffers and gd_doctor. Needs a CUDA GPU (exits 77
# without one). Run from the build tree, or with GD_BIN pointing at a folder
# holding gd_gpumem_test and gd_doctor (the GPU machine gets a copy).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${GD_BIN:-}
if [ -z "$bin" ]; then
	b=${top_builddir:-$here/../..}
	test_prog=$b/tests/gpu/gd_gpumem_test
	buf_prog=$b/tests/gpu/gd_gpubuf_test
	doctor=$b/tools/gd_doctor
else
	test_prog=$bin/gd_gpumem_test
	buf_prog=$bin/gd_gpubuf_test
	doctor=$bin/gd_doctor
fi
fail=0

echo "== gd_gpumem_test"
"$test_prog"
rc=$?
if [ $rc -eq 3 ]; then
	echo "SKIP: no CUDA GPU here"
	exit 77
fi
[ $rc -eq 0 ] || { echo "FAIL: gd_gpumem_test exited $rc"; fail=1; }

for args in "0" "auto" "0 staging"; do
	echo "== gd_gpubuf_test $args (the engine's buffer layer)"
	"$buf_prog" $args || { echo "FAIL: gd_gpubuf_test $args"; fail=1; }
done

echo "== gd_doctor (live)"
"$doctor" > doctor.txt
rc=$?
cat doctor.txt
"$doctor" --json > doctor.json
# the GPU must be reported as the driver sees it
if command -v nvidia-smi > /dev/null; then
	name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
	grep -q "^PASS  cuda.driver" doctor.txt && grep -qF "$name" doctor.txt ||
		{ echo "FAIL: gd_doctor does not report '$name'"; fail=1; }
	drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
	grep -q "^PASS  nvidia.driver .*$drv" doctor.txt ||
		{ echo "FAIL: gd_doctor does not report driver $drv"; fail=1; }
fi
grep -q "^PASS  cuda.dmabuf_export" doctor.txt || { echo "FAIL: live dma-buf export"; fail=1; }
# no RDMA device on this machine must be a FAIL with that reason, exit 1
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	grep -q "^FAIL  rdma.devices .*no RDMA device" doctor.txt ||
		{ echo "FAIL: the missing RDMA device is not reported"; fail=1; }
	[ $rc -eq 1 ] || { echo "FAIL: gd_doctor exit $rc, expected 1"; fail=1; }
fi
[ $fail = 0 ] && echo "gpu-mem: PASS"
exit $fail
