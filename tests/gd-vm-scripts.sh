#!/bin/bash
# shellcheck disable=SC2016,SC2015 # literal $ on purpose; ok/fail never fail
# scripts/gd-vm and scripts/gd-vm-tests without booting a guest: help, usage
# errors and exit codes, and --dry-run's shares and guest command script (the
# command, its arguments and its working directory survive the quoting).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
vm=$top_srcdir/scripts/gd-vm
vmt=$top_srcdir/scripts/gd-vm-tests
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
expect_rc() { # expect_rc WANT DESCRIPTION CMD...
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else
		fail "$what: exit $rc, want $want"
		cat "$work/out" "$work/err"
	fi
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- help and usage errors (exit 2, a message naming the problem)
expect_rc 0 "gd-vm --help" "$vm" --help
for o in --timeout --boot-timeout --out --share --env --bond-mode --kernel --keep-log --mem \
	--quiet --verbose --dry-run --help; do
	grep -q -- "$o" "$work/out" || fail "gd-vm --help does not mention $o"
done
expect_rc 2 "gd-vm without a command" "$vm"
grep -q "no command given" "$work/err" || fail "no 'no command given' message"
expect_rc 2 "gd-vm --timeout 0" "$vm" --timeout 0 -- true
expect_rc 2 "gd-vm --timeout abc" "$vm" --timeout abc -- true
expect_rc 2 "gd-vm --bond-mode bogus" "$vm" --bond-mode bogus -- true
expect_rc 2 "gd-vm --env without =" "$vm" --env NOVALUE -- true
expect_rc 2 "gd-vm --share of a missing directory" "$vm" --dry-run --share "$work/none" -- true
expect_rc 2 "gd-vm --mem 100 (under 512 MiB)" "$vm" --mem 100 -- true
expect_rc 2 "gd-vm --mem 4G (not a number of MiB)" "$vm" --mem 4G -- true
# --mem reaches QEMU's -m (the dry run prints QEMU's command line); 2048 without it
"$vm" --dry-run --mem 4096 -- true 2>&1 | grep -q -- ' -m 4096 ' && ok "gd-vm --mem 4096: QEMU gets -m 4096" ||
	fail "gd-vm --mem 4096 did not reach QEMU's -m"
"$vm" --dry-run -- true 2>&1 | grep -q -- ' -m 2048 ' && ok "gd-vm without --mem: -m 2048" ||
	fail "gd-vm without --mem: not -m 2048"
expect_rc 2 "gd-vm --bogus" "$vm" --bogus -- true
grep -q "unknown option '--bogus'" "$work/err" || fail "no message naming --bogus"
expect_rc 0 "gd-vm-tests --help" "$vmt" --help
grep -q "passed, N failed, N skipped" "$work/out" || fail "gd-vm-tests --help: no summary format"
grep -q -- "--sanitizer-logs" "$work/out" || fail "gd-vm-tests --help does not mention --sanitizer-logs"
expect_rc 2 "gd-vm-tests with an unknown test" "$vmt" no-such-test
expect_rc 2 "gd-vm-tests --test-timeout x" "$vmt" --test-timeout x
expect_rc 2 "gd-vm-tests --sanitizer-logs without a folder" "$vmt" --sanitizer-logs
# --sanitizer-logs refuses, before booting, a build whose reports could not all reach the folder
# (checked before the tests are looked for: no-such-test would give another message)
mkdir -p "$work/plain/tools" "$work/san/tools"
printf '#!/bin/sh\n' >"$work/plain/tools/gd_devinfo" && chmod +x "$work/plain/tools/gd_devinfo"
expect_rc 2 "gd-vm-tests --sanitizer-logs, a build without ASan" \
	"$vmt" --builddir "$work/plain" --sanitizer-logs "$work/logs" no-such-test
grep -q "not built with -fsanitize=address" "$work/err" || fail "no message naming -fsanitize=address"
printf 'int main(void) { return 0; }\n' >"$work/m.c"
san() { gcc -fsanitize=address,undefined "$@" "$work/m.c" -o "$work/san/tools/gd_devinfo" 2>/dev/null; }
if san; then
	expect_rc 2 "gd-vm-tests --sanitizer-logs, GCC's shared libasan and libubsan" \
		"$vmt" --builddir "$work/san" --sanitizer-logs "$work/logs" no-such-test
	grep -q "static-libasan -static-libubsan" "$work/err" || fail "no message naming the static runtimes"
else echo "skip: gcc cannot build with -fsanitize=address,undefined here"; fi
if san -static-libasan -static-libubsan; then
	mkdir -p "$work/logs" && : >"$work/logs/asan.1"
	expect_rc 2 "gd-vm-tests --sanitizer-logs, a folder holding an earlier report" \
		"$vmt" --builddir "$work/san" --sanitizer-logs "$work/logs" no-such-test
	grep -q "is not empty" "$work/err" || fail "no message naming the folder not empty"
else echo "skip: gcc cannot link the sanitizers' runtimes statically here"; fi

# --- --dry-run: the guest command script runs the same command, here
dir="$work/a dir, with 'quotes'"
mkdir -p "$dir"
args=('a b' '$HOME' "it's" '' '*' $'tab\there' 'semi;colon' '"dq"')
(cd "$dir" && "$vm" --dry-run --env 'GD_X=x y $z' --share "$work" -- \
	printf '%s|' "${args[@]}") >"$work/dry" 2>"$work/dry.err" ||
	{ fail "gd-vm --dry-run failed"; cat "$work/dry.err"; }
sed -n '/^# guest command/,$p' "$work/dry" | sed 1d >"$work/cmd"
grep -q '^export GD_VM=1 GD_VM_IP=10.0.0.1 GD_VM_BOND_IP=10.0.1.1 GD_VM_OUT=' "$work/cmd" ||
	fail "the guest command script does not export the GD_VM_* variables"
want=$(printf '%s|' "${args[@]}")
got=$(cd / && bash "$work/cmd" 2>/dev/null)
if [ "$got" = "$want" ]; then ok "arguments survive the guest script's quoting"; else
	fail "arguments: got [$got], want [$want]"
fi
got=$(cd / && sed 's/^exec .*/pwd/' "$work/cmd" | bash 2>/dev/null)
[ "$got" = "$(cd "$dir" && pwd -P)" ] && ok "the guest script changes to the caller's directory" ||
	fail "working directory: got [$got]"
got=$(sed 's/^exec .*/printf %s "$GD_X"/' "$work/cmd" | bash 2>/dev/null)
[ "$got" = 'x y $z' ] && ok "--env value kept literally" || fail "--env: got [$got]"
# Directories hidden by the guest's tmpfs mounts are shared; others are not.
case $(cd "$dir" && pwd -P)/ in
/tmp/*|/run/*|/var/tmp/*)
	grep -qF " $(cd "$dir" && pwd -P)" "$work/dry" && ok "a working directory under /tmp is shared" ||
		fail "the working directory under /tmp is not shared" ;;
esac
grep -q "^gdshare[0-9]* $(cd "$work" && pwd -P)\$" "$work/dry" && ok "--share DIR is mounted at DIR" ||
	fail "--share $work is not in the guest's mounts"
grep -q -- "-accel tcg" "$work/dry" && ok "QEMU runs under TCG" || fail "no TCG in the QEMU command"

# A python3 that is a script (a version manager's shim: pyenv's ran 40 processes per
# start, 5-9 s each under TCG) is resolved on the host to the interpreter it runs,
# on a PATH entry of the control share; a python3 that is a program is left alone.
real=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -x "$real" ]; then
	mkdir "$work/shim"
	printf '#!/bin/sh\nexec %s "$@"\n' "$real" >"$work/shim/python3"
	chmod +x "$work/shim/python3"
	(cd / && PATH=$work/shim:$PATH "$vm" --dry-run -- true) >"$work/shim.dry" 2>&1 ||
		{ fail "gd-vm --dry-run with a python3 shim failed"; cat "$work/shim.dry"; }
	grep -qxF "python3 -> $real" "$work/shim.dry" && ok "a python3 shim is resolved to $real" ||
		fail "a python3 shim ($work/shim/python3) is not resolved to $real"
	grep -q '^export PATH=/run/gd-vm/bin:' "$work/shim.dry" &&
		ok "the guest's PATH starts with the resolved interpreter's directory" ||
		fail "the guest's PATH does not start with /run/gd-vm/bin"
	(cd / && PATH=${real%/*}:$PATH "$vm" --dry-run -- true) >"$work/elf.dry" 2>&1
	grep -q '^python3 -> \|^export PATH=/run/gd-vm/bin' "$work/elf.dry" &&
		fail "a python3 that is a program ($real) was resolved" ||
		ok "a python3 that is a program is left on the caller's PATH"
else
	echo "skip: no python3 here: the shim case is not checked"
fi

# --- the guest tests' shared helpers load under the shell each test names on its #! line
# (stop 41's CI: tests/vm/lib.sh used ${BASH_SOURCE[0]}, and the #!/bin/sh tests died in
# dash with "Bad substitution" before their first check). Each test's sourcing is replayed
# from a scratch directory, without top_srcdir, as a developer running it by hand would.
before=$fails
for t in "$top_srcdir"/tests/vm/*.sh; do
	shebang=$(head -n1 "$t")
	case $shebang in '#!'*) ;; *) continue ;; esac
	interp=${shebang#\#!}
	interp=${interp%% *}
	libs=$(sed -n 's#^\. .*\(tests/vm/\|(dirname "$0")/\)\([a-z-]*lib\.sh\)".*#\2#p' "$t")
	for l in $libs; do
		(cd "$work" && env -u top_srcdir "$interp" -c '. "$(dirname "$0")/'"$l"'"' "$t") \
			>"$work/src.out" 2>&1 ||
			{ fail "$(basename "$t") ($interp) cannot source $l"; cat "$work/src.out"; }
	done
done
[ "$fails" = "$before" ] && ok "the guest tests' helpers load under their own shells"

if [ "$fails" -gt 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all checks passed"
