"""Frames of a Y4M recording (orrery --record FILE.y4m) as one PNG montage, for the docs:
    python3 scripts/video_frames.py FILE.y4m OUT.png [FRAMES] [COLUMNS] [TITLE]
FRAMES: how many, evenly spaced from the first to the last (6). The recorder writes BT.601
limited-range 4:2:0 (src/app/recorder.cpp); this turns it back into RGB."""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

path, out = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 6
columns = int(sys.argv[4]) if len(sys.argv) > 4 else 3
title = sys.argv[5] if len(sys.argv) > 5 else ""
data = open(path, "rb").read()
header, _, body = data.partition(b"\n")
fields = {f[:1]: f[1:] for f in header.split()[1:]}
w, h = int(fields[b"W"]), int(fields[b"H"])
fps = fields[b"F"].decode().split(":")
fps = float(fps[0]) / float(fps[1])
size = w * h * 3 // 2
frames = body.split(b"FRAME\n")[1:]
assert frames and all(len(f) == size for f in frames), "not a whole 4:2:0 Y4M"


def rgb(frame):
    a = np.frombuffer(frame, np.uint8)
    y = a[: w * h].reshape(h, w).astype(np.float32) - 16.0
    u = a[w * h: w * h * 5 // 4].reshape(h // 2, w // 2).repeat(2, 0).repeat(2, 1) - 128.0
    v = a[w * h * 5 // 4:].reshape(h // 2, w // 2).repeat(2, 0).repeat(2, 1) - 128.0
    r = 1.164 * y + 1.596 * v
    g = 1.164 * y - 0.392 * u - 0.813 * v
    b = 1.164 * y + 2.017 * u
    return np.clip(np.dstack([r, g, b]) / 255.0, 0.0, 1.0)


picks = np.linspace(0, len(frames) - 1, count).round().astype(int)
rows = (count + columns - 1) // columns
fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, (4.2 * h / w + 0.45) * rows + 0.5), dpi=110)
for ax in np.ravel(axes):
    ax.axis("off")
for ax, k in zip(np.ravel(axes), picks):
    ax.imshow(rgb(frames[k]))
    ax.set_title(f"frame {k} (t = {k / fps:.2f} s of the path)", fontsize=9)
if title:
    fig.suptitle(title, fontsize=11)
fig.tight_layout()
fig.savefig(out)
print(f"{len(frames)} frames of {w}x{h}; wrote {out}")
