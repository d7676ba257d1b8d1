// Colour by quantity, shared by particles.vert and trails.vert (inserted after their #version
// line, after the renderer's #defines of ORRERY_SOURCE_VELOCITY and ORRERY_SOURCE_POSITION_W from
// orrery::ValueSource): the same maths as gfx/colormap.h. The quantity itself never reaches the
// shaders: its record says where its value is read, whether it is a label, and whether it glows.
uniform int u_source;          // an orrery::ValueSource
uniform int u_label;           // 1: the value is a label (u_origin's colours), not on the palette
uniform int u_glow;            // 1: heavy bodies glow warm whatever their value
uniform sampler2D u_palettes;  // every palette, a row each (gfx/colormap.h's tables), linear
uniform int u_palette;         // the row
uniform vec3 u_origin[8];      // origin labels' colours
uniform int u_log;             // 1: a logarithmic scale from u_lo to u_hi
uniform float u_lo;
uniform float u_hi;

// Entry k's texel centre is (k + 0.5) / entries: t in [0, 1] spans the first to the last entry,
// interpolated between them as gfx::palette_rgb does.
vec3 palette(float t) {
  ivec2 size = textureSize(u_palettes, 0);
  float x = (clamp(t, 0.0, 1.0) * float(size.x - 1) + 0.5) / float(size.x);
  float y = (float(u_palette) + 0.5) / float(size.y);
  return textureLod(u_palettes, vec2(x, y), 0.0).rgb;
}

// The colour of value v: an origin label's, or the palette's over [u_lo, u_hi].
vec3 value_color(float v) {
  if (u_label == 1) {
    int k = int(v);
    return u_origin[((k % 8) + 8) % 8];
  }
  float t;
  if (u_log == 1) {
    float lo = log(max(u_lo, 1e-30)), hi = log(max(u_hi, 1e-30));
    t = (log(max(v, 1e-30)) - lo) / max(hi - lo, 1e-30);
  } else {
    t = (v - u_lo) / max(u_hi - u_lo, 1e-30);
  }
  return palette(t);
}
