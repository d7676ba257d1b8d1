// Colour by quantity, shared by particles.vert and trails.vert (inserted after their #version
// line): the same maths as gfx/colormap.h.
uniform int u_quantity;        // orrery::Quantity: 0 speed, 3 mass, 5 origin, others stored
uniform vec3 u_palette[17];    // the palette, sampled evenly from 0 to 1
uniform vec3 u_origin[8];      // origin labels' colours
uniform int u_log;             // 1: a logarithmic scale from u_lo to u_hi
uniform float u_lo;
uniform float u_hi;

vec3 palette(float t) {
  t = clamp(t, 0.0, 1.0) * 16.0;
  int k = min(int(t), 15);
  return mix(u_palette[k], u_palette[k + 1], t - float(k));
}

// The colour of value v: an origin label's, or the palette's over [u_lo, u_hi].
vec3 value_color(float v) {
  if (u_quantity == 5) {
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
