#version 330 core
// A soft round sprite, added into the HDR target.
in vec3 v_color;
in float v_energy;
in float v_soft;
flat in int v_sphere;
out vec4 frag_color;

void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(d, d);
  if (r2 >= 1.0) discard;
  if (v_sphere == 1) {  // a ball: lit across its disc, darker to the limb
    frag_color = vec4(v_color * (v_energy * (0.3 + 0.7 * sqrt(1.0 - r2))), 1.0);
    return;
  }
  // A bright core with a wide halo that reaches zero at the rim.
  float star = exp(-r2 * 14.0) + 0.22 * exp(-r2 * 3.5);
  float bulge = exp(-r2 * 7.0);
  float glow = mix(star, bulge, v_soft) * (1.0 - r2);
  frag_color = vec4(v_color * (v_energy * glow), 1.0);
}
