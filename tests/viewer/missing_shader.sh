#!/usr/bin/env bash
# A missing shader is one clear error naming the file and where it was looked for.
# Usage: missing_shader.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
dir="$2/no_shaders"
rm -rf "$dir" && mkdir -p "$dir" && cp "$1" "$dir/orrery"
err=$(ORRERY_SHADER_DIR= env -u DISPLAY "$dir/orrery" --headless --solver cpu --n 64 --frames 1 2>&1 >/dev/null)
rc=$?
echo "exit $rc: $err"
[[ "$err" == *"cannot create a headless OpenGL"* ]] && skip "no EGL display here"
[ $rc -eq 1 ] || fail "expected exit 1, got $rc"
[[ "$err" == "orrery: error: shader '"*"' not found (looked in "* ]] || fail "unclear message"
echo PASS
