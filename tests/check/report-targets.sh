#!/bin/sh
# gd_check's report targets checked before anything runs, alike for --junit, --prom, --bundle
# and --write-golden (hostile 2026-11-29 D14, D15): a directory, a FIFO, a name whose temporary
# file beside it would exceed NAME_MAX, a name that is an input (the spec) or another report's:
# exit 2 up front, the spec and the other files untouched, nothing left behind.
. "$(dirname "$0")/lib.sh"
tmp_dir
fx="--topology $H20_XML --sysfs-root $H20_SYSFS"
cd "$tmp" || exit 99
printf 'version: 1\ntopology:\n  gpus: 8\n' >spec.yaml
cp spec.yaml orig.yaml && : >out && : >err

# refused WHAT PATTERN ARGS...: exit 2, the message matches, the spec intact, the dir as before
refused() {
	what=$1 pat=$2
	shift 2
	before=$(ls -A | sort)
	# shellcheck disable=SC2086
	"$GD_CHECK" $fx "$@" >out 2>err
	rc=$?
	after=$(ls -A | sort)
	if [ $rc -eq 2 ] && grep -q -- "$pat" err && cmp -s spec.yaml orig.yaml &&
		[ "$before" = "$after" ] && ! grep -q "^SECTION" out; then
		ok "$what: exit 2 before running ($(head -c 120 err))"
	else
		fail "$what: exit $rc, $(cat err)"
		cp orig.yaml spec.yaml
	fi
}

mkdir x.prom y.tar.gz g.yaml
mkfifo f.prom f.tar.gz
refused "--prom a directory" "a directory" spec.yaml --prom x.prom
refused "--bundle a directory" "a directory" spec.yaml --bundle y.tar.gz
refused "--write-golden a directory" "a directory" --write-golden g.yaml
refused "--prom a FIFO" "not a regular file" spec.yaml --prom f.prom
refused "--bundle a FIFO" "not a regular file" spec.yaml --bundle f.tar.gz
long=$(printf 'b%.0s' $(seq 1 247)).tar.gz
refused "--bundle of a 254-byte name" "temporary file" spec.yaml --bundle "$long"
long=$(printf 'p%.0s' $(seq 1 245)).prom
refused "--prom of a 250-byte name" "temporary file" spec.yaml --prom "$long"
cp spec.yaml s.prom && cp spec.yaml orig.yaml
refused "--prom naming the spec" "an input of this run" s.prom --prom s.prom
cp spec.yaml s.tar.gz
refused "--bundle naming the spec" "an input of this run" s.tar.gz --bundle s.tar.gz
refused "--junit and --prom the same file" "name the same file" spec.yaml --junit r.prom --prom r.prom
touch r.prom && ln -s r.prom l.prom
refused "--junit and --prom the same existing file" "name the same file" spec.yaml --junit l.prom --prom r.prom
rm -f r.prom l.prom

# a name that fits: the run happens and writes it
long=$(printf 'p%.0s' $(seq 1 240)).prom
# shellcheck disable=SC2086
"$GD_CHECK" $fx spec.yaml --prom "$long" >out 2>err
[ $? -eq 0 ] && [ -s "$long" ] && ok "--prom of a 245-byte name: written" || fail "--prom long ok: $(cat err)"
finish
