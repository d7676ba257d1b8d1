#version 330 core
// Maps the additive HDR image to the screen over a dark gradient background.
in vec2 v_uv;
uniform sampler2D u_hdr;
uniform float u_exposure;
uniform sampler2D u_bloom;        // the bloom's blurred small image (gfx/bloom.h)
uniform float u_bloom_strength;   // 0: none
out vec4 frag_color;

void main() {
  vec3 hdr = texture(u_hdr, v_uv).rgb;
  if (u_bloom_strength > 0.0) hdr += u_bloom_strength * texture(u_bloom, v_uv).rgb;
  vec3 light = vec3(1.0) - exp(-hdr * u_exposure);
  light = pow(light, vec3(1.0 / 1.8));
  vec3 top = vec3(0.028, 0.030, 0.060);
  vec3 bottom = vec3(0.006, 0.007, 0.016);
  vec2 c = v_uv - 0.5;
  vec3 bg = mix(bottom, top, v_uv.y) * (1.0 - 0.6 * dot(c, c));
  frag_color = vec4(bg + light * (1.0 - bg), 1.0);
}
