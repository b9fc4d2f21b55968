# shellcheck shell=bash
# The shell tests' checks, written once. The script that sources this defines
#   ok MESSAGE   (a check passed: print it, count it)
#   ko MESSAGE   (a check failed: print "FAIL: ...", count it, fail the script)
# and keeps its own counters; the functions below decide and call them. Regexes
# are extended (grep -E). Sourced as tests/lib/ports.sh is: by a path relative to
# the script (in the Soft-RoCE guest the host's tree is mounted at the same path).

# expect_exit WANT REGEX WHAT CMD...: run CMD, stdout and stderr into $expect_out
# (default $T/out, else $tmp/out: the caller's scratch folder, where its later
# checks read it); passes when CMD exits WANT and, unless REGEX is empty, its output
# has a line matching REGEX. On failure the output's last lines are shown.
expect_exit() {
	local want=$1 re=$2 what=$3 rc out=${expect_out:-${T:-${tmp:?expect_exit: set expect_out, T or tmp}}/out}
	shift 3
	"$@" > "$out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		ko "$what: exit $rc, want $want"; sed 's/^/    /' "$out" | tail -n 5
	elif [ -n "$re" ] && ! grep -Eq -- "$re" "$out"; then
		ko "$what: exit $rc, but no '$re' in the output"; sed 's/^/    /' "$out" | tail -n 5
	else
		ok "$what (exit $rc)"
	fi
}

# expect_outcome NAME WHAT RC WANT ELAPSED LIMIT FILE REGEX: a run that already
# ended (exit RC after ELAPSED seconds, its output in FILE) exited WANT, within
# LIMIT seconds, with a message matching REGEX (the fault cases: a wrong exit, a
# wait past its deadline or a message that does not name the cause each fail).
expect_outcome() {
	local name=$1 what=$2 rc=$3 want=$4 el=$5 lim=$6 file=$7 re=$8
	if [ "$rc" -ne "$want" ]; then
		ko "$name: $what exit $rc (want $want)"; sed 's/^/    /' "$file" | tail -n 6; return
	fi
	if [ "$el" -gt "$lim" ]; then
		ko "$name: $what took ${el}s (limit ${lim}s)"; return
	fi
	if ! grep -Eq -- "$re" "$file"; then
		ko "$name: $what message '$re' missing"; sed 's/^/    /' "$file" | tail -n 6; return
	fi
	ok "$name: $what exit $rc in ${el}s"
}

# expect_in WHAT FILE REGEX: FILE has a line matching REGEX; else ko, with FILE's
# last lines.
expect_in() {
	grep -Eq -- "$3" "$2" && return 0
	ko "$1: no '$3' in $2:"; sed 's/^/    /' "$2" | tail -n 20
	return 1
}
