#!/usr/bin/env bash
# Recording under Xvfb: --record FILE.y4m (the file's size and header exact: every drawn frame is
# one video frame), --record FILE.mp4 through ffmpeg and the V key (frame count and size checked
# with ffprobe). Usage: record.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
viewer_test "$@"
# A folder of its own: the other viewer tests save timestamped screenshots beside it, which
# would shift this one's names.
mkdir -p record && cd record || fail "no $dir/record"
rm -f rec.y4m rec.mp4 orrery-*.mp4 orrery-*.y4m
# An odd size records at the even size below it.
"$orrery" --solver cpu --preset disk --n 512 --frames 24 --width 321 --height 181 --hide-panel \
  --record rec.y4m --record-fps 30 >rec_y4m.out 2>&1 || { cat rec_y4m.out; fail "y4m run: exit $?"; }
cat rec_y4m.out
expect_line rec_y4m.out '^recording started rec.y4m \(320x180, 30 fps\)$'
expect_line rec_y4m.out '^recording stopped rec.y4m: 24 frames, 0.8 s of video'
header="YUV4MPEG2 W320 H180 F30:1 Ip A1:1 C420jpeg"
[ "$(head -1 rec.y4m)" = "$header" ] || fail "y4m header '$(head -1 rec.y4m)'"
want=$(( ${#header} + 1 + 24 * (6 + 320 * 180 * 3 / 2) ))
got=$(stat -c %s rec.y4m)
[ "$got" -eq "$want" ] || fail "rec.y4m has $got bytes, expected $want (24 frames)"
[ "$(grep -c . <(grep -a -o FRAME rec.y4m))" -eq 24 ] || fail "rec.y4m does not hold 24 FRAME marks"
# Issue 21: names never collide. Four recordings (V pressed eight times) and three screenshots
# within a second or two: seven files (they once went down to the second and left 3 and 1).
rm -f orrery-*.mp4 orrery-*.y4m orrery-*.png
"$orrery" --solver cpu --preset disk --n 256 --frames 14 --width 160 --height 120 \
  --keys v,v,v,v,v,v,v,v,f12,f12,f12 >names.out 2>&1 || { cat names.out; fail "names run: exit $?"; }
n_video=$(ls orrery-*.mp4 orrery-*.y4m 2>/dev/null | wc -l)
n_png=$(ls orrery-*.png 2>/dev/null | wc -l)
[ "$n_video" -eq 4 ] && [ "$n_png" -eq 3 ] || { cat names.out; fail "$n_video videos and $n_png screenshots, expected 4 and 3"; }
rm -f orrery-*.mp4 orrery-*.y4m orrery-*.png
# whole_y4m FILE LOG W H: FILE holds exactly the frames its "recording stopped" line in LOG counts,
# each W x H in 4:2:0.
whole_y4m() {
  local frames want
  frames=$(sed -n "s/^recording stopped $1: \\([0-9]*\\) frames.*/\\1/p" "$2")
  [ -n "$frames" ] || fail "no 'recording stopped $1' line in $2"
  want=$(( $(head -1 "$1" | wc -c) + frames * (6 + $3 * $4 * 3 / 2) ))
  [ "$(stat -c %s "$1")" -eq "$want" ] || fail "$1: $(stat -c %s "$1") bytes, expected $want"
}
# term_recording FILE LOG W H: SIGTERM to the recording viewer ($pid) ends it with 128 + 15,
# leaving FILE whole and no FILE.part.
term_recording() {
  local rc
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  cat "$2"
  [ "$rc" -eq 143 ] || fail "SIGTERM during the recording of $1: exit $rc, expected 143"
  [ -e "$1.part" ] && fail "SIGTERM left $1.part"
  whole_y4m "$@"
}
# Issue 21: SIGTERM (or Ctrl-C) during a recording finishes the file: no .part is left, the video
# holds every frame it says, and the exit status is 128 + 15.
rm -f sig.y4m sig.y4m.part
"$orrery" --solver cpu --preset disk --n 256 --frames 100000 --width 160 --height 120 \
  --record sig.y4m >sig.out 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^recording started' sig.out && break; sleep 0.1; done
sleep 1
term_recording sig.y4m sig.out 160 120
rm -f sig.y4m
# Issue 21: a window resized during a recording goes on recording, each frame fitted to the
# recording's size (it once stopped at the resize, keeping 24 of 197 frames).
if command -v xdotool >/dev/null; then
  rm -f resize.y4m
  "$orrery" --solver cpu --preset disk --n 256 --frames 100000 --width 320 --height 180 \
    --record resize.y4m >resize.out 2>&1 &
  pid=$!
  wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
  for _ in $(seq 100); do grep -q '^recording started' resize.out && break; sleep 0.1; done
  sleep 0.5
  [ -n "$wid" ] && xdotool windowsize "$wid" 500 260
  sleep 1.5
  term_recording resize.y4m resize.out 320 180
  grep -q 'recording stopped:' resize.out && fail "the resize stopped the recording"
  rm -f resize.y4m
fi
# A recording onto a full disk (FILE.part links to /dev/full) ends the run with exit 1 and one
# error line matching $2, and no broken file takes the name ($1: the extension).
full_disk() {
  local f=full.$1 rc
  rm -f "$f" "$f.part"
  ln -s /dev/full "$f.part"
  "$orrery" --solver cpu --preset disk --n 256 --frames 5 --width 160 --height 120 \
    --record "$f" >"$f.out" 2>&1
  rc=$?
  cat "$f.out"
  [ "$rc" -eq 1 ] || fail "recording $f onto a full disk: exit $rc, expected 1"
  expect_line "$f.out" "$2"
  [ -e "$f" ] && fail "a broken $f was left"
  rm -f "$f" "$f.part" "$f.out"
}
# Issue 21: a recording whose writes fail ended with exit 0.
[ -w /dev/full ] && full_disk y4m '^orrery: error: .*full.y4m.*No space left on device'
# Issue 42: --record onto a symbolic link replaced the link with the video; it now writes through
# the link, which stays a link.
rm -f link.y4m real.y4m
ln -s real.y4m link.y4m
"$orrery" --solver cpu --preset disk --n 256 --frames 4 --width 160 --height 120 \
  --record link.y4m >link.out 2>&1 || { cat link.out; fail "recording onto a link: exit $?"; }
[ -L link.y4m ] || fail "the recording replaced the link link.y4m"
[ "$(readlink link.y4m)" = real.y4m ] || fail "link.y4m now points at $(readlink link.y4m)"
[ "$(stat -c %s real.y4m)" -eq $(( $(head -1 real.y4m | wc -c) + 4 * (6 + 160 * 120 * 3 / 2) )) ] ||
  fail "real.y4m: $(stat -c %s real.y4m) bytes, not 4 frames"
rm -f link.y4m real.y4m
command -v ffprobe >/dev/null || skip "y4m checked; ffmpeg/ffprobe not installed for the MP4 part"
probe() { ffprobe -v error -count_frames -select_streams v:0 \
            -show_entries stream=nb_read_frames,width,height -of csv=p=0 "$1"; }
[ "$(probe rec.y4m)" = "320,180,24" ] || fail "ffprobe rec.y4m: $(probe rec.y4m)"
"$orrery" --solver cpu --preset disk --n 512 --frames 24 --width 320 --height 180 \
  --record rec.mp4 --record-fps 30 >rec_mp4.out 2>&1 || { cat rec_mp4.out; fail "mp4 run: exit $?"; }
cat rec_mp4.out
[ "$(probe rec.mp4)" = "320,180,24" ] || fail "ffprobe rec.mp4: $(probe rec.mp4)"
# Issue 42: an MP4 onto a full disk ended with exit 0; ffmpeg's own line now says why.
[ -w /dev/full ] &&
  full_disk mp4 '^orrery: error: .*recording full.mp4: ffmpeg failed: .*No space left on device'
# V starts on frame 2 and stops on frame 5: frames 2, 3 and 4 are recorded.
"$orrery" --solver cpu --preset disk --n 512 --frames 8 --width 320 --height 180 \
  --keys v,.,.,v >rec_v.out 2>&1 || { cat rec_v.out; fail "V run: exit $?"; }
cat rec_v.out
expect_line rec_v.out '^recording started orrery-[0-9-]+\.mp4 \(320x180, 60 fps\)$'
expect_line rec_v.out '^recording stopped orrery-[0-9-]+\.mp4: 3 frames'
video=$(ls orrery-*.mp4 | head -1)
[ "$(probe "$video")" = "320,180,3" ] || fail "ffprobe $video: $(probe "$video")"
rm -f rec.y4m rec.mp4 orrery-*.mp4
echo PASS
