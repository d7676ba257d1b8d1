#!/usr/bin/env bash
# On the GPU machine (after . .gpu/prelude.sh, the old and new slim builds unpacked in /tmp/old
# and /tmp/new): the viewer's headless FPS at 1M bodies under cuda-bh, each build twice, the new
# one with --hud full and --hud minimal.
# FPS of the headless viewer at 1M bodies under cuda-bh, old and new builds alternated.
for k in 1 2; do
  for v in old new; do
    for hud in full minimal; do
      [ $v = old ] && [ $hud = minimal ] && continue
      extra=""; [ $v = new ] && extra="--hud $hud"
      /tmp/$v/src/app/orrery --headless --solver cuda-bh --preset collision --n 1048576 --frames 240 \
        --vsync off --color speed $extra 2>&1 | grep "summary" | sed "s/^/$v hud=$hud run $k: /" | cut -c1-200
    done
  done
done
