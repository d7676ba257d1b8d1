#!/usr/bin/env bash
# Recording under Xvfb: --record FILE.y4m (the file's size and header exact: every drawn frame is
# one video frame), --record FILE.mp4 through ffmpeg and the V key (frame count and size checked
# with ffprobe). Usage: record.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
in_xvfb "$@"
orrery=$1 dir=$2
cd "$dir" && rm -f rec.y4m rec.mp4 orrery-*.mp4 orrery-*.y4m
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
command -v ffprobe >/dev/null || skip "y4m checked; ffmpeg/ffprobe not installed for the MP4 part"
probe() { ffprobe -v error -count_frames -select_streams v:0 \
            -show_entries stream=nb_read_frames,width,height -of csv=p=0 "$1"; }
[ "$(probe rec.y4m)" = "320,180,24" ] || fail "ffprobe rec.y4m: $(probe rec.y4m)"
"$orrery" --solver cpu --preset disk --n 512 --frames 24 --width 320 --height 180 \
  --record rec.mp4 --record-fps 30 >rec_mp4.out 2>&1 || { cat rec_mp4.out; fail "mp4 run: exit $?"; }
cat rec_mp4.out
[ "$(probe rec.mp4)" = "320,180,24" ] || fail "ffprobe rec.mp4: $(probe rec.mp4)"
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
