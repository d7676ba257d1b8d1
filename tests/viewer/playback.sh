#!/usr/bin/env bash
# Playing a series back (issue 45): --load of a glob or a folder plays the outputs (a series
# orrery-bench wrote), smoothly between them by default; the keys pause, step and turn play back;
# a damaged output is skipped with one line; "continue" starts a live run from the output on
# screen; bad input is one line and exit 2. Headless (EGL; skips where none works).
# Usage: playback.sh ORRERY BENCH PNG_CHECK WORKDIR
set -u
. "$(dirname "$0")/common.sh"
orrery=$1 bench=$2 check=$3 dir=$4/playback
rm -rf "$dir" && mkdir -p "$dir/run" && cd "$dir" || fail "no $dir"
run() { env -u DISPLAY "$orrery" --headless --width 320 --height 200 --hud none "$@"; }
run --n 50 --solver cpu --frames 1 >probe.out 2>&1
grep -q "cannot create a headless OpenGL" probe.out && skip "no EGL display here"
"$bench" --preset collision --n 2000 --solver cpu-bh --steps 60 --warmup 0 --save-every 10 \
  --series run/snap_%03d.orrery >bench.out 2>&1 || { cat bench.out; fail "the series: exit $?"; }
# A glob in quotes: 7 outputs, 4 a second at 60 frames a second: output 3 after 45 frames.
run --load 'run/snap_*.orrery' --frames 45 --play-speed 4 --screenshot a.png >glob.out 2>&1 ||
  { cat glob.out; fail "--load glob: exit $?"; }
expect_line glob.out '^orrery: playing a series of 7 outputs \(snap_000.orrery to snap_006.orrery\) at 4 outputs a second, smoothly between them'
expect_line glob.out '^orrery: playback: at output 3.00 of 7 \(snap_00[23].orrery\), t = 0.48, 0 skipped, smooth; the longest frame while playing [0-9.]+ ms$'
expect_line glob.out ', 0 steps \(0.0 a second\)'
"$check" a.png 320 200 >/dev/null || fail "the picture is empty"
# A folder, raw outputs, a different moment: a different picture.
run --load run --frames 20 --play-speed 4 --play-raw --screenshot b.png >folder.out 2>&1 ||
  { cat folder.out; fail "--load folder: exit $?"; }
expect_line folder.out '^orrery: playback: at output 1.33 of 7 \(snap_001.orrery\), t = 0.16, 0 skipped, raw; the longest frame while playing [0-9.]+ ms$'
cmp -s a.png b.png && fail "two moments of the series drew the same picture"
# Speed in simulation time: 0.32 a second over outputs 0.16 apart is 2 outputs a second.
run --load 'run/snap_*.orrery' --frames 45 --play-speed time=0.32 >time.out 2>&1 || fail "time=: exit $?"
expect_line time.out '^orrery: playback: at output 1.50 of 7 \(snap_001.orrery\), t = 0.24, 0 skipped, smooth; the longest frame while playing [0-9.]+ ms$'
# Keys: pause, step forward twice and back once; then backwards from the end; then a live run.
run --load 'run/snap_*.orrery' --frames 8 --keys 'space,.,.,comma' >keys.out 2>&1 || fail "keys: exit $?"
expect_line keys.out '^paused$'
expect_line keys.out '^orrery: playback: at output 1.00 of 7 \(snap_001.orrery\), t = 0.16'
run --load 'run/snap_*.orrery' --frames 30 --play-speed 120 --keys 'backspace' >back.out 2>&1 ||
  fail "backspace: exit $?"
expect_line back.out '^playing backwards$'
run --load 'run/snap_*.orrery' --frames 20 --keys '.,.,continue' >cont.out 2>&1 || fail "continue: exit $?"
expect_line cont.out '^orrery: continuing from output 2 \(snap_002.orrery, t = 0.320000\)$'
grep -Eq ', [1-9][0-9]* steps \(' cont.out || { cat cont.out; fail "the live run took no step"; }
# A damaged output in the middle: skipped with one line, the rest plays.
cp -r run damaged && printf 'damaged' >damaged/snap_003.orrery
run --load 'damaged/snap_*.orrery' --frames 120 --play-speed 4 >gap.out 2>&1 || fail "gap: exit $?"
[ "$(grep -c 'skipped: .*snap_003.orrery' gap.out)" -eq 1 ] || { cat gap.out; fail "no one line for the gap"; }
expect_line gap.out '^orrery: playback: at output 6.00 of 7 .*, 1 skipped'
# The viewer writes a series too (--save-every), which plays back; a folder that goes mid-run stops
# the series with one line and pauses the run, every earlier output whole.
mkdir -p own
run --solver cpu-bh --n 1500 --frames 30 --save-every 5 --series 'own/out_%03d.orrery' >own.out 2>&1 ||
  { cat own.out; fail "--save-every: exit $?"; }
# An output at step 0 and every 5th: as many as the steps the CPU took in its 30 frames (a loaded
# machine's frames do not wait for the steps).
steps=$(sed -nE 's/^orrery: summary: .* ([0-9]+) steps \(.*/\1/p' own.out)
[ "${steps:-0}" -ge 5 ] || fail "--save-every: ${steps:-no} steps in 30 frames"
outputs=$((steps / 5 + 1))
expect_line own.out "^orrery: series: $outputs outputs, the last own/out_$(printf %03d $((outputs - 1))).orrery\$"
run --load own --frames 10 >own_play.out 2>&1 || fail "playing the viewer's series: exit $?"
expect_line own_play.out "^orrery: playing a series of $outputs outputs"
mkdir -p gone
run --solver cpu-bh --n 500 --frames 5000 --save-every 2 --series 'gone/x_%03d.orrery' >stop.out 2>&1 &
pid=$!
for _ in $(seq 300); do [ -e gone/x_002.orrery ] && break; sleep 0.02; done
mv gone gone_away  # at once (rm -rf races the writes: a new file keeps the folder)
wait $pid || { cat stop.out; fail "a series whose folder went: exit $?"; }
# (Told at the frame after the failed write, or at exit where that was the last frame.)
expect_line stop.out '^orrery: series stopped(, the run paused)? \(every output before is whole\): '
# Bad input: one line, exit 2.
env -u DISPLAY "$orrery" --headless --frames 1 --load 'run/none_*.orrery' >none.out 2>none.err
[ $? -eq 2 ] && [ "$(wc -l <none.err)" -eq 1 ] && grep -q "no file matches" none.err ||
  { cat none.err; fail "a glob matching nothing"; }
env -u DISPLAY "$orrery" --headless --frames 1 --load 'run/snap_*.orrery' --play-speed 0 >speed.out 2>speed.err
[ $? -eq 2 ] && grep -q "play-speed '0': out of range" speed.err || { cat speed.err; fail "--play-speed 0"; }
env -u DISPLAY "$orrery" --headless --frames 1 --load 'run/snap_*.orrery' --play-speed time=-1 >speed.out 2>speed.err
[ $? -eq 2 ] && grep -q "a time a second > 0" speed.err || { cat speed.err; fail "--play-speed time=-1"; }
echo PASS
