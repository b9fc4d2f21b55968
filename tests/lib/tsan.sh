# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# tsan_run WHAT PROGRAM: run a ThreadSanitizer build (its first report ends
# it with exit 66; 600 s at most). Returns 0, or 77 (the program's own skip);
# a race, the bound or any other exit prints FAIL naming WHAT and exits 1.
tsan_run() {
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" timeout 600 "$2"
	_tsan_rc=$?
	case $_tsan_rc in
	0|77) return $_tsan_rc ;;
	66) echo "FAIL: ThreadSanitizer reported a data race in $1 (above)" ;;
	124) echo "FAIL: $1 did not finish in 600 s under ThreadSanitizer" ;;
	*) echo "FAIL: $1 failed under ThreadSanitizer (exit $_tsan_rc)" ;;
	esac
	exit 1
}
