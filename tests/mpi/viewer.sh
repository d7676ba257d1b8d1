#!/usr/bin/env bash
# The viewer over MPI ranks (mpirun -np K orrery --decompose): rank 0 draws every rank's bodies
# (all of them, or every k-th by ID under --draw-max), Space and . pause and step every rank,
# what would change the run is refused, the picture of the same bodies is the same on 1 rank and
# on 3, the ranks write the run (--save-every, --save) while rank 0 draws it, and bad input is one
# line and exit 2. Headless (EGL; skips where none works).
# Usage: viewer.sh MPIEXEC ORRERY PNG_CHECK WORKDIR
set -u
mpiexec=$1 orrery=$2 check=$3 dir=$4/ranks-viewer
. "$(dirname "$0")/../viewer/common.sh"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || fail "no $dir"
view=(--decompose --solver cpu-bh --preset plummer --headless --hide-panel --width 320 --height 240)
ranks() {  # NP ARGS...
  local np=$1
  shift
  env -u DISPLAY OMP_NUM_THREADS=1 timeout 300 "$mpiexec" -np "$np" --oversubscribe \
    --allow-run-as-root "$orrery" "$@"
}
env -u DISPLAY "$orrery" --headless --width 64 --height 64 --n 50 --solver cpu --frames 1 \
  >probe.out 2>&1
grep -q "cannot create a headless OpenGL" probe.out && skip "no EGL display here"

# 2 ranks, every body drawn: 20 frames are 20 steps of 0.016.
ranks 2 "${view[@]}" --n 20000 --frames 20 --screenshot two.png >two.out 2>&1 ||
  { cat two.out; fail "2 ranks: exit $?"; }
expect_line two.out '^orrery: over 2 ranks: 20000 bodies, all drawn; Space pauses, \. steps$'
expect_line two.out '^orrery: over 2 ranks: 20000 bodies, all drawn; 20 steps, t = 0\.32; a frame: steps [0-9.]+ ms, bodies fetched [0-9.]+ ms, sample sent [0-9.]+ ms \(rank 0\)$'
expect_line two.out ', 20 steps \([0-9.]+ a second\), sim [0-9.]+ ms/frame'
"$check" two.png 320 240 >/dev/null || fail "2 ranks drew an empty picture"

# A stride: 30,001 bodies under --draw-max 10000 are every 4th (7,501); the keys pause (Space),
# step twice (.), refuse a reset (r) and run again: 1 + 2 + 7 steps in 12 frames.
ranks 3 "${view[@]}" --n 30001 --draw-max 10000 --frames 12 --keys 'space,.,.,r,space' \
  >keys.out 2>&1 || { cat keys.out; fail "keys: exit $?"; }
expect_line keys.out '^orrery: over 3 ranks: 30001 bodies, every 4th drawn \(7501, body k is ID k x 4\)'
expect_line keys.out '^paused$'
expect_line keys.out '^orrery: over ranks the run is the one launched'
expect_line keys.out '; 10 steps, t = 0\.16; a frame: steps [0-9.]+ ms'
[ "$(grep -c '^orrery: summary' keys.out)" -eq 1 ] || fail "more than one rank drew"

# The same bodies before any step, gathered from 1 rank and from 3: the same picture.
# (The centre of mass is summed in another order on 3 ranks: a body may move by a float's last bit.)
ranks 1 "${view[@]}" --n 30001 --paused --hud none --frames 2 --screenshot one.png >one.out 2>&1 ||
  { cat one.out; fail "1 rank: exit $?"; }
ranks 3 "${view[@]}" --n 30001 --paused --hud none --frames 2 --screenshot three.png \
  >three.out 2>&1 || { cat three.out; fail "3 ranks: exit $?"; }
expect_line three.out '; 0 steps, t = 0; no frame stepped$'
"$(dirname "$check")/orrery_png_diff" one.png three.png ||
  fail "1 rank and 3 ranks drew the same bodies differently"

# The run written by the ranks while rank 0 draws it: a series every 5 steps and the last state;
# a series over a file that exists, and a --save that cannot be written, are one line from rank 0.
ranks 2 "${view[@]}" --n 5000 --frames 10 --save-every 5 --series "v_%02d.orrery" \
  --save last.orrery >saves.out 2>&1 || { cat saves.out; fail "saves: exit $?"; }
