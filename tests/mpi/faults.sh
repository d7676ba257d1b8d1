#!/usr/bin/env bash
# A rank that dies, or one that stops answering, ends a distributed run on every rank within
# seconds with a line naming the rank and the cause, never a hang; a rank killed during a save
# leaves the snapshot saved before it whole. Usage: faults.sh MPIEXEC CHECK
set -u
mpiexec=$1 check=$2
fail() { echo "FAIL: $*"; exit 1; }
run() {  # the run's output in $out, its exit status in $rc, its seconds in $took
  local t0=$SECONDS
  out=$(ORRERY_MPI_TIMEOUT=3 timeout 120 "$mpiexec" -np 3 --oversubscribe --allow-run-as-root "$check" "$@" 2>&1)
  rc=$? took=$((SECONDS - t0))
}
run --die 1
echo "$out" | tail -5
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "a killed rank: exit $rc (124: the run hung)"
[ "$took" -le 30 ] || fail "a killed rank: the run took $took s to end"
echo "$out" | grep -qiE "rank 1.*(signal 9|killed)" || fail "a killed rank: no line names rank 1 and the signal"
run --hang 1
echo "$out" | tail -5
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "a hung rank: exit $rc (124: the run hung)"
[ "$took" -le 30 ] || fail "a hung rank: the run took $took s to end"
echo "$out" | grep -qE "^orrery: rank [02]: the exchange 'counting the bodies' took more than 3 s" ||
  fail "a hung rank: no line names the exchange that waited"
# A rank killed while the run's snapshot is gathered: the run ends, the snapshot saved before it
# is whole, and no file is left at the next one's name.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run --die-saving 2 "$dir/run.orrery"
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "a rank killed in a save: exit $rc (124: the run hung)"
[ "$took" -le 30 ] || fail "a rank killed in a save: the run took $took s to end"
echo "$out" | grep -qiE "rank 2.*(signal 9|killed)" || fail "a rank killed in a save: no line names rank 2"
"$check" --read "$dir/run.orrery" || fail "the snapshot saved before the kill is not whole"
[ ! -e "$dir/run.orrery.next" ] || fail "a file was left at the interrupted save's name"
echo "ok: a killed rank and a hung rank each end the run in seconds ($took s), with their line; the last snapshot is whole"