expect_line saves.out '^orrery: series: 3 outputs, the last v_02\.orrery$'
expect_line saves.out '^orrery: saved last\.orrery \(5000 bodies\)$'
for f in v_00.orrery v_01.orrery v_02.orrery last.orrery; do [ -s "$f" ] || fail "no $f"; done
cmp -s v_02.orrery last.orrery || fail "the last output and --save differ after the same steps"
again=$(ranks 2 "${view[@]}" --n 5000 --frames 2 --save-every 5 --series "v_%02d.orrery" 2>&1)
r=$?
[ "$r" -eq 2 ] && [ "$(echo "$again" | grep -c '^orrery: error: .*v_00.orrery exists already')" -eq 1 ] ||
  fail "a series over a file: exit $r, not one line ($again)"
nowhere=$(ranks 2 "${view[@]}" --n 5000 --frames 2 --save /nonexistent-orrery/x.orrery 2>&1)
r=$?
[ "$r" -eq 2 ] && [ "$(echo "$nowhere" | grep -c '^orrery: error: --save /nonexistent-orrery')" -eq 1 ] ||
  fail "a --save nowhere: exit $r, not one line ($nowhere)"

# Bad input: one line, exit 2.
one_line() {  # WHAT REGEX COMMAND...
  local what=$1 regex=$2
  shift 2
  local o r
  o=$("$@" 2>&1)
  r=$?
  [ "$r" -eq 2 ] || fail "$what: exit $r ($o)"
  [ "$(echo "$o" | grep -c .)" -eq 1 ] || fail "$what: not one line: $o"
  echo "$o" | grep -Eq -- "$regex" || fail "$what: $o"
}
one_line "no mpirun" "runs under mpirun" env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMIX_RANK \
  "$orrery" --decompose --solver cpu-bh --n 1000 --headless
# (Refused on the command line, before MPI starts: as if under mpirun.)
one_line "an exact solver" "does not run over ranks" env OMPI_COMM_WORLD_SIZE=2 "$orrery" \
  --decompose --solver cpu --n 1000
scene=$(ls "$(dirname "$0")"/../../assets/scenes/*.json | head -1)
one_line "a scene" "a preset only" env OMPI_COMM_WORLD_SIZE=2 "$orrery" --decompose \
  --solver cpu-bh --scene "$scene"
one_line "--draw-max alone" "only with --decompose" "$orrery" --draw-max 10 --headless
one_line "--draw-max 0" "--draw-max" env OMPI_COMM_WORLD_SIZE=2 "$orrery" --decompose \
  --solver cpu-bh --draw-max 0
one_line "--gpus 2" "not with --decompose" env OMPI_COMM_WORLD_SIZE=2 "$orrery" --decompose \
  --solver cpu-bh --gpus 2
one_line "collisions" "collisions and walls" env OMPI_COMM_WORLD_SIZE=2 "$orrery" --decompose \
  --solver cpu-bh --preset box
few=$(ranks 3 "${view[@]}" --n 2 2>&1)
r=$?
[ "$r" -eq 2 ] || fail "fewer bodies than ranks: exit $r ($few)"
[ "$(echo "$few" | grep -c '^orrery: error: 2 bodies on 3 ranks')" -eq 1 ] ||
  fail "fewer bodies than ranks: not one line from rank 0: $few"
# A sample larger than rank 0's host holds: one line from rank 0, before anything is drawn (an
# address-space limit stands for a small host; AddressSanitizer reserves terabytes of address
# space, so not under it).
if ldd "$orrery" | grep -q libasan; then
  echo "(a sample too large: not checked under AddressSanitizer)"
else
  big=$( (ulimit -v 3000000 && ranks 2 "${view[@]}" --n 20000000 --draw-max 20000000) 2>&1)
  r=$?
  [ "$r" -eq 2 ] || fail "a sample too large: exit $r ($big)"
  [ "$(echo "$big" | grep -c '^orrery: error: --draw-max 20000000: rank 0 draws 20000000 bodies: N = 20000000 needs about')" -eq 1 ] ||
    fail "a sample too large: not one line from rank 0: $big"
fi
echo "ok: the viewer over ranks"
